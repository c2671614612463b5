"""Every write of tournaments: each function owns its transaction and locks the
tournament row first, then its tables in id order, then points accounts."""

from tournaments.services.cancel import tournament_cancel
from tournaments.services.deals import deals_due, deals_expire
from tournaments.services.levels import levels_due, tournament_level_announce
from tournaments.services.multi_table import mtt_start, mtts_due
from tournaments.services.practice import practice_sng_start
from tournaments.services.rebuys import rebuy_offers_due, rebuy_offers_expire
from tournaments.services.registration import (
    sng_open,
    sngs_ensure_open,
    tournament_register,
    tournament_unregister,
)
from tournaments.services.schedule import schedule_tournament
from tournaments.services.series import series_due, series_extend

__all__ = [
    "deals_due",
    "deals_expire",
    "levels_due",
    "mtt_start",
    "mtts_due",
    "practice_sng_start",
    "rebuy_offers_due",
    "rebuy_offers_expire",
    "schedule_tournament",
    "series_due",
    "series_extend",
    "sng_open",
    "sngs_ensure_open",
    "tournament_cancel",
    "tournament_level_announce",
    "tournament_register",
    "tournament_unregister",
]
