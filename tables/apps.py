from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and hands"

    def ready(self) -> None:
        # The services say when a table is due; a server process keeps a timer for it,
        # anything else has the Celery side queue it.
        from tables import tasks, wake_timers, wakeups
        from tables.history import allin_ev

        wakeups.set_scheduler(tasks.schedule)
        wakeups.set_server_timers(wake_timers.timers.schedule)
        allin_ev.set_scheduler(tasks.schedule_allin_ev)

        # A closed account's seats are freed, and its tables get another host.
        from accounts import release
        from tables.services import hosts_release, seats_release

        release.register(lambda user: seats_release(user=user))
        release.register(lambda user: hosts_release(user=user))

        # A member's data zip holds their hands; a closed account's name leaves them.
        from accounts import closing, data_export
        from tables.history import member_data

        data_export.register(member_data.hands_of)
        closing.register(member_data.names_forget)
        member_data.set_rewrite_scheduler(tasks.schedule_stored_rewrite)
