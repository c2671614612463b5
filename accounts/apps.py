from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.member_sessions import on_log_in

        # Every log-in, whichever view made it (log-in, sign-up, the admin's, a test's
        # force_login), starts its row in the member's list of sessions.
        user_logged_in.connect(on_log_in, dispatch_uid="accounts.member_sessions")
