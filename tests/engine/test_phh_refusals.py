"""PHH import refuses a history the engine could not have played (issue 21).

Each entry of ``actions`` is checked against the state it applies to: a
decision names the player the engine asks, on a street the file has dealt and
before the hand is over; the dealer deals hole cards once each, first, and a
board card only once the betting before it is closed; only a player still in
at a showdown shows or mucks, once. The refusal names the entry's index in
``actions`` (from 0) and the reason.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from random import Random

import pytest

from engine.betting import apply_action
from engine.cards import new_deck
from engine.deal import new_hand
from engine.formats.phh import PhhError, from_phh, to_phh
from engine.formats.phh_notation import PhhAction, parse_action, toml_value
from engine.state import HandState
from tests.engine.history_helpers import random_action, random_hand

HANDS = Path(__file__).parent / "hands"


def _decisions(text: str) -> list[PhhAction]:
    entries = tomllib.loads(text)["actions"]
    parsed = (parse_action(index, entry) for index, entry in enumerate(entries))
    return [a for a in parsed if a is not None and a.verb in ("f", "cc", "cbr")]


# Recorded hands that replay and hold a decision (in one the hand runs out at once).
RECORDED_WITH_DECISIONS = [
    path
    for path in sorted(HANDS.glob("*.phh"))
    if "_expected_error" not in (text := path.read_text(encoding="utf-8")) and _decisions(text)
]

THREE_HANDED = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [1000, 1000, 1000]
"""
SIX_HANDED = """variant = "NT"
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [10, 20, 0, 0, 0, 0]
min_bet = 20
starting_stacks = [1000, 1000, 1000, 1000, 1000, 1000]
"""
# p3 can only shove 5 chips: after p1 folds, Felt has nothing to ask of the big
# blind p2 and runs the board out, where PokerKit still asks p2 to check.
SHORT_BUTTON = THREE_HANDED.replace("[1000, 1000, 1000]", "[1000, 1000, 5]")
# Heads-up, the button p2 posts its whole 5 chips as the small blind; the big
# blind p1 covers it, so the hand runs out before anyone acts.
# p3 has 500: its all-in is called by p2, who covers it; the hand runs out at once.
SHORT_SHOVER = THREE_HANDED.replace("[1000, 1000, 1000]", "[1000, 1000, 500]")
HEADS_UP_SHORT_BUTTON = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [10, 20]
min_bet = 20
starting_stacks = [1000, 5]
"""
DEALT = ["d dh p1 AsAh", "d dh p2 7c2d", "d dh p3 KsKh"]
PREFLOP_LIMPED = ["p3 cc", "p1 cc", "p2 cc"]
CHECKED_TO_THE_RIVER = [*DEALT, *PREFLOP_LIMPED, "d db 3c8d9h", "p1 cc", "p2 cc", "p3 cc",
                        "d db 4s", "p1 cc", "p2 cc", "p3 cc", "d db Jc"]  # fmt: skip
SIX_DEALT = ["d dh p1 AsAh", "d dh p2 KsKh", "d dh p3 QsQh",
             "d dh p4 JsJh", "d dh p5 TsTh", "d dh p6 9s9h"]  # fmt: skip


def _file(header: str, actions: list[str]) -> str:
    return f"{header}actions = [{', '.join(toml_value(a) for a in actions)}]\n"


@pytest.mark.parametrize(
    ("header", "actions", "reason"),
    [
        # A decision by a player who is not the one to act, first or later.
        (THREE_HANDED, ["p2 cc"], "it is not p2's turn: p3 is to act"),
        (THREE_HANDED, ["p3 cc", "p2 cc"], "it is not p2's turn: p1 is to act"),
        (SIX_HANDED, [*SIX_DEALT, "p3 cc", "p4 cc", "p2 cc"], "it is not p2's turn: p5 is to act"),
        (THREE_HANDED, [*PREFLOP_LIMPED, "d db 7c8d9h", "p1 cc", "p3 cc"],
         "it is not p3's turn: p2 is to act"),
        # A decision after the hand is over, by its winner or after a showdown.
        (THREE_HANDED, ["p3 f", "p1 f", "p2 cc"], "the hand is already over"),
        (THREE_HANDED, [*DEALT, "p3 cbr 1000", "p1 cc", "p2 f", "p3 sm KsKh", "p1 sm AsAh",
                        "d db Kc7d2h", "d db 9s", "d db 4c", "p1 cc"], "the hand is already over"),
        # A decision on a street the file has not dealt.
        (THREE_HANDED, [*PREFLOP_LIMPED, "p1 cc"], "the flop is not dealt yet: 'd db' comes first"),
        (THREE_HANDED, [*PREFLOP_LIMPED, "d db 7c8d9h", "p1 cc", "p2 cc", "p3 cc", "p1 cc"],
         "the turn is not dealt yet: 'd db' comes first"),
        # Hole cards dealt twice, or after the board.
        (THREE_HANDED, ["d dh p1 AsAh", "d dh p1 AsAh"], "p1's hole cards were already dealt"),
        (HEADS_UP_SHORT_BUTTON, ["d db 3c8d9h", "d dh p1 AsAh"],
         "hole cards are dealt before anyone acts or any board card"),
        # A show without a showdown, by a player who folded, or twice.
        (THREE_HANDED, [*DEALT, "p3 f", "p1 f", "p2 sm 7c2d"],
         "the hand was won without a showdown: nobody shows (rule 15)"),
        (THREE_HANDED, [*DEALT, "p3 cbr 1000", "p1 cc", "p2 f", "p2 sm 7c2d"],
         "p2 folded: only players still in show or muck"),
        (THREE_HANDED, [*DEALT, "p3 cbr 1000", "p1 cc", "p2 f", "p3 sm KsKh", "p3 sm KsKh"],
         "p3 has already shown or mucked"),
        # The check Felt lets other engines write is accepted once, from the player
        # with chips, where the betting closed: not twice, not from the all-in
        # player, not after the run-out is dealt.
        (SHORT_BUTTON, ["p3 cc", "p1 f", "p2 cc", "p2 cc"], "the hand is already over"),
        (SHORT_BUTTON, ["p3 cc", "p1 f", "p3 cc"], "the hand is already over"),
        (SHORT_BUTTON, ["p3 cc", "p1 f", "d db 3c8d9h", "p2 cc"], "the hand is already over"),
        (HEADS_UP_SHORT_BUTTON, ["p2 cc"], "the hand is already over"),
        # Nor from the player whose own call closed the betting and ended the hand,
        # before the run-out, on the river, or after the showdown.
        (SHORT_SHOVER, [*DEALT, "p3 cbr 500", "p1 f", "p2 cc", "p2 cc"],
         "the hand is already over"),
        (SHORT_SHOVER, [*CHECKED_TO_THE_RIVER, "p1 cc", "p2 cc", "p3 cbr 480", "p1 f", "p2 cc",
                        "p2 cc"], "the hand is already over"),
        (SHORT_SHOVER, [*CHECKED_TO_THE_RIVER, "p1 cc", "p2 cc", "p3 cbr 480", "p1 f", "p2 cc",
                        "p3 sm KsKh", "p2 sm 7c2d", "p2 cc"], "the hand is already over"),
        # A card named twice: the entry that names it again, with the card and where
        # it was first (a hole card, the board, a show of cards dealt unknown).
        (THREE_HANDED, ["d dh p1 AsAh", "d dh p2 AsKd"],
         "a card is dealt twice: As is already named by actions[0] 'd dh p1 AsAh'"),
        (THREE_HANDED, ["d dh p1 AsAs"],
         "a card is dealt twice: As is already named by this entry"),
        (THREE_HANDED, [*DEALT, *PREFLOP_LIMPED, "d db 3cAh9h"],
         "a card is dealt twice: Ah is already named by actions[0] 'd dh p1 AsAh'"),
        (THREE_HANDED, ["d dh p1 ????", "d dh p2 7c2d", "d dh p3 KsKh", "p3 cbr 1000", "p1 cc",
                        "p2 f", "d db Qc8d9h", "d db 4s", "d db Jc", "p3 sm KsKh", "p1 sm Qc8c"],
         "a card is dealt twice: Qc is already named by actions[6] 'd db Qc8d9h'"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("then", [[], ["p1 f"]], ids=["as_the_last_entry", "followed"])
def test_an_action_out_of_place_is_refused_naming_its_index_and_why(
    header: str, actions: list[str], reason: str, then: list[str]
) -> None:
    entries = [*actions, *then]
    with pytest.raises(PhhError) as caught:
        from_phh(_file(header, entries))
    index = len(actions) - 1
    assert (caught.value.action_index, caught.value.action_text) == (index, actions[index])
    assert caught.value.reason == reason
    assert str(caught.value) == f"actions[{index}] {actions[index]!r}: {reason}"


def test_a_card_dealt_twice_is_refused_where_it_is_dealt_not_where_it_is_shown() -> None:
    # p2 was dealt p1's ace; the show of p2's real cards comes later and is not blamed
    dealt = ["d dh p1 AsAh", "d dh p2 As2d", "d dh p3 KsKh"]
    played = ["p3 cbr 1000", "p1 cc", "p2 cc", "d db 3c8d9h", "d db 4s", "d db Jc"]
    actions = [*dealt, *played, "p3 sm KsKh", "p1 sm AsAh", "p2 sm 7c2d"]
    with pytest.raises(PhhError) as caught:
        from_phh(_file(THREE_HANDED, actions))
    assert (caught.value.action_index, caught.value.action_text) == (1, "d dh p2 As2d")
    assert caught.value.reason == (
        "a card is dealt twice: As is already named by actions[0] 'd dh p1 AsAh'"
    )


def test_the_one_check_felt_lets_other_engines_write_still_replays() -> None:
    board = ["d db 3c8d9h", "d db 4s", "d db Jc"]
    state = from_phh(_file(SHORT_BUTTON, [*DEALT, "p3 cc", "p1 f", "p2 cc", *board]))
    heads_up = from_phh(_file(HEADS_UP_SHORT_BUTTON, [*DEALT[:2], "p1 cc", *board]))
    assert state.is_over and heads_up.is_over


# ---------------------------------------------------------------- in bulk


def _with_entry(text: str, index: int, entry: str) -> str:
    """``text`` with ``actions[index]`` replaced (the array written one entry a line)."""
    entries = tomllib.loads(text)["actions"]
    entries[index] = entry
    return _with_entries(text, entries)


def _with_entries(text: str, entries: list[str]) -> str:
    """``text`` with ``entries`` as its actions (the array written one entry a line)."""
    lines = text.splitlines()
    start = lines.index("actions = [")
    end = lines.index("]", start)
    body = [f"  {toml_value(e)}," for e in entries]
    return "\n".join([*lines[: start + 1], *body, *lines[end:]]) + "\n"


def _accepted_with_another_player(text: str, decision: PhhAction) -> list[str]:
    """Name each other player in ``decision``'s place; the entries that were not
    refused there as out of turn."""
    assert decision.actor is not None
    verb = decision.text.split()[1:]
    accepted = []
    for other in range(len(tomllib.loads(text)["starting_stacks"])):
        if other == decision.actor:
            continue
        entry = " ".join([f"p{other + 1}", *verb])
        try:
            from_phh(_with_entry(text, decision.index, entry))
        except PhhError as error:
            if error.action_index == decision.index and error.reason.startswith(
                f"it is not p{other + 1}'s turn: p{decision.actor + 1} is to act"
            ):
                continue
        accepted.append(f"actions[{decision.index}] {entry!r}")
    return accepted


def _last_and_middle_rewritten(text: str) -> list[str]:
    decisions = _decisions(text)
    middle, last = decisions[len(decisions) // 2], decisions[-1]
    return [
        *_accepted_with_another_player(text, middle),
        *_accepted_with_another_player(text, last),
    ]


@pytest.mark.parametrize("path", RECORDED_WITH_DECISIONS, ids=lambda path: path.stem)
def test_a_recorded_hand_naming_another_player_in_a_decision_is_refused(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    from_phh(text)  # as recorded, it replays
    assert _last_and_middle_rewritten(text) == []


def test_random_hands_naming_another_player_in_a_decision_are_refused() -> None:
    rng = Random(21)
    for number in range(60):
        text = to_phh(random_hand(rng))
        if not _decisions(text):
            continue  # every player was all-in from the forced bets
        assert _last_and_middle_rewritten(text) == [], f"hand {number}"


def _partial_hand(rng: Random) -> HandState:
    """A hand stopped after a few random decisions, 2 to 6 players."""
    count = rng.randint(2, 6)
    stacks: list[int | None] = [rng.randint(100, 3000) for _ in range(count)]
    state = new_hand(stacks, rng.randrange(count), small_blind=10, big_blind=20,
                     deck=new_deck(rng))  # fmt: skip
    for _ in range(rng.randint(1, 12)):
        if state.is_over:
            break
        state = apply_action(state, random_action(state, rng))
    return state


def test_sixty_files_ending_with_another_players_decision_are_all_refused() -> None:
    # The reproduction: the file's last entry is a decision, rewritten to
    # name someone else; 12 of 60 such files used to replay.
    rng = Random(21)
    files = accepted = 0
    while files < 60:
        text = to_phh(_partial_hand(rng))
        last = _decisions(text)[-1]
        if last.index != len(tomllib.loads(text)["actions"]) - 1:
            continue  # a board or a showdown came after it
        files += 1
        accepted += len(_accepted_with_another_player(text, last)) > 0
    assert accepted == 0


def _finished_hands(seed: int, count: int) -> list[str]:
    rng = Random(seed)
    return [to_phh(random_hand(rng)) for _ in range(count)]


def test_a_check_after_a_finished_hand_is_refused_from_every_player() -> None:
    # 5 of these 60 files (an all-in called by a covering stack on the river)
    # took one such check as the check other engines write where Felt asks nothing.
    for number, text in enumerate(_finished_hands(42, 60)):
        entries = tomllib.loads(text)["actions"]
        for player in range(1, len(tomllib.loads(text)["starting_stacks"]) + 1):
            with pytest.raises(PhhError) as caught:
                from_phh(_with_entries(text, [*entries, f"p{player} cc"]))
            assert caught.value.action_index == len(entries), f"hand {number}, p{player}"


def test_a_card_dealt_twice_is_refused_at_the_entry_naming_the_card() -> None:
    for number, text in enumerate(_finished_hands(43, 60)):
        entries = tomllib.loads(text)["actions"]
        dealt = [i for i, entry in enumerate(entries) if entry.startswith("d dh")]
        boards = [i for i, entry in enumerate(entries) if entry.startswith("d db")]
        card = entries[dealt[0]].split()[3][:2]  # p1's first card, dealt again:
        again = [(dealt[1], f"{entries[dealt[1]][:8]}{card}{entries[dealt[1]][10:]}")]
        if boards:  # to p2, and as the first card of the flop
            again.append((boards[0], f"d db {card}{entries[boards[0]][7:]}"))
        for index, entry in again:
            with pytest.raises(PhhError) as caught:
                from_phh(_with_entry(text, index, entry))
            assert (caught.value.action_index, caught.value.action_text) == (index, entry)
            assert caught.value.reason == (
                f"a card is dealt twice: {card} is already named by"
                f" actions[{dealt[0]}] {entries[dealt[0]]!r}"
            ), f"hand {number}"
