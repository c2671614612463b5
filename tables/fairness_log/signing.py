"""The log's signing key: Ed25519, derived from SECRET_KEY with HKDF-SHA256 (info
"felt fairness log v1"), so every process of one deployment signs with the same
key and nothing new is configured. A new SECRET_KEY is a new log key: heads
signed before stay checkable with the public key published with them.
"""

from __future__ import annotations

from functools import cache

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

KEY_INFO = b"felt fairness log v1"


@cache
def _key(secret: str) -> Ed25519PrivateKey:
    seed = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=KEY_INFO).derive(
        secret.encode("utf-8")
    )
    return Ed25519PrivateKey.from_private_bytes(seed)


def signing_key() -> Ed25519PrivateKey:
    return _key(settings.SECRET_KEY)


def public_key_hex() -> str:
    """The raw 32-byte Ed25519 public key, in lowercase hex."""
    raw = signing_key().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return raw.hex()


def sign(message: bytes) -> str:
    """The 64-byte Ed25519 signature of ``message``, in lowercase hex."""
    return signing_key().sign(message).hex()
