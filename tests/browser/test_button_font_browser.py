"""The site's buttons take the page's font (static/css/site.css): a browser gives a button
its own (13.3px Arial in Chromium), which set the header's Search, Log out and language
buttons and every page's plain buttons apart from the words around them. On the friends
page, logged in, in Hungarian and English, on a desktop and a phone."""

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from .browser_kit import PASSWORD, log_in, no_horizontal_scroll  # noqa: E402

# each button against the words around it (its parent's font: the phone's nav is smaller)
FONTS = """() => {
  const differs = [...document.querySelectorAll("button")].filter((b) => {
    const s = getComputedStyle(b), around = getComputedStyle(b.parentElement);
    return s.fontFamily !== around.fontFamily || s.fontSize !== around.fontSize;
  });
  return {buttons: document.querySelectorAll("button").length,
          differs: differs.map((b) => b.textContent.trim())};
}"""


@pytest.mark.parametrize("lang", ["hu", "en"])
@pytest.mark.parametrize("phone", [False, True])
def test_the_buttons_take_the_pages_font(live_server, new_page, lang, phone):
    get_user_model().objects.create_user("ann", password=PASSWORD)
    size = {"width": 390, "height": 844} if phone else {"width": 1366, "height": 900}
    page = new_page(viewport=size)
    log_in(page, live_server, "ann", f"/{lang}/friends/")
    fonts = page.evaluate(FONTS)
    assert fonts["buttons"] >= 3  # Search, Log out, the other language
    assert fonts["differs"] == []
    no_horizontal_scroll(page)
    assert page.js_errors == []
