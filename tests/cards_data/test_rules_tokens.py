"""R 2.4: every icon token of the rules text renders as its icon with a tooltip, and the
search help page has the legend."""

import re

import pytest

from cards_data.models import Card
from cards_data.templatetags.kgk import rules_text, rules_tokens

TOKEN = re.compile(r"\[[A-Z]+\]")


def test_every_token_the_text_generator_writes_has_an_icon():
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "cards_data" / "cardtext.py").read_text()
    written = {t.strip("[]") for t in TOKEN.findall(source)}
    assert written and written <= set(rules_tokens())


def test_rules_text_escapes_and_draws_icons():
    html = rules_text("2 [CR], [USED]: <b>x</b>\nnext")
    assert 'class="token token-used"' in html and 'class="token token-cr"' in html
    assert "[USED]" not in html and "&lt;b&gt;" in html and "<br>" in html


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_no_bare_token_on_card_pages(client, catalogue, lang):
    cards = [c for c in Card.objects.all() if "[USED]" in (c.text_hu or "")]
    assert cards, "the set has cards with a [USED] cost"
    page = client.get(f"/{lang}/cards/{cards[0].code}/").content.decode()
    assert not TOKEN.search(page.split("<main", 1)[1])
    assert 'class="token token-used"' in page
    listing = client.get(f"/{lang}/", {"q": cards[0].code}).content.decode()
    assert not TOKEN.search(listing.split("<main", 1)[1])


def test_search_help_has_the_icon_legend(client, db):
    page = client.get("/hu/help/search/").content.decode()
    assert page.count("data-token=") == len(rules_tokens())
    assert "Használt" in page
