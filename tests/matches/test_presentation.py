"""The table's words (matches/presentation.py): every name the engine can produce has a
rendering in both languages, legal actions read as words without ids, and the card faces the
table shows come from the catalogue. The names come from the engine's source
(tests/engine_vocabulary.py), so a new decision, event, step, zone or reason is caught."""

import re

import pytest
from django.utils import translation
from engine_vocabulary import vocabulary

from engine.bots import make_bot
from engine.colonies import PRESETS, build_colony, load_cards
from engine.game import apply, legal_actions, new_game, pending
from engine.ruleset import Ruleset
from engine.view import view
from matches import presentation, selectors

TABLES = {
    "decisions": presentation.decisions,
    "events": presentation.events,
    "steps": presentation.steps,
    "zones": presentation.zones,
    "phases": presentation.phases,
    "windows": presentation.windows,
    "reasons": presentation.reasons,
}


def strings(node):
    if isinstance(node, dict):
        for value in node.values():
            yield from strings(value)
    elif isinstance(node, str):
        yield node


@pytest.mark.parametrize("kind", sorted(TABLES))
@pytest.mark.parametrize("lang", ["hu", "en"])
def test_every_engine_name_has_a_rendering(kind, lang):
    with translation.override(lang):
        table = TABLES[kind]()
    missing = vocabulary()[kind] - set(table)
    assert not missing, f"{kind} without words in {lang}: {sorted(missing)}"
    for name in vocabulary()[kind]:
        for text in strings(table[name]):
            assert text and "_" not in text, (kind, name, text)
            assert lang == "en" or text != name, (kind, name, text)  # English may say "combat"


def test_every_decision_says_what_and_why():
    with translation.override("hu"):
        decisions = presentation.decisions()
    for name in vocabulary()["decisions"]:
        d = decisions[name]
        # and, where they say more, how many cards it wants and the rule behind it (issue 34)
        assert d["title"] and d["help"]
        assert {"title", "help"} <= set(d) <= {"title", "help", "count", "why"}


def test_every_action_kind_has_words():
    with translation.override("en"):
        phrases = presentation.actions()
    keys = {k.split(".")[0] for k in phrases}
    assert vocabulary()["actions"] <= keys
    # a pick among cards says what the pick does, for each decision that asks for cards
    asked = {"discard", "discard_ship", "search", "order_top", "return_to_colony"}
    asked |= {"return_to_centre", "copy_event", "mode", "target", "attackers", "defenders"}
    asked |= {"bombers", "distribute"}
    assert {f"choose.{d}" for d in asked} <= set(phrases)


def test_hungarian_is_hungarian():
    """Every phrase of the table has its own Hungarian (a missing msgstr shows English)."""
    with translation.override("en"):
        en = presentation.client_strings()
    with translation.override("hu"):
        hu = presentation.client_strings()
    same = [e for e, h in zip(strings(en), strings(hu), strict=True) if e == h]
    allowed = {"%(card)s: %(stat)s %(amount)s", "%(card)s: %(from)s → %(to)s", "Xeno", "robot"}
    allowed.add("(%(n)s credit)")  # "credit" is the Hungarian game's own word too
    assert set(same) - allowed - {s for s in same if re.fullmatch(r"[A-Z ]+[\d. M]*", s)} == set()


def _game_positions(games=6):
    cards = load_cards()
    for g in range(games):
        colonies = [build_colony(cards, PRESETS["laci"]), build_colony(cards, PRESETS["dani"])]
        state = new_game(colonies, g, Ruleset(turn_limit=6))
        bots = [make_bot("heuristic", g), make_bot("random", g)]
        while (p := pending(state)) is not None:
            yield state, p
            apply(state, bots[p.player].choose(state, p.player))


