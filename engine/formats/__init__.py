"""Hand histories in and out: PHH (the open Poker Hand History standard) and PokerStars text.

They sit apart from the rules: a format reads and writes hands the core has
already played, and ``import engine`` re-exports what callers use.
"""
