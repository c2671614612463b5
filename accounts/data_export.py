"""A member's data, theirs to take: asked for on the profile, built as a zip by a
Celery task, downloaded once through a link that expires, then deleted.

What goes in the zip is said by each app that holds something of the member's
(``register``): accounts writes the account and the points ledger here; tables
(the hands, as the member saw them) and tournaments (club memberships and
tournament entries) sit above accounts and register their parts when they are
ready. The zip is written under ``DATA_EXPORT_DIR`` (FELT_HOME) with mode 600,
as Felt keeps its other private files, and named by the export's random key.

One export is open at a time (a database constraint), and a member may ask for
``DATA_EXPORTS_PER_DAY`` in a day: building one reads every hand they played.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
from collections.abc import Callable, Iterable
from datetime import timedelta
from pathlib import Path
from typing import IO, Any
from zipfile import ZIP_DEFLATED, ZipFile

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import DataExport, PointsEntry, User

log = logging.getLogger(__name__)

# A file of the zip: its name, and its text a piece at a time.
Part = tuple[str, Iterable[str]]
Section = Callable[[User], Iterable[Part]]
_sections: list[Section] = []


def register(section: Section) -> None:
    """``section(user)`` yields files for ``user``'s zip (apps call this in ``ready``)."""
    if section not in _sections:
        _sections.append(section)


def as_json(value: Any) -> Iterable[str]:
    """One file's text: ``value`` as indented JSON (dates as ISO 8601)."""
    yield json.dumps(value, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False) + "\n"


class ExportRefused(Exception):
    """Why a member may not ask for their data now (a sentence for the profile)."""


class ExportGone(Exception):
    """No export of this member's with this key that can be downloaded (a 404)."""


def export_request(*, user: User) -> DataExport:
    """A new export for ``user``, to be built by the task the caller queues on commit;
    ``ExportRefused`` while one is open or the day's allowance is used."""
    day_ago = timezone.now() - timedelta(days=1)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one request at a time
        if user.data_exports.filter(status__in=DataExport.OPEN).exists():
            raise ExportRefused("Your data is already being prepared, or ready below.")
        if user.data_exports.filter(requested_at__gte=day_ago).count() >= (
            settings.DATA_EXPORTS_PER_DAY
        ):
            raise ExportRefused(
                f"You can ask for your data {settings.DATA_EXPORTS_PER_DAY} times a day. "
                "Try again tomorrow."
            )
        try:
            with transaction.atomic():
                return DataExport.objects.create(user=user, key=secrets.token_urlsafe(32))
        except IntegrityError:  # another request made one a moment ago
            raise ExportRefused("Your data is already being prepared.") from None


def export_path(export: DataExport) -> Path:
    return Path(settings.DATA_EXPORT_DIR) / f"{export.key}.zip"


def export_build(*, export_id: int) -> bool:
    """Writes the zip of an export still being prepared and makes its link live;
    False if there was nothing to do (gone, or built already)."""
    export = DataExport.objects.select_related("user").filter(pk=export_id).first()
    if export is None or export.status != DataExport.Status.PREPARING:
        return False
    path = export_path(export)
    try:
        _write_zip(path, export.user)
    except Exception:
        DataExport.objects.filter(pk=export_id).update(status=DataExport.Status.FAILED)
        path.with_suffix(".part").unlink(missing_ok=True)
        raise
    now = timezone.now()
    made_live = DataExport.objects.filter(pk=export_id, status=DataExport.Status.PREPARING).update(
        status=DataExport.Status.READY,
        ready_at=now,
        expires_at=now + timedelta(hours=settings.DATA_EXPORT_HOURS),
    )
    if not made_live:  # the account closed while the zip was written
        path.unlink(missing_ok=True)
    return bool(made_live)


def _write_zip(path: Path, user: User) -> None:
    """The zip at ``path``, readable by Felt's own user only, written whole or not at all."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle, ZipFile(handle, "w", ZIP_DEFLATED) as archive:
        for name, pieces in _parts(user):
            with archive.open(name, "w") as member:
                for piece in pieces:
                    member.write(piece.encode())
    os.replace(partial, path)


def _parts(user: User) -> Iterable[Part]:
    yield "README.txt", [README]
    yield "account.json", as_json(account_of(user))
    yield "points.json", as_json(points_of(user))
    for section in _sections:
        yield from section(user)


README = """\
Your data from Felt, as it was when you asked for it.

account.json      your account: username, display name, email, dates
points.json       every row of your points ledger, newest first, with its reason
clubs.json        the clubs you belong to (or asked to join), with your role
tournaments.json  your tournament entries: place, prize, what you paid
hands.phhs        every hand you played, as you saw it at the table, in PHH
                  (the open Poker Hand History standard): cards you never saw
                  are written as ??
hands.txt         the same hands as PokerStars text, which trackers read
"""


def account_of(user: User) -> dict[str, Any]:
    return {
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "is_guest": user.is_guest,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
    }


def points_of(user: User) -> list[dict[str, Any]]:
    rows = PointsEntry.objects.filter(user=user).select_related("actor").order_by("-pk")
    return [
        {
            "at": row.created_at,
            "scope": row.scope,
            "amount": row.amount,
            "balance_after": row.balance_after,
            "reason": row.get_reason_display(),
            "tournament": row.tournament_id,
            "note": row.note,
            "by": row.actor.public_name if row.actor else None,
        }
        for row in rows.iterator(chunk_size=500)
    ]


def export_take(*, user: User, key: str) -> IO[bytes]:
    """The zip of ``user``'s ready export ``key``, opened and removed from the disk: it
    is given once. ``ExportGone`` for anyone else's, a used or an expired one."""
    handle = None
    with transaction.atomic():
        export = (
            DataExport.objects.select_for_update()
            .filter(user=user, key=key, status=DataExport.Status.READY)
            .first()
        )
        if export is None:
            raise ExportGone()
        if export.expires_at is not None and export.expires_at > timezone.now():
            with contextlib.suppress(FileNotFoundError):  # a sweep took it a moment ago
                handle = export_path(export).open("rb")
        # Taken, or expired (its file missing too): either way the file goes now; an
        # open handle still reads it.
        _end(export, DataExport.Status.TAKEN if handle else DataExport.Status.EXPIRED)
    if handle is None:
        raise ExportGone()
    return handle


def _end(export: DataExport, status: str) -> None:
    export_path(export).unlink(missing_ok=True)
    export.status = status
    export.save(update_fields=["status"])


def exports_expire() -> int:
    """Deletes the zips whose link expired, and gives up on exports whose task was
    lost (preparing for over a day); returns how many were ended."""
    now = timezone.now()
    ready = DataExport.objects.filter(status=DataExport.Status.READY, expires_at__lte=now)
    stuck = DataExport.objects.filter(
        status=DataExport.Status.PREPARING, requested_at__lte=now - timedelta(days=1)
    )
    ended = 0
    for export in [*ready, *stuck]:
        _end(
            export,
            DataExport.Status.EXPIRED if export.status == "ready" else DataExport.Status.FAILED,
        )
        ended += 1
    return ended


def exports_discard(*, user: User) -> None:
    """Once committed, the files of ``user``'s exports are deleted (their account closes)."""
    paths = [export_path(export) for export in user.data_exports.all()]

    def delete_files() -> None:
        for path in paths:
            path.unlink(missing_ok=True)
            path.with_suffix(".part").unlink(missing_ok=True)

    transaction.on_commit(delete_files)
