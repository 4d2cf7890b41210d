"""A URLconf with one view that fails, for the 500 page test."""

from django.urls import path

from cardgame.urls import handler500  # noqa: F401  (the site's own 500 handler)


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", boom)]
