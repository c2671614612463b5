from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.generics import RetrieveUpdateAPIView

from accounts.models import User
from accounts.serializers import ProfileSerializer
from config.platform.api_errors import ErrorSerializer

READ_REFUSALS = {
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or a bad token."),
    429: OpenApiResponse(ErrorSerializer, description="Over the rate limit."),
}
WRITE_REFUSALS = {
    **READ_REFUSALS,
    400: OpenApiResponse(
        ErrorSerializer,
        description="A malformed body or a display name refused (`invalid`; the field "
        "and why are named).",
    ),
    403: OpenApiResponse(
        ErrorSerializer, description="A session caller's write without its CSRF token."
    ),
}


@extend_schema_view(
    get=extend_schema(responses={200: ProfileSerializer, **READ_REFUSALS}),
    put=extend_schema(responses={200: ProfileSerializer, **WRITE_REFUSALS}),
    patch=extend_schema(responses={200: ProfileSerializer, **WRITE_REFUSALS}),
)
class MeView(RetrieveUpdateAPIView[User]):
    """The signed-in user's own profile: read it, or change the display name."""

    serializer_class = ProfileSerializer

    def get_object(self) -> User:
        user: User = self.request.user  # type: ignore[assignment]
        return user
