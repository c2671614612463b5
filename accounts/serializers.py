from django.core.exceptions import ValidationError
from rest_framework import serializers

from accounts.models import User
from accounts.names import check_display_name


class ProfileSerializer(serializers.ModelSerializer[User]):
    class Meta:
        model = User
        fields = ("id", "username", "display_name", "date_joined")
        read_only_fields = ("id", "username", "date_joined")

    def validate_display_name(self, value: str) -> str:
        try:
            return check_display_name(value, self.instance)
        except ValidationError as error:
            raise serializers.ValidationError(error.messages, code=error.code) from None
