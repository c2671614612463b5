"""What a member may call themselves: names others read at the table must not
pass for someone else, or hide what they say.

A name may not be one a reader would take for another member's username or
display name: not the same ignoring case, nor the same to the eye (``аdmin``
with a Cyrillic а, fullwidth ``ａｄｍｉｎ``: their look-alike keys match,
``accounts/name_keys.py``). That holds for a display name, a guest's nickname
and a new username alike. A display name may not hold control or formatting
characters (newlines,
right-to-left overrides, zero-width spaces): they can make one name look like
another, or reorder the text around it. Table chat refuses the same
characters (``has_hidden_characters``), for the same reasons, except the two
that are part of an emoji there (a joiner between two, a subdivision's flag).
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.db.models import Q

from accounts.models import NAME_TAKEN, User
from accounts.name_keys import keys_to_check, name_key

LOOKS_TAKEN = "Another member goes by a name that looks the same."

# Unicode categories: control (Cc), format (Cf: bidi overrides, zero-width
# characters), line and paragraph separators (Zl, Zp), unassigned, private use.
# Surrogates (Cs) only ever arrive alone, from JSON escapes such as "\ud800": no
# UTF-8 encodes them, so storing or sending one fails.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cn", "Co", "Cs"})


# Two formatting characters that chat lets through inside an emoji, where the reader
# sees them as part of its picture: the zero-width joiner of a sequence such as
# U+1F469 U+200D U+1F4BB (a woman at a computer), and the tags that name a
# subdivision's flag after a black flag (U+1F3F4, the tags spelling "gbsct", the
# cancel tag U+E007F: Scotland's). Outside an emoji the joiner is invisible and the
# tags hide a message a reader cannot see, so both stay refused there.
ZERO_WIDTH_JOINER = "\u200d"
EMOJI_PRESENTATION = "\ufe0f"  # variation selector 16, after a symbol drawn as emoji
EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)  # the five skin tones
EMOJI_BLOCKS_START = 0x1F000  # the emoji and pictograph blocks of the Supplementary plane
BLACK_FLAG = "\U0001f3f4"
# A subdivision's code in tag characters: its region and its own code, three to six
# lowercase letters and digits in all ("gbsct"); no other text hides in a flag.
FLAG_TAGS = frozenset([*range(0xE0030, 0xE003A), *range(0xE0061, 0xE007B)])
FLAG_TAG_COUNTS = range(3, 7)
CANCEL_TAG = "\U000e007f"


def has_hidden_characters(text: str, *, in_emoji: bool = False) -> bool:
    """True when ``text`` holds a character others would not see as itself. With
    ``in_emoji`` (chat), a joiner or a flag's tags inside an emoji are seen."""
    hidden = (
        index for index, char in enumerate(text) if unicodedata.category(char) in HIDDEN_CATEGORIES
    )
    if not in_emoji:
        return next(hidden, None) is not None
    flag_tags = set(_subdivision_flag_tags(text))
    return any(index not in flag_tags and not _joins_two_emoji(text, index) for index in hidden)


def _is_emoji(char: str) -> bool:
    return ord(char) >= EMOJI_BLOCKS_START and unicodedata.category(char) == "So"


def _joins_two_emoji(text: str, index: int) -> bool:
    if text[index] != ZERO_WIDTH_JOINER or index == 0 or index + 1 == len(text):
        return False
    before, after = text[index - 1], text[index + 1]
    ends_an_emoji = (
        _is_emoji(before)
        or ord(before) in EMOJI_MODIFIERS
        or (
            before == EMOJI_PRESENTATION
            and index >= 2
            and unicodedata.category(text[index - 2]) == "So"
        )
    )
    return ends_an_emoji and unicodedata.category(after) == "So"  # a symbol: 🔥, ⚕, ♀


def _subdivision_flag_tags(text: str) -> list[int]:
    """The indexes of the tags (the cancel tag too) of every subdivision's flag."""
    found: list[int] = []
    start = text.find(BLACK_FLAG)
    while start != -1:
        end = start + 1
        while end < len(text) and ord(text[end]) in FLAG_TAGS:
            end += 1
        if end - start - 1 in FLAG_TAG_COUNTS and end < len(text) and text[end] == CANCEL_TAG:
            found.extend(range(start + 1, end + 1))
        start = text.find(BLACK_FLAG, start + 1)
    return found


def check_display_name(name: str, user: User | None) -> str:
    """``name`` trimmed, or ``ValidationError`` saying why ``user`` may not take it."""
    name = name.strip()
    if not name:
        return name
    if has_hidden_characters(name):
        raise ValidationError(
            "A display name can only hold visible characters and spaces.", code="hidden_characters"
        )
    check_name_free(name, user)
    return name


def check_new_username(username: str, user: User | None = None) -> None:
    """A new username may not be taken for another member's username or display name
    (a guest taking a username may take its own nickname, ``user`` being that guest)."""
    check_name_free(username.strip(), user)


# The labels Felt shows for accounts that are gone: a closed account's in histories
# (accounts/closing.py, "Closed account #482913"), a deleted member's at a table
# (tables.models.DEPARTED_NAME). Nobody may take a name that starts like one, which
# would pass them for a member who left.
RESERVED_NAMES = ("Closed account", "Former member")
RESERVED = "Felt shows that name for accounts that are gone: choose another."


def _squeezed(key: str) -> str:
    return "".join(key.split())


_RESERVED_KEYS = tuple(_squeezed(name_key(name)) for name in RESERVED_NAMES)


def check_name_free(name: str, user: User | None) -> None:
    """``ValidationError`` when a member other than ``user`` goes by ``name``, or by a
    name that looks the same, or when it starts like a label Felt keeps for itself."""
    if any(_squeezed(key).startswith(_RESERVED_KEYS) for key in keys_to_check(name)):
        raise ValidationError(RESERVED, code="reserved_name")
    others = User.objects.exclude(pk=user.pk) if user is not None else User.objects.all()
    if others.filter(Q(username__iexact=name) | Q(display_name__iexact=name)).exists():
        raise ValidationError(NAME_TAKEN, code="name_taken")
    keys = keys_to_check(name) - {""}
    if others.filter(Q(username_key__in=keys) | Q(display_name_key__in=keys)).exists():
        raise ValidationError(LOOKS_TAKEN, code="name_taken")
