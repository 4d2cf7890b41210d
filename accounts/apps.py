from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from django.contrib import admin

        from .forms import AdminLoginForm

        admin.site.login_form = AdminLoginForm  # the same user-name check as the site's login
