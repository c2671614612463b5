from rest_framework.generics import RetrieveUpdateAPIView

from accounts.models import User
from accounts.serializers import ProfileSerializer


class MeView(RetrieveUpdateAPIView[User]):
    """The signed-in user's own profile: read it, or change the display name."""

    serializer_class = ProfileSerializer

    def get_object(self) -> User:
        user: User = self.request.user  # type: ignore[assignment]
        return user
