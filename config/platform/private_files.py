"""FELT_HOME holds the database (sessions, password hashes, live decks), the secret
key and Redis' files: only the user Felt runs as may read them.

The launcher sets ``PRIVATE_UMASK`` for itself and every process it starts, so
the files SQLite, Redis and Celery beat create are private from the start;
``make_private_home`` also tightens a home made by an older Felt.
"""

from __future__ import annotations

import os
from pathlib import Path

PRIVATE_UMASK = 0o077  # new files 0600, new folders 0700
HOME_MODE = 0o700
FILE_MODE = 0o600


def make_private_home(home: Path) -> Path:
    """Create ``home`` (0700), or make an existing one and its files private."""
    home.mkdir(mode=HOME_MODE, parents=True, exist_ok=True)
    home.chmod(HOME_MODE)
    for path in home.iterdir():
        if path.is_file() and not path.is_symlink():
            path.chmod(FILE_MODE)
    return home


def use_private_umask() -> None:
    """From now on this process (and its children) create files only they may read."""
    os.umask(PRIVATE_UMASK)
