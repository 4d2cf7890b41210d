"""The deck pages (decks/views_pages.py) in both languages, on the real card set.

List, detail (legality, statistics, draw odds of R 10.4/10.5, sample hand), versions,
compare, print sheet, import and collection (boosters of R 8.1).
"""

import re
from fractions import Fraction
from math import comb

import pytest
from django.db.models import F

from cards_data.models import Card
from decks import services
from decks.boosters import BOOSTER_SIZE, open_booster
from decks.models import CollectionEntry, Deck, DeckVersion
from decks.stats import sample_hand

pytestmark = pytest.mark.django_db

LACI = ["xeno", "insectoid", "zarg", "space_shark"]  # R 20 EX-1
DANI = ["human", "carnoplantus", "cerebrite", "space_shark"]  # R 20 EX-1


def colony(races, total=45, copies=3):
    """(code, count) pairs of real cards of `races`: `copies` of each name, `total` cards."""
    pools = {race: list(Card.objects.filter(race=race).order_by("code")) for race in races}
    entries, turn = [], 0
    while sum(n for _, n in entries) < total:
        race = races[turn % len(races)]
        card = pools[race].pop(0)
        entries.append((card.code, min(copies, total - sum(n for _, n in entries))))
        turn += 1
    return entries


@pytest.fixture
def laci_deck(catalogue, alice):
    return services.save_deck(alice, name="Laci colony", cards=colony(LACI), is_public=True)


@pytest.fixture
def private_deck(catalogue, alice):
    return services.save_deck(alice, name="Secret plan", cards=colony(DANI), is_public=False)


def html(response) -> str:
    return response.content.decode()


# --------------------------------------------------------------------------- every page


def page_urls(deck):
    return [
        "/{lang}/decks/",
        f"/{{lang}}/decks/{deck.pk}/",
        f"/{{lang}}/decks/{deck.pk}/versions/",
        f"/{{lang}}/decks/{deck.pk}/print/",
        f"/{{lang}}/decks/compare/?a={deck.pk}&b={deck.pk}",
        "/{lang}/decks/import/",
        "/{lang}/decks/collection/",
    ]


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_every_deck_page_in_both_languages(client, laci_deck, alice, lang):
    client.force_login(alice)
    for url in page_urls(laci_deck):
        response = client.get(url.format(lang=lang))
        assert response.status_code == 200, url
        assert f'lang="{lang}"' in html(response), url


def test_hungarian_and_english_words_on_the_detail_page(client, laci_deck):
    hu = html(client.get(f"/hu/decks/{laci_deck.pk}/"))
    en = html(client.get(f"/en/decks/{laci_deck.pk}/"))
    assert "Űrhajók" in hu and "Ships" in en  # type groups
    assert "Űrcápa" in hu and "Space Shark" in en  # race chips
    cobra_like = Card.objects.get(code=laci_deck.entries.first().card.code)
    assert cobra_like.name in hu and cobra_like.name_en in en


@pytest.mark.parametrize("anonymous", [True, False], ids=["anonymous", "other-user"])
def test_another_users_private_deck_is_404_on_every_deck_url(client, private_deck, bob, anonymous):
    if not anonymous:
        client.force_login(bob)
    pk = private_deck.pk
    urls = [
        f"/en/decks/{pk}/",
        f"/hu/decks/{pk}/",
        f"/en/decks/{pk}/versions/",
        f"/en/decks/{pk}/versions/?from=1&to=1",
        f"/en/decks/{pk}/print/",
        f"/en/decks/{pk}/?hand=abc",
        f"/en/decks/{pk}/?match=t:ship",
        f"/en/decks/compare/?a={pk}&b={pk}",
    ]
    if not anonymous:
        urls.append(f"/en/decks/{pk}/edit/")
    for url in urls:
        assert client.get(url).status_code == 404, url
    listing = html(client.get("/en/decks/"))
    assert "Secret plan" not in listing
    if anonymous:
        assert client.get(f"/en/decks/{pk}/edit/").status_code == 302  # to the login page


