from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class _NameNoLongerThanAnAccountsMixin:
    """A user name longer than any account's is a form error before authenticate() runs.

    Django's login form only sets the field's max_length attribute (no validator), so a
    300-character name reached authenticate() and django-axes' failure record, whose column
    holds 255: a 500 on PostgreSQL (issue 35). No account has a longer name: nothing to
    check, nothing to count.
    """

    def clean_username(self):
        username = self.cleaned_data.get("username") or ""
        limit = self.username_field.max_length or 150
        if len(username) > limit:
            raise ValidationError(
                gettext(
                    "No account has a user name this long: a user name has at most "
                    "%(limit)d characters."
                )
                % {"limit": limit},
                code="username_too_long",
            )
        return username


class LoginForm(_NameNoLongerThanAnAccountsMixin, AuthenticationForm):
    pass


class AdminLoginForm(_NameNoLongerThanAnAccountsMixin, AdminAuthenticationForm):
    pass
