"""The site's own error pages (404, 403, 500, CSRF failure), in the request's language.

Django's debug pages appear only when DEBUG is asked for (DEBUG=1); a person otherwise
gets one of these, with a sentence they can act on and a way back.
"""

from django.http import HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from cardgame.hungarian import articles


def _error_page(request, status: int, title: str, message: str):
    if request.path.startswith("/api/"):  # the API's error body (cardgame.schema's Error)
        code = {404: "not_found", 403: "permission_denied"}.get(status, "error")
        return JsonResponse({"detail": message, "code": code}, status=status)
    context = {"status": status, "title": title, "message": message, "path": request.path}
    return render(request, "error.html", context, status=status)


def page_not_found(request, exception):
    return _error_page(
        request,
        404,
        _("Not found"),
        articles(_("Nothing lives at %(path)s.") % {"path": request.path}),
    )


def permission_denied(request, exception):
    return _error_page(
        request,
        403,
        _("Not allowed"),
        _("You may not open this page. Log in with an account that may, or go back."),
    )


def csrf_failure(request, reason=""):
    return _error_page(
        request,
        403,
        _("The form expired"),
        _(
            "The form could not be sent because its security token is missing or old "
            "(for example after logging in elsewhere, or with cookies turned off). "
            "Go back, reload the page and send it again."
        ),
    )


def server_error(request):
    title = _("Something went wrong")
    message = _("The server could not finish this request. It has been logged; try again later.")
    try:
        return _error_page(request, 500, title, message)
    except Exception:  # the page itself must never fail: fall back to plain text
        return HttpResponseServerError(f"{title}. {message}", content_type="text/plain")