def test_the_owner_sees_their_private_deck(client, private_deck, alice):
    client.force_login(alice)
    for url in (f"/en/decks/{private_deck.pk}/", f"/en/decks/{private_deck.pk}/print/"):
        assert client.get(url).status_code == 200
    assert "Secret plan" in html(client.get("/en/decks/"))


def test_unknown_deck_is_404(client, catalogue):
    assert client.get("/en/decks/999999/").status_code == 404


# --------------------------------------------------------------------------- controls


def test_owner_sees_edit_others_do_not(client, laci_deck, alice, bob):
    url = f"/en/decks/{laci_deck.pk}/"
    anonymous = html(client.get(url))
    assert 'id="edit-link"' not in anonymous
    for link in (f"/en/decks/{laci_deck.pk}/print/", f"/en/decks/{laci_deck.pk}/versions/"):
        assert link in anonymous
    assert f"/api/decks/{laci_deck.pk}/export/?format=text&amp;lang=hu" in anonymous
    assert f"/api/decks/{laci_deck.pk}/export/?format=json" in anonymous
    client.force_login(bob)
    assert 'id="edit-link"' not in html(client.get(url))
    client.force_login(alice)
    owner = html(client.get(url))
    assert 'id="edit-link"' in owner and f"/en/decks/{laci_deck.pk}/edit/" in owner


def test_mine_filter_only_for_logged_in_users(client, laci_deck, alice, bob):
    services.save_deck(bob, name="Bob public", cards=colony(DANI), is_public=True)
    assert 'id="mine-filter"' not in html(client.get("/en/decks/"))
    assert client.get("/en/decks/?mine=1").context["page"].paginator.count == 2  # ignored
    client.force_login(alice)
    response = client.get("/en/decks/", {"mine": "1"})
    assert [d.name for d in response.context["page"]] == ["Laci colony"]


# --------------------------------------------------------------------------- deck list


def test_deck_list_rows(client, laci_deck):
    page = html(client.get("/en/decks/"))
    assert "Laci colony" in page and "alice" in page
    for race in ("race-xeno", "race-insectoid", "race-zarg", "race-space_shark"):
        assert f'class="chip {race}"' in page
    assert "45/45" in page
    assert 'class="badge legal"' in page


def test_deck_search_and_filters(client, catalogue, alice, bob):
    laci = services.save_deck(alice, name="Laci colony", cards=colony(LACI), is_public=True)
    illegal = colony(DANI, total=40)
    services.save_deck(bob, name="Dani draft", cards=illegal, is_public=True)
    some_card = Card.objects.get(code=laci.entries.first().card.code)

    def names(**params):
        response = client.get("/en/decks/", params)
        assert response.status_code == 200, params
        return sorted(d.name for d in response.context["page"])

    assert names(q=f'has:"{some_card.name_en}"') == ["Laci colony"]
    assert names(q="race:zarg") == ["Laci colony"]
    assert names(q="race:ember") == ["Dani draft"]
    assert names(q="author:bob") == ["Dani draft"]
    assert names(q="legal:yes") == ["Laci colony"]
    assert names(q="legal:no") == ["Dani draft"]
    assert names(q="draft") == ["Dani draft"]
    assert names(race="human") == ["Dani draft"]
    assert names(legal="yes") == ["Laci colony"]
    assert names(race="space_shark") == ["Dani draft", "Laci colony"]


@pytest.mark.parametrize("query", ['has:"Cobra Flsh"', "race:klingon", "colour:red", 'has:"open'])
def test_bad_deck_search_is_a_400_with_the_message(client, laci_deck, query):
    response = client.get("/en/decks/", {"q": query})
    assert response.status_code == 400
    assert 'id="deck-search-error"' in html(response)
    if "Flsh" in query:
        assert "Did you mean" in html(response) and "Cobra Flash" in html(response)


