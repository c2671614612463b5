from rest_framework import serializers

from accounts.models import User


class ProfileSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "display_name", "date_joined")
        read_only_fields = ("id", "username", "date_joined")
