from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and hands"

    def ready(self) -> None:
        # The services say when a table is due; the Celery side queues it.
        from tables import tasks, wakeups

        wakeups.set_scheduler(tasks.schedule)