@pytest.mark.parametrize(
    "query, words",
    [
        ('has:"Cobra Flsh"', ["Nincs „Cobra Flsh” nevű lap.", "Erre gondoltál: Cobra Flash?"]),
        ("race:klingon", ["Ismeretlen faj: „klingon”.", "Inszektoid", "Űrcápa"]),
        ("colour:red", ["Ismeretlen paklikeresési mező: „colour”."]),
        ('has:"open', ["Páratlan idézőjel"]),
    ],
)
def test_a_hungarian_deck_search_error_is_hungarian(client, laci_deck, query, words):
    """Issue 34 (words): the deck search's errors were English on the Hungarian page, and
    the races were listed by their codes (space_shark)."""
    response = client.get("/hu/decks/", {"q": query})
    assert response.status_code == 400
    error = html(response).split('id="deck-search-error"', 1)[1].split("</div>", 1)[0]
    for word in words:
        assert word in error
    for english in ("Did you mean", "No card", "Unknown", "Unbalanced", "space_shark"):
        assert english not in error


def test_deck_list_is_paginated(client, catalogue, alice):
    entries = colony(LACI)
    for number in range(23):
        services.save_deck(alice, name=f"Deck {number:02d}", cards=entries, is_public=True)
    first = client.get("/en/decks/")
    assert len(first.context["page"]) == 20
    second = client.get("/en/decks/", {"page": 2})
    assert len(second.context["page"]) == 3
    assert 'rel="prev"' in html(second)


# --------------------------------------------------------------------------- detail


def test_detail_groups_cards_by_type_with_counts(client, laci_deck):
    response = client.get(f"/en/decks/{laci_deck.pk}/")
    groups = response.context["groups"]
    assert sum(g["total"] for g in groups) == 45
    order = ["ship", "armament", "crew", "base", "event", "interrupt"]
    assert [g["type"] for g in groups] == [t for t in order if t in {g["type"] for g in groups}]
    for group in groups:
        assert all(row["card"].type == group["type"] for row in group["rows"])
        assert f'{group["label"]} <span class="muted">({group["total"]})</span>' in html(response)


def test_detail_legality_lists_every_problem_in_both_languages(client, catalogue, alice):
    """R 9.7: every problem at once, each as a sentence (R 9.1, 9.2, 9.3)."""
    entries = colony(DANI, total=40) + [(colony(["xeno"], total=1)[0][0], 1)]
    deck = services.save_deck(alice, name="Broken", cards=entries, is_public=True)
    en = client.get(f"/en/decks/{deck.pk}/")
    codes = [p["code"] for p in en.context["problems"]]
    assert codes == ["DECK_SIZE", "OPPOSING_RACES"]
    text = html(en)
    assert "The colony has 41 cards; it must have exactly 45." in text
    assert "Human and Xeno are opposing races" in text
    hu = html(client.get(f"/hu/decks/{deck.pk}/"))
    assert "A kolóniában 41 lap van; pontosan 45 kell." in hu
    assert "Ember és Xeno ellentétes fajok" in hu


def test_simplified_combat_problem_is_explained(client, catalogue, alice):
    """R 9.5.4 on the page: a speed/return-fire card under the simplified combat system."""
    from cards_data.definitions import card_dicts
    from engine.deck import mentions_speed_or_return_fire

    banned = next(
        c for c in card_dicts().values() if mentions_speed_or_return_fire(c) and c["race"] == "zarg"
    )
    entries = colony(["xeno", "insectoid"], total=42) + [(banned["code"], 3)]
    deck = services.save_deck(
        alice, name="Fast", cards=entries, ruleset="simplified", is_public=True
    )
    response = client.get(f"/en/decks/{deck.pk}/")
    assert [p["code"] for p in response.context["problems"]] == ["SIMPLIFIED_COMBAT_CARD"]
    assert f"“{banned['name_en']}” refers to speed or return fire" in html(response)
    hungarian = html(client.get(f"/hu/decks/{deck.pk}/"))
    assert f"„{banned['name']}”" in hungarian or banned["name"] in hungarian


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_r9_2_over_limit_card_is_named_in_the_pages_language(client, catalogue, alice, lang):
    """R 9.2: a fourth copy; the English page named the card by its Hungarian name."""
    entries = colony(LACI, total=41)
    extra = Card.objects.filter(race="zarg").exclude(name=F("name_en")).order_by("-code")[0]
    entries = [e for e in entries if e[0] != extra.code] + [(extra.code, 4)]
    deck = services.save_deck(alice, name="Four", cards=entries, is_public=True)
    response = client.get(f"/{lang}/decks/{deck.pk}/")
    assert "COPY_LIMIT" in [p["code"] for p in response.context["problems"]]
    shown, other = (extra.name_en, extra.name) if lang == "en" else (extra.name, extra.name_en)
    message = next(p["message"] for p in response.context["problems"] if p["code"] == "COPY_LIMIT")
    assert shown in message and other not in message
    assert message in html(response)


