"""What a member may call themselves: names others read at the table must not
pass for someone else, or hide what they say.

A display name may not equal (ignoring case) another member's username or
display name, and may not hold control or formatting characters (newlines,
right-to-left overrides, zero-width spaces): they can make one name look like
another, or reorder the text around it. Table chat refuses the same
characters (``has_hidden_characters``), for the same reasons.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.db.models import Q

from accounts.models import User

# Unicode categories: control (Cc), format (Cf: bidi overrides, zero-width
# characters), line and paragraph separators (Zl, Zp), unassigned, private use.
# Surrogates (Cs) only ever arrive alone, from JSON escapes such as "\ud800": no
# UTF-8 encodes them, so storing or sending one fails.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cn", "Co", "Cs"})


def has_hidden_characters(text: str) -> bool:
    """True when ``text`` holds a character others would not see as itself."""
    return any(unicodedata.category(char) in HIDDEN_CATEGORIES for char in text)


def check_display_name(name: str, user: User | None) -> str:
    """``name`` trimmed, or ``ValidationError`` saying why ``user`` may not take it."""
    name = name.strip()
    if not name:
        return name
    if has_hidden_characters(name):
        raise ValidationError(
            "A display name can only hold visible characters and spaces.", code="hidden_characters"
        )
    others = User.objects.exclude(pk=user.pk) if user is not None else User.objects.all()
    if others.filter(Q(username__iexact=name) | Q(display_name__iexact=name)).exists():
        raise ValidationError("Another member already goes by that name.", code="name_taken")
    return name


def check_new_username(username: str, user: User | None = None) -> None:
    """A new username may not equal (ignoring case) another member's display name (a
    guest taking a username may take its own nickname, ``user`` being that guest)."""
    others = User.objects.exclude(pk=user.pk) if user is not None else User.objects.all()
    if others.filter(display_name__iexact=username.strip()).exists():
        raise ValidationError("Another member already goes by that name.", code="name_taken")
