"""The seam catalogue -> engine (DESIGN.md data flow 1, issue 34): the card definitions
every game of the site is played with equal the set files' entries, card by card and key
by key, in value and in type; and the engine reads no key that the site leaves out."""

import json
import os
import subprocess  # nosec B404: runs our own script
import sys
from pathlib import Path

import pytest

from cards_data import definitions
from cards_data.definitions import FOR_PEOPLE_ONLY, card_dicts
from cards_data.loader import SETS_DIR

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def set_file_entries() -> dict[str, dict]:
    """code -> the card's entry as its set file writes it (read here, not by the loader)."""
    out = {}
    for path in sorted(SETS_DIR.glob("*/*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8"))["cards"]:
            out[entry["code"]] = entry
    return out


def engine_part(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if k not in FOR_PEOPLE_ONLY}


def typed(value) -> str:
    """JSON with keys sorted: 3 and "3", 1 and true, 2 and 2.0 all differ."""
    return json.dumps(value, sort_keys=True)


def test_the_site_hands_the_engine_all_240_cards_as_their_set_files_write_them(catalogue):
    """Every card, every key, equal in value and type: the printed bonuses (R 5.2), the
    upgrade limits as numbers, X or ? (R 5.3.1), costs, stats, keywords, abilities."""
    entries = set_file_entries()
    site = card_dicts()
    assert len(entries) == 240 and set(site) == set(entries)
    for code, entry in entries.items():
        assert typed(site[code]) == typed(engine_part(entry)), code
    # the two fields the catalogue's columns once lost on the way (issue 34)
    bonus_cards = [c for c, e in entries.items() if "bonus" in e]
    assert len(bonus_cards) == 46
    assert all(site[c]["bonus"] == entries[c]["bonus"] for c in bonus_cards)
    limits = {c: e["upgrade_limit"] for c, e in entries.items() if "upgrade_limit" in e}
    assert {type(v) for v in limits.values()} == {int, str}  # numbers, and "X" / "?"
    assert all(site[c]["upgrade_limit"] == v for c, v in limits.items())


def test_every_way_into_a_game_uses_the_same_definitions(catalogue, alice, bob):
    """Online 1v1 and multiplayer games (matches.services), tournament games and simulated
    events (they create their games through matches.services), the deck lab (its own
    chunks), replays (the stored state's definitions) and the search bot's pool of unseen
    cards: all equal the set files' entries."""
    from decklab.chunks import run_colonies
    from decklab.models import LabRun
    from decklab.reference import reference_decks
    from engine.observation import card_pool
    from engine.serialize import load
    from matches import services
    from matches.positions import initial_state
    from tournaments.simulation import legal_colony_names

    def legal_colony(seed):
        return [c for c in legal_colony_names(f"definitions-{seed}") for _copy in range(3)]

    entries = {c: engine_part(e) for c, e in set_file_entries().items()}
    every_code = sorted(entries)

    def assert_as_printed(defs):
        for d in defs:
            assert typed(d) == typed(entries[d["code"]]), d["code"]

    assert_as_printed(services.colony_defs(every_code))  # the one entry of online play

    match = services.create_match(
        players=[alice, bob], colonies=[legal_colony(1), legal_colony(2)], seed=5
    )
    state = load(match.snapshot)
    assert_as_printed(state.defs.values())
    assert_as_printed(initial_state(match, state).defs.values())  # what a replay plays

    table = services.create_match(
        players=[alice, None, None],
        bots=[None, "heuristic", "heuristic"],
        colonies=[legal_colony(3), legal_colony(4), legal_colony(5)],
        decks=[None, None, None],
        seed=6,
    )
    assert_as_printed(load(table.snapshot).defs.values())

    run = LabRun(colony=[[c, 3] for c in sorted(set(legal_colony(7)))])
    for ref in reference_decks():
        for colony in run_colonies(run, ref["key"]):
            assert_as_printed(colony)

    pool = {d["code"]: engine_part(d) for d in card_pool()}
    assert {c: typed(d) for c, d in pool.items()} == {c: typed(d) for c, d in entries.items()}


def engine_reads(site: dict, tmp_path, games: int) -> dict[str, list]:
    """code -> the keys the engine asked that card's definition for, in `games` games
    played from the definitions `site` (record_engine_reads.py, on the pure engine)."""
    handed = tmp_path / "definitions.json"
    handed.write_text(json.dumps(site), encoding="utf-8")
    env = dict(os.environ, KGK_ENGINE_PURE="1", PYTHONPATH=str(ROOT))
    script = Path(__file__).with_name("record_engine_reads.py")
    done = subprocess.run(  # nosec B603: our own script, no shell
        [sys.executable, str(script), str(handed), str(games)],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def test_the_engine_reads_no_key_that_the_site_leaves_out(catalogue, tmp_path):
    """The list of keys is not written down anywhere to drift: games played from the site's
    definitions record every key the engine asks for (80 games, random legal colonies,
    R 9, random legal moves, with views); each key it asked a card for and did not find
    must be missing from that card's set-file entry too."""
    entries = set_file_entries()
    site = card_dicts()
    reads = engine_reads(site, tmp_path, 80)
    missing = {
        (code, key)
        for code, keys in reads.items()
        for key in keys
        if key not in site[code] and key in entries[code]
    }
    assert missing == set()
    read = set().union(*map(set, reads.values()))
    # the games reached what the seam once lost, so the check above can fail
    assert {"bonus", "upgrade_limit", "abilities", "keywords"} <= read
    assert read.isdisjoint(FOR_PEOPLE_ONLY)  # words for people stay out of the rules
    assert len(reads) > 200  # most of the set was played


def test_the_reading_check_catches_a_site_that_drops_a_key(catalogue, tmp_path):
    """The check above can fail: definitions without their printed bonuses, as the site's
    were before issue 34, leave cards whose bonus the engine asked for and did not find."""
    entries = set_file_entries()
    site = {c: {k: v for k, v in d.items() if k != "bonus"} for c, d in card_dicts().items()}
    reads = engine_reads(site, tmp_path, 20)
    dropped = {code for code, keys in reads.items() if "bonus" in keys and "bonus" in entries[code]}
    assert len(dropped) > 10


def test_a_run_with_other_definitions_is_not_the_same_digest(catalogue):
    """definitions.digest: order-free, and any change of a value changes it."""
    defs = list(card_dicts(["KG1-001", "KG1-002"]).values())
    assert definitions.digest(defs) == definitions.digest(reversed(defs))
    changed = json.loads(json.dumps(defs))
    changed[0]["credit_cost"] = changed[0]["credit_cost"] + 1
    assert definitions.digest(changed) != definitions.digest(defs)


def test_an_unknown_code_is_named(catalogue):
    with pytest.raises(definitions.UnknownCards) as raised:
        definitions.colony(["KG1-001", "KG9-999", "NOPE"])
    assert raised.value.codes == ["KG9-999", "NOPE"]