def test_detail_statistics_are_rendered_without_javascript(client, laci_deck):
    response = client.get(f"/en/decks/{laci_deck.pk}/")
    page = html(response)
    stats = response.context["stats"]
    assert stats["total"] == 45
    assert "<svg" in page and "<rect" in page
    # the charts need no script: the only scripts are static enhancements (card previews)
    assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/js/card-preview.js" defer>']
    assert sum(c["count"] for c in stats["curve_chart"]["columns"]) == 45
    assert sum(b["count"] for b in stats["type_bars"]) == 45
    assert sum(b["count"] for b in stats["race_bars"]) == 45
    assert 'id="ship-stats"' in page and 'id="average-cost"' in page
    entries = [(e.card, e.count) for e in laci_deck.entries.all()]
    costed = [(c.credit_cost, n) for c, n in entries if c.credit_cost is not None]
    average = sum(c * n for c, n in costed) / sum(n for _, n in costed)
    assert f"{average:.2f}" in page
    speed = sum((c.speed or 0) * n for c, n in entries if c.type == "ship")
    assert stats["ship_stats"]["speed"] == speed


def test_chart_numbers_are_not_localised_in_hungarian(client, laci_deck):
    page = html(client.get(f"/hu/decks/{laci_deck.pk}/"))
    assert not re.search(r'<rect [^>]*="\d+,\d', page)
    assert not re.search(r"width: \d+,\d", page)


def test_empty_and_tiny_decks_render(client, catalogue, alice):
    empty = services.save_deck(alice, name="Empty", cards=[], is_public=True)
    for url in ("", "?hand=abc&match=t:ship", "print/", "versions/"):
        assert client.get(f"/en/decks/{empty.pk}/{url}").status_code == 200, url
    tiny = services.save_deck(alice, name="Tiny", cards=[("KG1-001", 3)], is_public=True)
    response = client.get(f"/en/decks/{tiny.pk}/", {"hand": "x"})
    assert [c.code for c in response.context["hand"]] == ["KG1-001"] * 3  # the whole deck
    assert response.context["card_odds"][0]["odds"]["opening"] == 100


def test_pages_load_nothing_from_elsewhere(client, laci_deck):
    for url in (f"/en/decks/{laci_deck.pk}/", f"/en/decks/{laci_deck.pk}/print/", "/en/decks/"):
        page = html(client.get(url))
        assert not re.search(r'<(script|link|img)[^>]+(src|href)="(https?:)?//', page), url
        assert not re.search(r'<script src="(?!/static/)', page), url  # only our own files


def test_r10_4_r10_5_odds_of_a_3_of(client, laci_deck):
    """A 3-of in 45 cards: 30.4 % in the opening five (R 10.4), 51.5 % with the mulligan
    (R 10.5): exactly 1 - (988/1419)² = 51.52 %."""
    assert 1 - Fraction(988, 1419) ** 2 == Fraction(1 - (988 / 1419) ** 2).limit_denominator(10**7)
    en = client.get(f"/en/decks/{laci_deck.pk}/")
    row = next(r for r in en.context["card_odds"] if r["count"] == 3)
    assert row["odds"]["opening_exact"] == "431/1419"
    assert f"{row['odds']['mulligan']:.2f}" == "51.52"
    table = html(en).split('id="odds-table"')[1]
    assert "30.4%" in table and "51.5%" in table
    hu_table = html(client.get(f"/hu/decks/{laci_deck.pk}/")).split('id="odds-table"')[1]
    assert "30,4%" in hu_table and "51,5%" in hu_table


