from django.core.exceptions import ValidationError
from rest_framework import serializers

from accounts.models import User
from accounts.names import check_display_name
from accounts.points import points_balance
from config.platform.api_fields import TextField


class ProfileSerializer(serializers.ModelSerializer[User]):
    points = serializers.SerializerMethodField()
    display_name = TextField(
        max_length=40,
        allow_blank=True,
        required=False,
        help_text=User._meta.get_field("display_name").help_text,
    )

    class Meta:
        model = User
        fields = ("id", "username", "display_name", "date_joined", "points")
        read_only_fields = ("id", "username", "date_joined", "points")

    def get_points(self, user: User) -> int:
        return points_balance(user=user)

    def validate_display_name(self, value: str) -> str:
        try:
            return check_display_name(value, self.instance)
        except ValidationError as error:
            raise serializers.ValidationError(error.messages, code=error.code) from None
