"""Which pages may open Felt's websockets: only the site's own.

A browser sends the page's origin (scheme, host and port) with every websocket
it opens. Channels' ``AllowedHostsOriginValidator`` compares host names only,
so a page served from another port or scheme of the same host (another program
on the machine, a plain-http mirror) could open sockets with the member's
cookies. Here the origin must be exactly the one the browser used to reach
Felt (the request's Host header, with a host in ALLOWED_HOSTS, and the
scheme), or one of CSRF_TRUSTED_ORIGINS.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def normal_origin(scheme: str, netloc: str) -> str:
    """``scheme://host[:port]`` in lower case, without the scheme's default port."""
    scheme, netloc = scheme.lower(), netloc.lower()
    default = DEFAULT_PORTS.get(scheme)
    if default and netloc.endswith(default):
        netloc = netloc[: -len(default)]
    return f"{scheme}://{netloc}"


def allowed_origins(scope: dict[str, Any]) -> set[str]:
    headers = dict(scope.get("headers", []))
    host = headers.get(b"host", b"").decode("latin1")
    secure = scope.get("scheme") == "wss" or settings.HTTPS  # behind a TLS proxy: https
    allowed = {normal_origin(*origin.split("://", 1)) for origin in settings.CSRF_TRUSTED_ORIGINS}
    hostname, _ = split_domain_port(host)
    if hostname and validate_host(hostname, settings.ALLOWED_HOSTS):
        allowed.add(normal_origin("https" if secure else "http", host))
    return allowed


def origin_of(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"origin":
            text = value.decode("latin1")
            if "://" in text:
                return normal_origin(*text.split("://", 1))
    return None


class SameOriginValidator:
    """ASGI middleware for websockets: refuse any origin but the site's own."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        origin = origin_of(scope)
        if origin is not None and origin in allowed_origins(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)  # type: ignore[arg-type]
