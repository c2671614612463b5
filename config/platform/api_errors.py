"""Every REST API refusal as JSON with a ``code`` and a ``message`` sentence.

A domain refusal (``config/platform/domain_errors.py``) that a view lets through is
answered with its own code, message and status, and nothing more. For DRF's
refusals, DRF's own body is kept beside them (``detail``, or the invalid
fields and their messages), so clients that read those still can. Anything
unexpected is logged and answered as a JSON 500 with code ``server_error``,
never an HTML page.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from config.platform.domain_errors import DomainError

logger = logging.getLogger(__name__)


class ErrorSerializer(serializers.Serializer[Any]):
    """A refusal's body as the schema documents it (DRF's own keys may come beside)."""

    code = serializers.CharField(help_text="A stable machine-readable code.")
    message = serializers.CharField(help_text="A sentence saying what went wrong.")


def api_exception_handler(error: Exception, context: dict[str, Any]) -> Response:
    if isinstance(error, DomainError):
        return Response({"code": error.code, "message": error.message}, status=error.status)
    response = exception_handler(error, context)
    if response is None:
        logger.exception("API view %s failed", context.get("view"), exc_info=error)
        return Response(
            {"code": "server_error", "message": "Something went wrong on the server."},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    body = response.data if isinstance(response.data, dict) else {"errors": response.data}
    if isinstance(error, exceptions.ValidationError):
        code, message = _invalid(body)
    elif isinstance(error, exceptions.APIException):
        code = error.default_code if not isinstance(error.detail, dict) else "error"
        codes = error.get_codes()
        code = codes if isinstance(codes, str) else code
        message = str(body.get("detail", error.default_detail))
    else:  # Http404 and PermissionDenied from Django, turned into DRF's by the handler
        code = "not_found" if response.status_code == 404 else "permission_denied"
        message = str(body.get("detail", "Refused."))
    response.data = {**body, "code": code, "message": _sentence(message)}
    for key, value in getattr(error, "extra", {}).items():
        response.data[key] = value
    return response


def _invalid(body: dict[str, Any]) -> tuple[str, str]:
    fields = [key for key in body if key != "non_field_errors"]
    parts = []
    for key, problems in body.items():
        text = " ".join(str(p) for p in problems) if isinstance(problems, list) else str(problems)
        parts.append(text if key == "non_field_errors" else f"{key}: {text}")
    return "invalid", ("Invalid " + ", ".join(fields) + ". " if fields else "") + "; ".join(parts)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 handler (config/urls.py): under /api/ an address that names no
    endpoint (``/api/hands/abc/``, ``/api/hands/1/phh/``) is answered as JSON too."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "not_found", "message": "No API endpoint at this address."}, status=404
        )
    return defaults.page_not_found(request, exception)


UNSUPPORTED_MEDIA_TYPE = {
    "description": "A body in a media type this endpoint does not read (it reads JSON,"
    " form and multipart bodies), or a multipart body without its boundary.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def document_unsupported_media_type(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: every operation that reads a body may
    answer 415 (DRF's parsers refuse what they cannot read), so the schema says so."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                operation["responses"].setdefault("415", UNSUPPORTED_MEDIA_TYPE)
    return result
