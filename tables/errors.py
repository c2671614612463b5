"""Domain errors of live tables; each carries the protocol's error code.

The consumer turns any ``TableError`` into ``{"type": "error", "code": ...,
"message": ...}`` (codes in docs/protocol.md); nothing was changed.
"""

from __future__ import annotations

from accounts.guests import GUESTS_REFUSED
from config.platform.domain_errors import DomainError


class TableError(DomainError):
    """A refused command; ``message`` is a sentence for the player."""


class TableNotFound(TableError):
    code = "not_found"
    status = 404
    default_message = "This table does not exist."


class MembersOnly(TableError):
    code = "members_only"
    status = 403
    default_message = "Only the club's members see its tables."


class GuestsRefused(MembersOnly):
    """A guest at a table that is not a friends' one (or opening a table): refused like
    an outsider at a club's table, the same close code on the socket."""

    code = "guest"
    default_message = GUESTS_REFUSED


class StaleSeq(TableError):
    code = "stale_seq"
    default_message = "The table changed before your action arrived; look again and retry."


class StaleDecision(TableError):
    code = "stale_decision"
    default_message = (
        "That decision is already gone: the hand moved on before your action arrived. "
        "Look at the table again."
    )


class NotSeated(TableError):
    code = "not_seated"
    default_message = "You are not sitting at this table."


class SeatTaken(TableError):
    code = "seat_taken"
    default_message = "Someone is already sitting in that seat."


class AlreadySeated(TableError):
    code = "already_seated"
    default_message = "You already have a seat at this table."


class BadSeat(TableError):
    code = "bad_seat"
    default_message = "There is no such seat at this table."


class NotYourTurn(TableError):
    code = "not_your_turn"
    default_message = "It is not your turn to act."


class IllegalMove(TableError):
    """The engine refused the action; the message is the engine's sentence."""

    code = "illegal_action"
    default_message = "That action is not allowed."


class HandInProgress(TableError):
    code = "hand_in_progress"
    default_message = "A hand is already being played."


class NotEnoughPlayers(TableError):
    code = "not_enough_players"
    default_message = "A hand needs at least two players with chips who are not sitting out."


class CannotLeave(TableError):
    code = "cannot_leave"
    default_message = (
        "You cannot leave a running tournament: sit out instead, and you keep your seat "
        "(folded until you come back)."
    )


class CannotRebuy(TableError):
    code = "cannot_rebuy"
    default_message = "No rebuys here: out of chips is out of the tournament."


class CannotBuyChips(TableError):
    code = "cannot_buy_chips"
    default_message = "Only a tournament with rebuys sells chips at its tables."


class NotEnoughPoints(TableError):
    code = "not_enough_points"
    default_message = "You do not have enough points for this."


class NotBusted(TableError):
    code = "not_busted"
    default_message = "You still have chips: a rebuy is for when you are out of them."


class NotLeaving(TableError):
    code = "not_leaving"
    default_message = "You are not leaving: there is nothing to take back."


class BadChat(TableError):
    code = "bad_chat"
    default_message = "A chat message is one line of at most 200 characters."


class NotHost(TableError):
    code = "not_host"
    status = 403
    default_message = "Only the host of this friends' table can do that."


class BadBlinds(TableError):
    code = "bad_blinds"
    default_message = "Those blinds are not possible."


class BadOptions(TableError):
    """Home-game options the table cannot have (docs/rules.md rules 23-25)."""

    code = "bad_options"
    default_message = "Those table options are not possible."

    def __init__(self, message: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field  # the setting at fault, for a form to mark


class AlreadyPaused(TableError):
    code = "already_paused"
    default_message = "The table is already paused."


class NotPaused(TableError):
    code = "not_paused"
    default_message = "The table is not paused."


class NoRequest(TableError):
    code = "no_request"
    default_message = "Nobody is asking for that any more."


class Barred(TableError):
    code = "removed_by_host"
    status = 403
    default_message = (
        "The host removed you from this table: you can sit here again once the host lets you back."
    )


class BadStack(TableError):
    code = "bad_stack"
    default_message = "That stack change is not possible."


class Muted(TableError):
    code = "muted"
    default_message = "The host muted you in this table's chat."


class TableClosed(TableError):
    code = "table_closed"
    default_message = "The host ended this game: nobody sits or plays here again."


class TablePaused(TableError):
    code = "paused"
    default_message = "The host paused the table: no hand is dealt until they resume."


class CannotDeal(TableError):
    """A deal proposed where or when none can be made (rule 28)."""

    code = "cannot_deal"
    default_message = "Deals are made at a tournament's final table of 2 to 5 players."


class BadDeal(TableError):
    """A deal whose figures are not possible: custom amounts that do not add up to
    what is left to pay, or too many points kept for the winner."""

    code = "bad_deal"
    default_message = "That deal is not possible."


class NoDeal(TableError):
    code = "no_deal"
    default_message = "No deal is waiting for your answer."


class StaleCut(TableError):
    """A cut message for a hand that no longer takes it: its list closed, or it was dealt."""

    code = "stale_cut"
    default_message = "That hand's cut has moved on; your next commitment goes to the next one."


class BadCut(TableError):
    """A value that does not open the seat's commitment, or a cut message to no purpose."""

    code = "bad_cut"
    default_message = "That cut value does not open your commitment."
