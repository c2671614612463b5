"""Every write of live tables (docs/architecture.md: services own transactions and rules).

Each function locks the table row, checks ``seq`` when given, applies the
engine, saves state and history, bumps ``seq`` and, after commit, broadcasts
per-viewer snapshots and schedules the next wake-up (``tables.services.play``).
"""

from tables.services.chat import chat_post
from tables.services.contributions import cut_send
from tables.services.deals import deal_answer, deal_propose
from tables.services.hands import bot_act, hand_act, hand_start, hand_timeout, table_wake
from tables.services.host import (
    chat_mute,
    host_hand_over,
    hosts_release,
    player_allow_back,
    rebuy_decide,
    seat_remove,
    seat_request_decide,
    table_close,
    table_pause,
    table_resume,
    table_set_approvals,
    table_set_blinds,
)
from tables.services.options import (
    seat_straddle,
    table_call_bomb_pot,
    table_new_invite_key,
    table_set_listed,
    table_set_options,
)
from tables.services.runouts import runout_answer, runout_timeout
from tables.services.seats import (
    seat_add_on,
    seat_auto_rebuy,
    seat_decline_rebuy,
    seat_leave,
    seat_rebuy,
    seat_sit_in,
    seat_sit_out,
    seat_stay,
    seat_take,
    seats_release,
)
from tables.services.stacks import chips_move, stack_set
from tables.services.tables import (
    BadTableSettings,
    TooManyTables,
    last_practice_pace,
    table_create,
    table_create_practice,
)

__all__ = [
    "BadTableSettings",
    "TooManyTables",
    "bot_act",
    "chat_mute",
    "chat_post",
    "chips_move",
    "cut_send",
    "last_practice_pace",
    "deal_answer",
    "deal_propose",
    "host_hand_over",
    "hosts_release",
    "player_allow_back",
    "rebuy_decide",
    "runout_answer",
    "runout_timeout",
    "seat_straddle",
    "stack_set",
    "table_call_bomb_pot",
    "table_new_invite_key",
    "table_set_listed",
    "table_set_options",
    "seat_remove",
    "seat_request_decide",
    "table_close",
    "table_pause",
    "table_resume",
    "table_set_approvals",
    "table_set_blinds",
    "hand_act",
    "hand_start",
    "hand_timeout",
    "seat_add_on",
    "seat_auto_rebuy",
    "seat_decline_rebuy",
    "seat_leave",
    "seat_rebuy",
    "seat_sit_in",
    "seat_sit_out",
    "seat_stay",
    "seat_take",
    "seats_release",
    "table_create",
    "table_create_practice",
    "table_wake",
]