def test_legal_actions_read_as_words_without_ids():
    """The old labels were "Választás: 182" and "Lerakás: Aknagyűrű (ship)"."""
    seen_kinds = set()
    for state, p in _game_positions():
        seen = view(state, p.player)
        names = selectors._names(seen)
        for action in legal_actions(state):
            labelled = selectors.labelled(action.to_dict(), names, p.decision)
            seen_kinds.add(action.kind)
            ids = {v for k, v in action.params if k != "at" and isinstance(v, int) and v > 9}
            for lang in ("hu", "en"):
                text = labelled[f"label_{lang}"]
                words = set(re.findall(r"\d+", text))
                assert not {str(i) for i in ids} & words, (action.id, text)
                assert not re.search(r"[a-z]+_[a-z]+|\((ship|surface|canteen)\)", text), text
    assert {"choose", "place", "fire", "attack", "pass", "end_turn"} <= seen_kinds


@pytest.mark.django_db
def test_card_faces_are_the_catalogue_face_in_the_page_language(client, catalogue):
    got = client.get("/en/play/faces/?codes=KG1-001,NOPE").json()["faces"]
    assert set(got) == {"KG1-001"}
    face = got["KG1-001"]
    assert face["printed"]["speed"] is not None and 'class="card-face' in face["html"]
    hu = client.get("/hu/play/faces/?codes=KG1-001").json()["faces"]["KG1-001"]
    assert hu["html"] != face["html"]  # the rules text and labels follow the language


@pytest.mark.django_db
def test_card_faces_give_the_rules_text_with_its_tokens_as_icons(client, catalogue):
    """R 2.4: "[USED]" and the other tokens reach the table as icon parts (letter and
    meaning, as on the card page), never as bracketed text."""
    from cards_data.models import Card

    card = (
        Card.objects.filter(text_hu__contains="[USED]").first()
        or Card.objects.filter(text_en__contains="[USED]").first()
    )
    assert card is not None, "the set has cards whose text uses [USED]"
    for lang in ("hu", "en"):
        face = client.get(f"/{lang}/play/faces/?codes={card.code}").json()["faces"][card.code]
        parts = face["text_parts"]
        assert {"token": "used", "icon": "H"}.items() <= next(
            p for p in parts if p.get("token") == "used"
        ).items()
        assert all("[" not in p.get("text", "") for p in parts), parts
        shown = "".join(p.get("text", p.get("icon", "")) for p in parts)
        assert shown.replace("H", "").strip()  # the words around the icon are kept


def test_counts_come_in_both_forms_of_the_language():
    """ "1 cards in the centre" was on the English table: a count's words are sent in the
    language's two forms and the page picks by the number (board.js fmt)."""
    from django.utils import translation

    from matches.presentation import ui

    with translation.override("en"):
        centre = ui()["cards_in_centre"]
    assert centre == {"one": "%(n)s card in the centre", "other": "%(n)s cards in the centre"}
    with translation.override("hu"):
        hungarian = ui()
    assert hungarian["cards_in_centre"] == {"one": "%(n)s lap a központban",
                                            "other": "%(n)s lap a központban"}  # fmt: skip
    assert hungarian["result_turns"]["one"] == "%(n)s kör után"


def test_hungarian_table_says_ujrakeveres_not_mulligan():
    """R 23 (glossary): the Hungarian word for the mulligan is "újrakeverés"; the table
    showed "Mulligan: öt új lapot húzok" (issue 34)."""
    with translation.override("hu"):
        table = presentation.client_strings()
    words = list(strings(table))
    assert not [w for w in words if "ulligan" in w.lower()]
    assert table["actions"]["mulligan"].startswith("Újrakeverés")


def test_ranking_places_are_english_ordinals_and_hungarian_numbers():
    """R 17.1 ranking strips: the English table said "3. place"; Hungarian keeps "3. hely"."""
    with translation.override("en"):
        english = presentation.ui()["place"]
    with translation.override("hu"):
        hungarian = presentation.ui()["place"]
    assert [english[str(n)] for n in range(1, 7)] == [
        "1st place", "2nd place", "3rd place", "4th place", "5th place", "6th place",
    ]  # fmt: skip
    assert [hungarian[str(n)] for n in range(1, 7)] == [f"{n}. hely" for n in range(1, 7)]
