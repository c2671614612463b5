"""REST API authentication by personal API token (``Authorization: Bearer felt_...``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from accounts.tokens import token_user


class PersonalTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Any) -> tuple[Any, None] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Send the token as: Bearer <token>.")
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("This token is not valid.") from None
        user = token_user(key)
        if user is None:
            raise exceptions.AuthenticationFailed("This token is not valid or was revoked.")
        return user, None

    def authenticate_header(self, request: Any) -> str:
        return self.keyword


class PersonalTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """How the OpenAPI schema describes the token: an HTTP bearer token, as it is sent."""

    target_class = PersonalTokenAuthentication
    name = "personalToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal API token from your profile page: "
            "`Authorization: Bearer felt_...`.",
        }
