"""The notifications' pages: the list under the bell, marking read, the settings matrix,
and the e-mail's unsubscribe link (thin views; writes in services.py)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from cardgame.language import current_language
from cardgame.params import BadNumber, record_id

from . import services
from .forms import SettingsForm
from .kinds import CHANNEL_LABELS, CHANNELS
from .models import Notification
from .push import in_language


@login_required
def index(request):
    return render(
        request,
        "notifications/index.html",
        {"items": services.bell(request.user, limit=100)},
    )


@login_required
@require_POST
def read(request):
    """Mark one notification read (`id`) or all of them."""
    raw = request.POST.get("id")
    try:
        one = record_id(raw, "id") if raw is not None else None  # "" is not "all"
    except BadNumber:  # "x1", "²" (a digit to isdigit(), not to int()), an overlong number
        return render(request, "notifications/bad_request.html", status=400)
    services.mark_read(request.user, one)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = "notifications:index"
    return redirect(target)


@login_required
def go(request, pk):
    """Follow a notification's link: read it, then its page in this page's language."""
    notification = get_object_or_404(Notification, pk=pk, user=request.user)
    services.mark_read(request.user, notification.pk)
    if not notification.url:
        return redirect("notifications:index")
    return redirect(in_language(notification.url, current_language()))


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    prefs = services.settings_for(request.user)
    status = 200
    if request.method == "POST":
        form = SettingsForm(request.POST, prefs=prefs)
        if form.is_valid():
            services.save_settings(
                request.user,
                channels=form.channels(),
                webhook_url=form.cleaned_data["webhook_url"],
                language=current_language(),
            )
            return redirect(f"{request.path}?saved=1")
        status = 400
    else:
        form = SettingsForm(prefs=prefs)
    return render(
        request,
        "notifications/settings.html",
        {
            "form": form,
            "prefs": prefs,
            "channel_labels": [CHANNEL_LABELS[c] for c in CHANNELS],
            "saved": request.GET.get("saved") == "1" and request.method == "GET",
        },
        status=status,
    )


@csrf_exempt  # the signed token is the authority; mail clients' one-click POST has no cookie
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    """GET: a page asking to confirm; POST: no more e-mail (RFC 8058's one-click too)."""
    user_id = services.user_id_of_token(token)
    if user_id is None:
        return render(request, "notifications/unsubscribe_bad.html", status=400)
    if request.method == "POST":
        services.unsubscribe(user_id)
        return render(request, "notifications/unsubscribed.html")
    return render(request, "notifications/unsubscribe.html", {"token": token})
