import math

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from cardgame.limits import PasswordResetEmailThrottle, PasswordResetThrottle, SignUpThrottle
from decks.models import Deck
from tournaments.selectors import event_history

from .forms import LoginForm, SignUpForm


def _minutes(throttle) -> int:
    return max(1, math.ceil((throttle.wait() or 60) / 60))


def signup(request):
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        throttle = SignUpThrottle()  # accounts made from this address (issue 35)
        if not throttle.allow_request(request, None):
            form.add_error(
                None,
                gettext(
                    "Many accounts were made from your network address lately. "
                    "Try again in %(minutes)d minutes."
                )
                % {"minutes": _minutes(throttle)},
            )
            return render(request, "registration/signup.html", {"form": form}, status=429)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("welcome")
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, its e-mails limited per address and per e-mail address
    (issue 35: 30 requests were 30 e-mails). Past a limit the form says when to try again
    and sends nothing; the answer is the same whether an account has that address or not."""

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        for throttle in (PasswordResetThrottle(), PasswordResetEmailThrottle(email)):
            if not throttle.allow_request(self.request, None):
                form.add_error(
                    None,
                    gettext(
                        "Many password e-mails were asked for lately. If one has come, use "
                        "its link (look in the spam folder too); otherwise try again in "
                        "%(minutes)d minutes."
                    )
                    % {"minutes": _minutes(throttle)},
                )
                return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


def welcome(request):
    """The first page after signing up: where to build a deck and play a first game."""
    return render(request, "registration/welcome.html")


def locked_out(request, response=None, credentials=None):
    """django-axes' answer once an account or an address failed too often: 429, and when."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = gettext(
        "Too many failed logins for this account or from this address. "
        "Try again in %(minutes)d minutes."
    ) % {"minutes": minutes}
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=429)
    context = {"form": LoginForm(request), "locked_out": message}
    return render(request, "registration/login.html", context, status=429)


def axes_username(request, credentials=None):
    """The user name django-axes counts and records (AXES_USERNAME_CALLABLE), clipped to its
    column's 255 characters: a longer name from any login (the forms refuse one first) must
    never be a database error (a 500 on PostgreSQL, issue 35)."""
    if credentials:
        name = credentials.get("username")
    else:
        name = getattr(request, "data", request.POST).get("username")
    return name[:255] if isinstance(name, str) else name


def player(request, username):
    """A player's public page: user name, member since, public decks and every event
    they entered (tournaments.selectors.event_history; decklists only where the viewer
    may see them)."""
    person = get_object_or_404(get_user_model(), username=username, is_active=True)
    decks = Deck.objects.filter(owner=person, is_public=True).order_by("-updated")[:50]
    return render(
        request,
        "accounts/player.html",
        {
            "person": person,
            "decks": decks,
            "history": event_history(person, request.user),
            "is_me": request.user.is_authenticated and request.user.pk == person.pk,
        },
    )
