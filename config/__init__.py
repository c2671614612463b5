"""Project configuration: settings, ASGI entry point, URL map and the Celery app."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
