"""The Celery application; its settings are the CELERY_* names in config.settings."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("felt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def close_old_task_connections(**kwargs: Any) -> None:
    """Around each task, as around a request: a connection past ``CONN_MAX_AGE`` or
    broken is closed, a good one kept (on SQLite, where ``CELERY_DB_REUSE_MAX``
    stops Celery's own fixup from closing every one)."""
    close_old_connections()
