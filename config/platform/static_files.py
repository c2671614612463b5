"""The static files' storage: WhiteNoise's compressing one, made to compress only
what changed.

WhiteNoise's ``CompressedStaticFilesStorage`` compresses every collected file at
every collectstatic, changed or not. ``make run`` collects at each start
(scripts/run.py), so each start spent about 1.2 s of processor time writing the
same .gz files again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from whitenoise.storage import CompressedStaticFilesStorage


class CompressChangedStaticFilesStorage(CompressedStaticFilesStorage):  # type: ignore[misc]
    """Compresses a collected file only if one of its compressed copies is missing
    or was not made from the file as it is now.

    A copy made from a file carries the file's modification time, set once the copy
    is written whole. collectstatic writes a changed file anew, so the file's time
    moves on and its old copies no longer match; a copy cut short before it was
    stamped carries its own writing time. WhiteNoise stamps the time through a
    float, which can land up to a quarter of a microsecond off (one copy was 106 ns
    early), so this storage stamps each new copy again to the nanosecond and asks
    for an exact match.

    Files WhiteNoise never compresses (images, fonts) have no copies, so they are
    passed on and it skips them as before. A file that does not compress enough
    to be worth a copy gets none either and is tried again each time (four small
    files of the 197 Felt collects).
    """

    def post_process(
        self, paths: dict[str, Any], dry_run: bool = False, **options: Any
    ) -> Iterator[tuple[str, str | None, bool | Exception]]:
        if dry_run:
            return
        suffixes = self.copy_suffixes()
        stale = {
            path: found
            for path, found in paths.items()
            if not self.has_current_copies(path, suffixes)
        }
        for name, copy_name, processed in super().post_process(stale, **options):
            if processed is True:
                self.stamp_like(copy_name, name)
            yield name, copy_name, processed

    def copy_suffixes(self) -> list[str]:
        """The copies WhiteNoise makes of a file that compresses: .gz, and .br
        when the brotli package is installed."""
        compressor = self.create_compressor(quiet=True)
        used = {".br": compressor.use_brotli, ".gz": compressor.use_gzip}
        return [suffix for suffix, is_used in used.items() if is_used]

    def has_current_copies(self, name: str, suffixes: list[str]) -> bool:
        try:
            made = os.stat(self.path(name)).st_mtime_ns
            return all(os.stat(self.path(name + s)).st_mtime_ns == made for s in suffixes)
        except FileNotFoundError:
            return False

    def stamp_like(self, copy_name: str, name: str) -> None:
        made = os.stat(self.path(name))
        os.utime(self.path(copy_name), ns=(made.st_atime_ns, made.st_mtime_ns))
