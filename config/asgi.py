"""The ASGI application Daphne serves: Django over HTTP, Channels over websockets."""

import gc
import os

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (the consumers do).
django_application = get_asgi_application()

from config.adapters import connection_checks, frame_guard, plain_debug_text  # noqa: E402
from config.health import LiveCheck  # noqa: E402
from config.platform.origins import SameOriginValidator  # noqa: E402
from config.platform.socket_limits import SocketLimits, by_address, by_user  # noqa: E402
from config.platform.unavailable_sockets import CloseWhenUnavailable  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

# Daphne imports this module before it starts serving.
frame_guard.install()
connection_checks.install()
plain_debug_text.install()

application = ProtocolTypeRouter(
    {
        # /healthz/live is answered before Django: the process alone (config/health.py).
        "http": LiveCheck(django_application),
        # Limits by address before the session is read, by member after; a socket
        # Redis or the database fails to open is closed with a code, not a 500.
        "websocket": CloseWhenUnavailable(
            SameOriginValidator(
                SocketLimits(
                    AuthMiddlewareStack(SocketLimits(URLRouter(websocket_urlpatterns), by_user)),
                    by_address,
                )
            )
        ),
    }
)

# Python's full garbage collections stop the whole process. Under a 50-table load
# test, Daphne's took 60-140 ms, several times a minute, and every table served by
# that process waited. What is loaded by now (Django, the engine's tables) lives
# as long as the process, so it is frozen out of the collector's scans, and young
# collections run less often, so fewer short-lived objects are promoted to be
# scanned again and again.
gc.freeze()
gc.set_threshold(50_000, 20, 100)
