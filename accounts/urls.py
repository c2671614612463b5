from django.urls import path

from accounts import second_factor_views, token_views, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("login/code/", second_factor_views.login_code, name="login_code"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/save/", views.upgrade, name="upgrade"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "second-factor/start/",
        second_factor_views.second_factor_start,
        name="second_factor_start",
    ),
    path("second-factor/", second_factor_views.second_factor_setup, name="second_factor_setup"),
    path(
        "second-factor/remove/",
        second_factor_views.second_factor_remove_view,
        name="second_factor_remove",
    ),
    path("tokens/", token_views.api_token_create, name="api_token_create"),
    path("tokens/<int:token_id>/revoke/", token_views.api_token_revoke, name="api_token_revoke"),
]
