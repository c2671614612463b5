from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tables import kinds
        from tables.models import Table
        from tournaments.kind import TournamentBehaviour

        kinds.register(Table.Kind.TOURNAMENT, TournamentBehaviour())

        # ROI and ITM join a player's stats (tables counts hands, not tournaments).
        from tables.history import stats
        from tournaments.selectors import tournament_stats

        stats.register_contributor(tournament_stats)

        from tournaments import tasks
        from tournaments.services import deals, rebuy_offers, schedule, start

        start.set_level_scheduler(tasks.queue_level_announcement)
        schedule.set_start_scheduler(tasks.queue_start)
        rebuy_offers.set_offer_scheduler(tasks.queue_rebuy_offers_end)
        deals.set_deal_scheduler(tasks.queue_deal_end)

        # A closed account's registrations to tournaments not yet started are refunded,
        # and the clubs it owns pass to another member.
        from accounts import release
        from tournaments.clubs.services import clubs_release
        from tournaments.services.registration import registrations_release

        release.register(lambda user: registrations_release(user=user))
        release.register(lambda user: clubs_release(user=user))

        # A member's data zip holds their clubs and entries; a closed account's name
        # leaves the results.
        from accounts import closing, data_export
        from tournaments import member_data

        data_export.register(member_data.clubs_and_entries_of)
        closing.register(member_data.names_forget)
