"""API error shape: every 4xx carries a `detail` a person can act on; nothing becomes a 500."""

from rest_framework.views import exception_handler as drf_exception_handler


def _first_message(errors):
    """The first message of a DRF error structure, with the field it concerns."""
    for field, value in errors.items():
        while isinstance(value, list | dict) and value:
            value = value[0] if isinstance(value, list) else next(iter(value.values()))
        if value:
            return f"{field}: {value}" if field != "non_field_errors" else str(value)
    return "Invalid input."


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        response.data = {"detail": _first_message(response.data), "errors": response.data}
    return response
