"""API error shape: every 4xx carries a `detail` a person can act on; nothing becomes a 500."""

from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        response.data = {"detail": "Invalid input.", "errors": response.data}
    return response
