from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and hands"

    def ready(self) -> None:
        # The services say when a table is due; the Celery side queues it.
        from tables import tasks, wakeups
        from tables.services import allin_ev

        wakeups.set_scheduler(tasks.schedule)
        allin_ev.set_scheduler(tasks.schedule_allin_ev)
