"""The site's own error pages and offline API docs (cardgame/errors.py, settings)."""

import re

import pytest
from django.conf import settings
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from cardgame import errors


def test_debug_is_off_unless_asked_for():
    """`make run` serves the site as a person sees it (DEBUG=1 asks for debug pages)."""
    source = (settings.BASE_DIR / "cardgame" / "settings.py").read_text()
    assert 'DEBUG = env_bool("DEBUG", False)' in source


@pytest.mark.parametrize("lang, words", [("hu", "Nem található"), ("en", "Not found")])
def test_404_is_our_page_in_both_languages(client, db, lang, words):
    response = client.get(f"/{lang}/cards/KG1-999/")
    assert response.status_code == 404
    page = response.content.decode()
    assert words in page and 'data-status="404"' in page
    assert f'<html lang="{lang}">' in page


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_csrf_failure_is_our_page(db, lang):
    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/{lang}/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
    page = response.content.decode()
    assert 'data-status="403"' in page
    assert ("Az űrlap lejárt" if lang == "hu" else "The form expired") in page
    assert "CSRF" not in page


def test_403_and_500_pages_speak_the_request_language(db):
    request = RequestFactory().get("/hu/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    with translation.override("hu"):
        forbidden = errors.permission_denied(request, None)
        broken = errors.server_error(request)
    assert forbidden.status_code == 403 and "Nincs engedélyed" in forbidden.content.decode()
    assert broken.status_code == 500 and "Valami hiba történt" in broken.content.decode()


@override_settings(DEBUG=False)
def test_an_unhandled_error_is_our_500_page(db, settings):
    client = Client(raise_request_exception=False)
    settings.ROOT_URLCONF = "tests.cardgame.broken_urls"
    response = client.get("/boom/")
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode() or "Valami hiba" in (
        response.content.decode()
    )


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_api_docs_load_their_assets_from_the_site(client, db, url):
    """No CDN, no @latest: Swagger UI and ReDoc come from drf-spectacular-sidecar."""
    page = client.get(url).content.decode()
    assert "cdn.jsdelivr" not in page and "@latest" not in page
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert assets, page
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