def test_odds_of_a_single_copy(client, catalogue, alice):
    entries = colony(LACI, total=44) + [(colony(["zarg"], total=48)[-1][0], 1)]
    deck = services.save_deck(alice, name="One-of", cards=entries, is_public=True)
    response = client.get(f"/en/decks/{deck.pk}/")
    single = next(r for r in response.context["card_odds"] if r["count"] == 1)
    assert single["odds"]["opening_exact"] == "1/9"  # 5/45
    assert "11.1%" in html(response) and "21.0%" in html(response)  # 1 - (8/9)²


def test_query_match_odds(client, laci_deck):
    response = client.get(f"/en/decks/{laci_deck.pk}/", {"match": "t:ship"})
    match = response.context["match"]
    ships = sum(e.count for e in laci_deck.entries.all() if e.card.type == "ship")
    assert match["copies"] == ships > 0
    miss = Fraction(comb(45 - ships, 5), comb(45, 5))
    assert match["odds"]["opening_exact"] == f"{(1 - miss).numerator}/{(1 - miss).denominator}"
    assert f"{float(1 - miss) * 100:.1f}%" in html(response)
    assert f"{float(1 - miss * miss) * 100:.1f}%" in html(response)
    assert 'id="match-result"' in html(response)


def test_query_match_is_restricted_to_the_decks_cards(client, laci_deck):
    response = client.get(f"/en/decks/{laci_deck.pk}/", {"match": "r:human"})
    assert response.context["match"]["copies"] == 0
    assert response.context["match"]["odds"]["opening"] == 0


@pytest.mark.parametrize("query", ["cost<=abc", "(t:ship", "speed>=99999", "nosuchfield:1"])
def test_malformed_match_query_is_a_message_not_a_500(client, laci_deck, query):
    response = client.get(f"/en/decks/{laci_deck.pk}/", {"match": query})
    assert response.status_code == 200
    assert 'id="match-error"' in html(response)
    assert response.context["match"]["error"]


def test_sample_hand_is_reproducible_by_seed(client, laci_deck):
    url = f"/en/decks/{laci_deck.pk}/"
    first = client.get(url, {"hand": "c0ffee"})
    again = client.get(url, {"hand": "c0ffee"})
    codes = [card.code for card in first.context["hand"]]
    assert len(codes) == 5
    assert codes == [card.code for card in again.context["hand"]]
    assert html(first).split('id="hand-cards"')[1].count('class="card-face') == 5
    from cards_data.definitions import card_dicts

    dicts = card_dicts()
    entries = [(dicts[e.card.code], e.count) for e in laci_deck.entries.all()]
    assert codes == [card["code"] for card in sample_hand(entries, "c0ffee")]
    other_hands = {
        tuple(c.code for c in client.get(url, {"hand": f"seed{n}"}).context["hand"])
        for n in range(5)
    }
    assert len(other_hands) > 1


def test_draw_button_offers_a_new_seed_each_time(client, laci_deck):
    url = f"/en/decks/{laci_deck.pk}/"
    seeds = {client.get(url).context["next_seed"] for _ in range(5)}
    assert len(seeds) == 5
    page = html(client.get(url))
    assert re.search(r'<input type="hidden" name="hand" value="[0-9a-f]{8}">', page)


def test_share_code_on_the_page_reads_back(client, laci_deck):
    from decks.selectors import card_index
    from decks.textformat import decode_share_code

    code = client.get(f"/en/decks/{laci_deck.pk}/").context["share_code"]
    result = decode_share_code(code, card_index())
    assert result.ok
    assert sorted(result.entries) == sorted((e.card.code, e.count) for e in laci_deck.entries.all())


# --------------------------------------------------------------------------- versions, compare


