"""Names a person reads as the same are the same name: each name's key.

A name's key is its confusable skeleton (Unicode Technical Standard #39) taken
after NFKC and case folding: ``аdmin`` with a Cyrillic а, fullwidth
``ａｄｍｉｎ``, ``ADMIN`` and ``adm1n`` all have the key of ``admin``. The
skeleton is ICU's (its spoof checker, through PyICU), from the confusables
data of the ICU the server runs: ``KEYS_VERSION`` names it. Two names with one
key may not belong to two members (``accounts/names.py`` checks;
``User.display_name_key`` is unique, and ``User.refresh_name_keys`` keeps the
keys with the names).

Folding case first makes ``Admin`` the same name as ``admin``, but also a
capital I that stands for an l ``aIice`` a plain ``aiice``; so a name being
checked is also looked up by the key of its skeleton as written
(``keys_to_check``), which catches ``aIice`` against a member called
``alice``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import icu

_SPOOF_CHECKER = icu.SpoofChecker()
KEYS_VERSION = f"ICU {icu.ICU_VERSION}, Unicode {icu.UNICODE_VERSION}"


def _skeleton(text: str) -> str:
    return str(_SPOOF_CHECKER.getSkeleton(0, text))


def name_key(name: str) -> str:
    """``name``'s key: its skeleton after NFKC and case folding.

    >>> name_key("ａｄｍｉｎ") == name_key("\u0430dmin") == name_key("ADMIN") == "adrnin"
    True
    """
    return _skeleton(unicodedata.normalize("NFKC", name.strip()).casefold())


def keys_to_check(name: str) -> set[str]:
    """The keys a new ``name`` may not share with another member's: its own, and that
    of its skeleton as written (a capital standing in for another letter)."""
    as_written = _skeleton(unicodedata.normalize("NFKC", name.strip()))
    return {name_key(name), name_key(as_written)}


def fill_name_keys(users: Any) -> int:
    """Work out every member's keys again (``users``: the user model's manager, the
    migration's or the app's; call inside a transaction); how many members. A display
    name's key is kept only where no earlier member's display name already has it: a
    member whose display name looked like an earlier one's before keys were kept keeps
    it, unkeyed, until they change it. For the data migration, and after an upgrade
    of ICU, whose confusables data may move keys."""
    users.update(display_name_key="")  # none is in the way of another while they move
    held: set[str] = set()
    rows = users.order_by("pk").values_list("pk", "username", "display_name")
    count = 0
    for pk, username, display_name in rows.iterator():
        key = name_key(display_name) if display_name else ""
        kept = key if key not in held else ""
        held.add(key)
        users.filter(pk=pk).update(username_key=name_key(username), display_name_key=kept)
        count += 1
    return count
