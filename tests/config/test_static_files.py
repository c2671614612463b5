"""collectstatic compresses a file again only when it changed or a copy of it is
missing or cut short (config/platform/static_files.py)."""

from __future__ import annotations

import gzip
import os
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

# Files in temporary folders: neither a database nor Redis.
pytestmark = pytest.mark.pure

STYLE = "body { color: black; }\n" * 200
SCRIPT = "console.log('felt');\n" * 200


class Collecting:
    """A real collectstatic with Felt's storage, from a folder of three files into
    an empty STATIC_ROOT."""

    def __init__(self, settings, tmp_path: Path) -> None:
        self.source = tmp_path / "static"
        self.source.mkdir()
        (self.source / "felt.css").write_text(STYLE)
        (self.source / "felt.js").write_text(SCRIPT)
        (self.source / "icon.png").write_bytes(b"\x89PNG" + bytes(2000))  # never compressed
        self.root = tmp_path / "staticfiles"
        settings.STATICFILES_DIRS = [self.source]
        settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
        settings.STATIC_ROOT = self.root

    def __call__(self) -> set[str]:
        """Collects; returns the files it compressed."""
        out = StringIO()
        call_command("collectstatic", interactive=False, verbosity=2, stdout=out)
        return set(re.findall(r"Post-processed '([^']+)' as", out.getvalue()))


@pytest.fixture
def collect(settings, tmp_path):
    return Collecting(settings, tmp_path)


def a_second_later(path: Path) -> int:
    """File times step with the kernel's clock tick: a write soon after another can
    carry the same time, so a test that needs a later one sets it."""
    return path.stat().st_mtime_ns + 10**9


def test_only_a_changed_file_is_compressed_again(collect):
    assert collect() == {"felt.css", "felt.js"}
    assert collect() == set(), "nothing changed, nothing compressed"

    changed = collect.source / "felt.css"
    changed.write_text("body { color: green; }\n" * 300)
    later = a_second_later(collect.root / "felt.css")
    os.utime(changed, ns=(later, later))
    script_copy = (collect.root / "felt.js.gz").stat()

    assert collect() == {"felt.css"}
    compressed = gzip.decompress((collect.root / "felt.css.gz").read_bytes())
    assert compressed.decode() == changed.read_text()
    assert (collect.root / "felt.js.gz").stat().st_ctime_ns == script_copy.st_ctime_ns
    assert gzip.decompress((collect.root / "felt.js.gz").read_bytes()).decode() == SCRIPT


@pytest.mark.parametrize("damage", ["missing", "cut short"])
def test_a_missing_or_cut_short_copy_is_made_again(collect, damage):
    collect()
    copy = collect.root / "felt.js.gz"
    if damage == "missing":
        copy.unlink()
    else:  # written, then stopped before its file's time was set on it
        copy.write_bytes(copy.read_bytes()[:20])
        later = a_second_later(collect.root / "felt.js")
        os.utime(copy, ns=(later, later))

    assert collect() == {"felt.js"}
    assert gzip.decompress(copy.read_bytes()).decode() == SCRIPT
