from django.apps import AppConfig


class FeltConfig(AppConfig):
    """The project itself: what belongs to no one app (see config/platform/db_connections.py)."""

    name = "config"
    label = "felt_config"
    verbose_name = "Felt"

    def ready(self) -> None:
        from django.core.signals import request_finished

        from config.platform.db_connections import close_request_connections

        request_finished.connect(close_request_connections, dispatch_uid="felt-close-connections")
