"""``{{ place|ordinal }}``: a finishing place as people say it ("1st", "4th", "11th"),
the same words the notices and the hand histories use (``engine``'s ``ordinal``)."""

from __future__ import annotations

from django import template

from engine.formats.pokerstars import ordinal as ordinal_words

register = template.Library()


@register.filter
def ordinal(place: int | None) -> str:
    """Nothing for no place (a player still in)."""
    return "" if place is None else ordinal_words(int(place))