def test_versions_history_and_diff(client, catalogue, alice):
    first = colony(LACI)
    deck = services.save_deck(alice, name="Evolving", cards=first, is_public=True, comment="first")
    second = first[:-1] + [(first[-1][0], first[-1][1] - 1), (colony(["zarg"], total=60)[-1][0], 1)]
    services.save_deck(
        alice, deck=deck, name="Evolving", cards=second, is_public=True, comment="tuned"
    )
    response = client.get(f"/en/decks/{deck.pk}/versions/")
    page = html(response)
    assert response.status_code == 200
    assert "first" in page and "tuned" in page and "v2" in page
    rows = response.context["diff"]["rows"]  # default: previous -> latest
    assert {(r["code"], r["change"]) for r in rows} == {(first[-1][0], -1), (second[-1][0], 1)}
    assert 'class="plus"' in page and 'class="minus"' in page
    added = Card.objects.get(code=second[-1][0])
    assert added.name_en in page
    back = client.get(f"/en/decks/{deck.pk}/versions/", {"from": 2, "to": 1})
    assert {(r["code"], r["change"]) for r in back.context["diff"]["rows"]} == {
        (first[-1][0], 1),
        (second[-1][0], -1),
    }
    from_empty = client.get(f"/en/decks/{deck.pk}/versions/", {"from": 0, "to": 1})
    assert sum(r["change"] for r in from_empty.context["diff"]["rows"]) == 45


@pytest.mark.parametrize("params", [{"from": "x"}, {"to": "7"}, {"from": "-3", "to": "1"}])
def test_versions_bad_numbers_are_a_message(client, laci_deck, params):
    response = client.get(f"/en/decks/{laci_deck.pk}/versions/", params)
    assert response.status_code == 400
    assert 'id="version-error"' in html(response)


def test_compare_two_visible_decks(client, catalogue, alice, bob):
    a = services.save_deck(alice, name="Alpha", cards=colony(LACI), is_public=True)
    b = services.save_deck(bob, name="Beta", cards=colony(DANI), is_public=True)
    response = client.get("/en/decks/compare/", {"a": a.pk, "b": b.pk})
    assert response.status_code == 200
    rows = response.context["diff"]["rows"]
    a_entries = dict((e.card.code, e.count) for e in a.entries.all())
    b_entries = dict((e.card.code, e.count) for e in b.entries.all())
    for row in rows:
        assert row["before"] == a_entries.get(row["code"], 0)
        assert row["after"] == b_entries.get(row["code"], 0)
    shared = sum(min(a_entries.get(c, 0), n) for c, n in b_entries.items())
    assert response.context["diff"]["shared"] == shared
    page = html(response)
    assert "Alpha" in page and "Beta" in page and 'id="diff-table"' in page


def test_compare_form_without_decks_and_with_bad_input(client, laci_deck):
    assert client.get("/en/decks/compare/").status_code == 200
    assert client.get("/en/decks/compare/", {"a": "x", "b": "1"}).status_code == 400
    assert client.get("/en/decks/compare/", {"a": laci_deck.pk, "b": 999999}).status_code == 404


# --------------------------------------------------------------------------- print


def test_print_sheet(client, laci_deck):
    response = client.get(f"/en/decks/{laci_deck.pk}/print/")
    page = html(response)
    assert response.status_code == 200
    assert 'id="player-name"' in page and "Laci colony" in page
    assert "@media print" in open("static/css/decks.css", encoding="utf-8").read()
    assert 'id="print-button"' in page
    for entry in laci_deck.entries.all():
        assert entry.card.code in page and entry.card.name in page and entry.card.name_en in page
    assert '<td class="num" id="total">45</td>' in page
    subtotals = re.findall(r'<tr class="subtotal"><td class="num">(\d+)</td>', page)
    assert sum(map(int, subtotals)) == 45 and len(subtotals) == len(response.context["groups"])


# --------------------------------------------------------------------------- import


def decklist_text(entries, lang="en"):
    cards = {c.code: c for c in Card.objects.filter(code__in=[code for code, _ in entries])}
    return "\n".join(
        f"{n} {cards[code].name_en if lang == 'en' else cards[code].name}" for code, n in entries
    )


