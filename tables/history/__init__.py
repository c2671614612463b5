"""Finished hands: the record written when a hand ends, the facts and stats counted
from it, and how each viewer reads it back (pages, API, PHH and PokerStars text).
docs/history.md describes the whole."""
