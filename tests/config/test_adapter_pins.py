"""The adapters over dependencies' internals run on the releases they were written
against. Each reaches past a public API, so a new release of what it touches must
make someone read the adapter again before the pin moves: this test fails first."""

from __future__ import annotations

import re
from importlib.metadata import version

from config.adapters import channel_layer
from tests.import_graph import ROOT

WRITTEN_AGAINST = {
    # config/adapters/channel_layer.py: the pub/sub layer's shards, their locks and connections.
    "channels-redis": channel_layer.BATCHED_VERSIONS,
    # config/adapters/frame_guard.py: Daphne's websocket factory and protocol (subclassed);
    # config/adapters/connection_checks.py: its server's walks over its connections,
    "daphne": ("4.2.",),
    # the autobahn protocol under it (its states, onMessage, serverSend, sendClose;
    # config/adapters/plain_debug_text.py: its websocket modules' debug text helpers),
    "autobahn": ("26.10.",),
    # and the Twisted transport whose reading it pauses and resumes
    # (config/adapters/prompt_writes.py: its write buffers and writeSomeData).
    "twisted": ("26.10.",),
    # config/adapters/sqlite/base.py: the SQLite backend's (underscored) transaction hooks;
    # config/adapters/postgresql/base.py: the PostgreSQL backend's connection from its pool;
    # config/adapters/redis_cache.py: the Redis cache backend's client and its pools;
    # config/adapters/compiled_query.py: the SQL compiler's converters and column map;
    # config/adapters/session_store.py: the database session store's row read;
    # config/adapters/json_field.py: JSONField's reading and saving of a value.
    "django": ("5.2.",),
    # config/adapters/celery_consumer.py: the worker consumer's clean-up of a lost
    # connection, and the Redis channel's close it runs to the end.
    "celery": ("5.7.",),
    "kombu": ("5.7.",),
}


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_versions() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "requirements.txt").read_text("utf-8").splitlines():
        name, is_pin, release = line.partition("==")
        if is_pin:
            pins[normalized(name)] = release.strip()
    return pins


def test_the_adapters_run_on_the_releases_they_were_written_against() -> None:
    pins = pinned_versions()
    moved = [
        f"{name}: pinned {pins.get(name)}, installed {version(name)}, written against {series}"
        for name, series in WRITTEN_AGAINST.items()
        if not (pins.get(name, "").startswith(series) and version(name).startswith(series))
    ]
    assert not moved, "read the adapter again before moving its pin:\n" + "\n".join(moved)
