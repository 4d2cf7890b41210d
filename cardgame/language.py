"""Which of the site's two languages (settings.LANGUAGES: hu, en) a reader has: the one
answer every page, API response and message asks for, so no module tests a language code
by hand. Hungarian is the default (settings.LANGUAGE_CODE), so anything not English reads
Hungarian."""

from django.utils.translation import get_language


def current_language() -> str:
    """ "en" while English is active, else "hu": the key of catalog and card-name tables."""
    return "en" if (get_language() or "hu").startswith("en") else "hu"


def is_english() -> bool:
    return current_language() == "en"