def test_import_when_logged_in_saves_and_redirects(client, catalogue, alice):
    client.force_login(alice)
    entries = colony(LACI)
    response = client.post(
        "/en/decks/import/", {"text": decklist_text(entries), "format": "auto", "name": "Imported"}
    )
    deck = Deck.objects.get()
    assert response.status_code == 302 and response["Location"] == deck.get_absolute_url()
    assert deck.owner == alice and deck.name == "Imported" and deck.is_legal
    assert sorted((e.card.code, e.count) for e in deck.entries.all()) == sorted(entries)
    assert DeckVersion.objects.filter(deck=deck).count() == 1


def test_import_check_only_does_not_save(client, catalogue, alice):
    client.force_login(alice)
    text = decklist_text(colony(LACI))
    response = client.post("/en/decks/import/", {"text": text, "format": "text", "action": "check"})
    assert response.status_code == 200 and not Deck.objects.exists()


def test_anonymous_import_shows_the_parsed_deck_and_its_problems(client, catalogue):
    entries = colony(DANI, total=44) + [(colony(["xeno"], total=1)[0][0], 1)]
    response = client.post(
        "/hu/decks/import/", {"text": decklist_text(entries, "hu"), "format": "auto"}
    )
    assert response.status_code == 200
    assert not Deck.objects.exists()
    page = html(response)
    assert 'id="import-result"' in page and 'id="login-to-save"' in page
    assert [p["code"] for p in response.context["problems"]] == ["OPPOSING_RACES"]
    assert "Ember és Xeno ellentétes fajok" in page
    assert response.context["total"] == 45


def test_import_unknown_name_shows_did_you_mean(client, catalogue, alice):
    client.force_login(alice)
    text = "3 Cobra Flsh\n2 Halálszárny\n1 Zzzzqqq"
    response = client.post("/en/decks/import/", {"text": text, "format": "auto"})
    assert response.status_code == 400
    page = html(response)
    assert "Did you mean: Cobra Flash?" in page
    assert 'data-line="1"' in page and 'data-line="3"' in page
    assert not Deck.objects.exists()


def test_import_10000_lines_is_a_clear_error_and_nothing_is_stored(client, catalogue, alice):
    client.force_login(alice)
    text = "\n".join(["1 Cobra Flash"] * 10_000)
    response = client.post("/en/decks/import/", {"text": text, "format": "auto"})
    assert response.status_code == 400
    assert "The list has 10000 lines; at most 1000 are allowed" in html(response)
    assert not Deck.objects.exists() and not DeckVersion.objects.exists()


def test_import_non_utf8_upload_is_a_clear_error(client, catalogue, alice):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(alice)
    upload = SimpleUploadedFile("deck.txt", "3 Halálszárny\n".encode("latin-1"))
    response = client.post("/en/decks/import/", {"file": upload, "format": "auto"})
    assert response.status_code == 400
    page = html(response)
    assert 'id="import-error"' in page and "not UTF-8" in page and "line 1" in page
    assert not Deck.objects.exists()


def test_import_upload_json_and_share_code(client, catalogue, alice, laci_deck):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(alice)
    json_text = client.get(f"/api/decks/{laci_deck.pk}/export/?format=json").content
    response = client.post(
        "/en/decks/import/", {"file": SimpleUploadedFile("x.json", json_text), "format": "auto"}
    )
    assert response.status_code == 302
    share = client.get(f"/en/decks/{laci_deck.pk}/").context["share_code"]
    response = client.post("/en/decks/import/", {"text": share, "format": "auto", "name": "Shared"})
    assert response.status_code == 302
    expected = sorted((e.card.code, e.count) for e in laci_deck.entries.all())
    for deck in Deck.objects.exclude(pk=laci_deck.pk):
        assert sorted((e.card.code, e.count) for e in deck.entries.all()) == expected
    assert Deck.objects.filter(name="Laci colony").count() == 2  # the JSON carries the name


