from django.urls import path

from accounts import data_views, mail_views, second_factor_views, session_views, token_views, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("login/code/", second_factor_views.login_code, name="login_code"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/save/", views.upgrade, name="upgrade"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/forgot/", mail_views.ForgotPasswordView.as_view(), name="password_reset"),
    path(
        "password/forgot/sent/",
        mail_views.ForgotPasswordSentView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        mail_views.SetNewPasswordView.as_view(),
        name="password_reset_confirm",
    ),
    path("email/confirm/", mail_views.email_confirm_send, name="email_confirm_send"),
    path("email/confirm/<str:token>/", mail_views.email_confirm, name="email_confirm"),
    path("data/", data_views.data_request, name="data_request"),
    path("data/status/", data_views.data_status, name="data_status"),
    path("data/<str:key>/", data_views.data_download, name="data_download"),
    path("close/", data_views.close, name="close"),
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
    path("sessions/<int:session_id>/end/", session_views.session_end, name="session_end"),
    path("sessions/end-others/", session_views.sessions_end_others, name="sessions_end_others"),
]
