"""The project's own middleware: NUL bytes refused at the edge.

(Under ASGI the whole chain runs in sync mode in the request's thread: cardgame/asgi_threads.py.)
"""

import re

from django.http import HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext

# A NUL escaped inside a JSON string (an even number of backslashes before it: not "\\u0000").
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class RefuseNulBytes:
    """A NUL byte anywhere in the path, the query or the body is a 400 at the edge.

    No person types one, PostgreSQL refuses to store or compare one (a 500 deep inside any
    view that passes it on), so no view should ever see one.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            message = gettext("The request contains a NUL character (\\0); remove it.")
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=400)
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _has_nul(request) -> bool:
    if "\x00" in request.path or "\x00" in request.META.get("QUERY_STRING", ""):
        return True
    if any("\x00" in key + value for key, values in request.GET.lists() for value in values):
        return True
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return False
    if request.content_type in _FORM_TYPES:
        try:
            request.POST  # noqa: B018 (parses the form once; the view reuses it)
        except MultiPartParserError:
            return False  # the view answers a broken upload as it always has
        fields = [(key, value) for key, values in request.POST.lists() for value in values]
        names = [upload.name or "" for upload in request.FILES.values()]
        return any("\x00" in key + value for key, value in fields) or any(
            "\x00" in name for name in names
        )
    body = request.body
    return b"\x00" in body or bool(_JSON_NUL.search(body))