def test_import_nothing_to_read(client, catalogue):
    assert client.post("/en/decks/import/", {"text": "  ", "format": "auto"}).status_code == 400
    response = client.post("/en/decks/import/", {"text": "# only a comment", "format": "auto"})
    assert response.status_code == 400 and "No cards were found" in html(response)


# --------------------------------------------------------------------------- collection


def test_collection_needs_a_login(client, catalogue):
    response = client.get("/en/decks/collection/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_booster_gives_15_cards_never_ultra_rare_and_the_collection_grows(client, catalogue, alice):
    """R 8.1: 30 : 10 : 3 frequencies; R 8.1.2: no ultra-rare ever comes from a pack."""
    client.force_login(alice)
    response = client.post("/en/decks/collection/", {"action": "booster"})
    assert response.status_code == 302
    page = client.get("/en/decks/collection/")
    opened = page.context["opened"]
    assert len(opened) == BOOSTER_SIZE == 15
    assert all(card.rarity != "ultra_rare" for card in opened)
    assert html(page).split('id="opened-cards"')[1].count('class="card-face') == 15
    total = sum(CollectionEntry.objects.filter(owner=alice).values_list("count", flat=True))
    assert total == 15
    client.post("/en/decks/collection/", {"action": "booster"})
    total = sum(CollectionEntry.objects.filter(owner=alice).values_list("count", flat=True))
    assert total == 30
    assert len(client.get("/en/decks/collection/").context["opened"]) == 15
    assert client.get("/en/decks/collection/").context["opened"] is None  # shown once


def test_boosters_never_hold_ultra_rares_over_many_seeds(catalogue):
    from cards_data.definitions import card_dicts

    cards = list(card_dicts().values())
    assert any(c["rarity"] == "ultra_rare" for c in cards)
    rarities = [c["rarity"] for seed in range(300) for c in open_booster(cards, seed)]
    assert "ultra_rare" not in rarities
    share = rarities.count("common") / len(rarities)
    assert 0.64 < share < 0.76  # 30/43 = 69.8 %


def test_collection_set_counts_by_name_and_code(client, catalogue, alice):
    client.force_login(alice)
    cobra = Card.objects.get(name="Cobra Flash")
    halal = Card.objects.get(name="Halálszárny")
    response = client.post(
        "/en/decks/collection/",
        {"action": "set", "lines": f"3 Cobra Flash\n2x {halal.code}  # mine\n\nDeathwing x1"},
    )
    assert response.status_code == 302
    owned = dict(CollectionEntry.objects.filter(owner=alice).values_list("card__code", "count"))
    assert owned == {cobra.code: 3, halal.code: 3}
    client.post("/en/decks/collection/", {"action": "set", "lines": f"0 {cobra.code}"})
    owned = dict(CollectionEntry.objects.filter(owner=alice).values_list("card__code", "count"))
    assert owned == {halal.code: 3}
    page = client.get("/en/decks/collection/")
    rarity_rows = {r["rarity"]: r for r in page.context["rarities"]}
    assert rarity_rows[halal.rarity]["copies"] == 3
    completion = {r["race"]: r for r in page.context["completion"]}
    assert completion[halal.race]["owned"] == 1 and completion[halal.race]["total"] == 30


def test_collection_bad_lines_are_all_reported_and_nothing_changes(client, catalogue, alice):
    client.force_login(alice)
    response = client.post(
        "/en/decks/collection/", {"action": "set", "lines": "3 Cobra Flsh\nHalálszárny\n2 KG1-001"}
    )
    assert response.status_code == 400
    page = html(response)
    assert "Line 1" in page and "Did you mean: Cobra Flash?" in page and "Line 2" in page
    assert not CollectionEntry.objects.exists()


def test_collection_replace(client, catalogue, alice):
    client.force_login(alice)
    client.post("/en/decks/collection/", {"action": "set", "lines": "3 Cobra Flash"})
    client.post(
        "/en/decks/collection/", {"action": "set", "lines": "1 Halálszárny", "replace": "on"}
    )
    owned = list(CollectionEntry.objects.filter(owner=alice).values_list("card__name", "count"))
    assert owned == [("Halálszárny", 1)]
