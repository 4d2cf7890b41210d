"""Deck advice and the metagame's archetypes (issue 39): once the statistics find archetypes
(settings.DECKLAB_ARCHETYPES names the function, decklab/metagame.py reads it: decklab never
imports stats), a run plays against the most played ones and tries their cards first."""

import sys
import types

import pytest
from django.utils import translation

from cards_data.definitions import card_dicts
from decklab import advice, metagame, racing
from decklab.models import AdviceRun
from decklab.reference import reference_decks
from engine.deck import RULESETS


def rows():
    """Archetypes shaped as stats.selectors.archetypes' rows: the reference colonies as
    typical lists, named in the active language and in both, and one whose list is too
    short."""
    hungarian = translation.get_language() == "hu"
    found = [
        types.SimpleNamespace(
            id=10 + k,
            races=tuple(ref["races"][:2]),
            name=f"{'Archetípus' if hungarian else 'Archetype'} {k}",
            names={"hu": f"Archetípus {k}", "en": f"Archetype {k}"},
            typical=tuple((code, n, code, 1.0 - k / 100) for code, n in ref["cards"]),
            lists=100 - k,
        )
        for k, ref in enumerate(reference_decks())
    ]
    short = types.SimpleNamespace(id=99, races=("human",), name="Short", lists=500,
                                  typical=(("KG1-001", 3, "x", 0.9),))  # fmt: skip
    return [*found[:3], short]


@pytest.fixture
def fake_stats(settings, monkeypatch):
    module = types.ModuleType("fake_stats_selectors")
    module.archetypes = rows
    monkeypatch.setitem(sys.modules, "fake_stats_selectors", module)
    settings.DECKLAB_ARCHETYPES = "fake_stats_selectors.archetypes"


def test_the_settings_name_the_statistics_archetypes_and_decklab_does_not_import_stats(db):
    from django.conf import settings

    assert settings.DECKLAB_ARCHETYPES == "stats.selectors.archetypes"
    assert metagame.archetype_rows() == []  # no statistics yet: the reference colonies
    source = (metagame.__file__, advice.__file__, racing.__file__)
    assert not any("import stats" in open(p).read() or "from stats" in open(p).read()
                   for p in source)  # fmt: skip


def test_the_gauntlet_is_the_most_played_archetypes_that_make_a_legal_colony_R_9(
    catalogue, fake_stats
):
    found = metagame.snapshot(card_dicts(), RULESETS["original"])
    keys = [ref["key"] for ref in found["gauntlet"]]
    assert keys == ["archetype-10", "archetype-11", "archetype-12"]  # "Short" is no colony
    first = found["gauntlet"][0]
    assert (first["name_en"], first["name_hu"]) == ("Archetype 0", "Archetípus 0")
    assert sum(n for _c, n in first["cards"]) == 45
    assert len(found["lists"]) == 3


def test_no_archetypes_leave_the_reference_colonies(catalogue, settings):
    settings.DECKLAB_ARCHETYPES = ""
    assert metagame.snapshot(card_dicts(), RULESETS["original"]) == {}
    run = AdviceRun(metagame={})
    assert [ref["key"] for ref in metagame.gauntlet(run)] == [r["key"] for r in reference_decks()]


def test_a_run_plays_the_archetypes_and_names_them_in_the_readers_language(
    client, lab_deck, alice, on_commit, fake_stats, monkeypatch
):
    monkeypatch.setattr(racing, "ROUNDS", (6,))
    monkeypatch.setattr(advice, "FRESH_GAMES", 4)
    monkeypatch.setattr(advice, "MAX_CANDIDATES", 1)
    client.force_login(alice)
    form = client.get(f"/en/lab/decks/{lab_deck.pk}/advice/").content.decode()
    assert "Archetype 0" in form and "Vanguard" not in form  # the gauntlet it would play
    with on_commit(execute=True):
        client.post(f"/en/lab/decks/{lab_deck.pk}/advice/", {"budget": "3000"})
    run = AdviceRun.objects.get()
    assert run.status == AdviceRun.DONE, run.error
    opponents = {s["opponent"] for row in run.candidates for s in row["splits"]}
    assert opponents == {"archetype-10", "archetype-11", "archetype-12"}
    en = client.get(f"/en/lab/advice/{run.pk}/").content.decode()
    hu = client.get(f"/hu/lab/advice/{run.pk}/").content.decode()
    assert "Archetype 0" in en and "Archetípus 0" not in en
    assert "Archetípus 0" in hu and "Archetype 0" not in hu
