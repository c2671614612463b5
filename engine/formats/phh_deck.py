"""The deck a PHH file's cards were dealt from, and the checks on what it names.

The engine deals one card to each player (p1 first), then a second round (and
in Omaha a third and a fourth), then the board with no burn cards, then the
cards a second board does not share with the first (rule 25). A file's hole
cards (``d dh``, and ``sm`` for cards dealt unknown), board cards (``d db``)
and ``_second_board`` are laid in that order; unknown cards are filled with
unused cards in ascending order.

A card may sit in one place only. The line that names a card a second time
somewhere else is refused, naming the card and the line that named it first;
a show that repeats the cards its player was dealt names nothing new.

>>> from engine.formats.phh import PhhError, from_phh
>>> text = '''variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ["d dh p1 AsKs", "d dh p2 QdAs"]'''
>>> try:
...     from_phh(text)
... except PhhError as error:
...     print(error.action_index, error.reason)
1 a card is dealt twice: As is already named by actions[0] 'd dh p1 AsKs'
"""

from __future__ import annotations

from engine.cards import card_str
from engine.events import PotAwarded
from engine.formats.phh_notation import PhhAction, PhhError, PhhFile
from engine.games import GAMES, Game
from engine.state import HandState

# Where a card sits: ("hole", player, card's slot), ("board", position) or
# ("second board", position); and the entry that put it there, as an error names it.
_Place = tuple[object, ...]
_Named = dict[int, tuple[_Place, str]]


def deck_for(phh: PhhFile, second_board: tuple[int, ...]) -> tuple[tuple[int, ...], frozenset[int]]:
    """The deck order that deals the file's cards, and the card positions made up."""
    game = GAMES[phh.game]
    holes: list[list[int | None]] = [[None] * game.hole_card_count for _ in range(phh.player_count)]
    board: list[int | None] = []
    named: _Named = {}
    for action in phh.actions:
        if action.verb in ("dh", "sm"):
            _merge_hole(holes, action, game)
            for slot, card in enumerate(action.cards):
                _name(named, card, ("hole", action.actor, slot), action)
        elif action.verb == "db":
            for card in action.cards:
                _name(named, card, ("board", len(board)), action)
                board.append(card)
    if len(board) > 5:
        raise PhhError("the board has more than five cards")
    slots = [hole[round_] for round_ in range(game.hole_card_count) for hole in holes] + board
    slots += [None] * (len(holes) * game.hole_card_count + 5 - len(slots))
    # the second board repeats the first up to where the run-out was chosen
    shared = next((i for i, c in enumerate(second_board) if i >= len(board) or board[i] != c), 5)
    for position, card in enumerate(second_board[shared:]):
        _name(named, card, ("second board", position), None)
    slots += second_board[shared:]
    spare = iter(sorted(set(range(52)) - set(named)))
    made_up = frozenset(i for i, c in enumerate(slots) if c is None)
    deck = tuple(next(spare) if c is None else c for c in slots)
    return deck + tuple(spare), made_up


def _name(named: _Named, card: int | None, place: _Place, action: PhhAction | None) -> None:
    """Note that ``action`` (None: the ``_second_board`` field) puts ``card`` at
    ``place``; refuse it when the card is already somewhere else."""
    if card is None:
        return
    here = "_second_board" if action is None else f"actions[{action.index}] {action.text!r}"
    first_place, first_named = named.setdefault(card, (place, here))
    if first_place == place:
        return
    first = "this entry" if first_named == here else first_named
    reason = f"a card is dealt twice: {card_str(card)} is already named by {first}"
    if action is None:
        raise PhhError(f"_second_board: {reason}")
    raise PhhError(reason, action.index, action.text)


def _merge_hole(holes: list[list[int | None]], action: PhhAction, game: Game) -> None:
    assert action.actor is not None
    if not action.cards:
        return
    if len(action.cards) != game.hole_card_count:
        reason = f"a {game.name} hand is {game.hole_card_count} cards, not {len(action.cards)}"
        raise PhhError(reason, action.index, action.text)
    hole = holes[action.actor]
    for slot, new in enumerate(action.cards):
        if new is not None and hole[slot] not in (None, new):
            raise PhhError("these cards differ from the ones dealt", action.index, action.text)
        if new is not None:
            hole[slot] = new


def check_no_made_up_showdown(
    state: HandState, made_up: frozenset[int], seats: tuple[int, ...]
) -> None:
    """Refuse a showdown decided by cards the file never named."""
    contested = any(
        isinstance(event, PotAwarded) and event.description is not None for event in state.events
    )
    if not contested:
        return
    count, rounds = len(seats), GAMES[state.game].hole_card_count
    board_slots = range(rounds * count, rounds * count + len(state.board))
    for player, seat in enumerate(seats):
        unknown = any(player + round_ * count in made_up for round_ in range(rounds))
        if unknown and state.is_live(seat):
            raise PhhError(f"p{player + 1}'s hole cards are unknown but decide the showdown")
    if any(slot in made_up for slot in board_slots):
        raise PhhError("the board is not fully named but decides the showdown")
