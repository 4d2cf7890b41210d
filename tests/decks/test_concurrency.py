"""Many writers at once, through real HTTP: nothing lost, no 500 (issue 11, findings 2 and 3).

20 threads of one user open boosters and create decks against a real server process, on
PostgreSQL and on the embedded default's SQLite file. Every booster a response promised is
in the collection afterwards, every deck a response created exists, and no request failed.
(Before: PostgreSQL deadlocked and lost cards; SQLite failed ~85 % of the writes with
"database is locked".)
"""

import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from live_kit import LiveSite, prepare, site_env
from service_kit import database_url

THREADS = 20
ROUNDS = 2  # each thread: ROUNDS × (open a booster, create a deck)


def hammer(site: LiveSite, session: str):
    """All threads start together; returns every (kind, status, body) seen."""
    start = threading.Barrier(THREADS)

    def work(index):
        start.wait()
        seen = []
        for n in range(ROUNDS):
            seen.append(("booster", *site.request("POST", "/api/collection/booster/", {}, session)))
            deck = {"name": f"t{index}-{n}", "cards": [{"code": "KG1-001", "count": 3}]}
            seen.append(("deck", *site.request("POST", "/api/decks/", deck, session)))
        return seen

    with ThreadPoolExecutor(THREADS) as pool:
        return [item for seen in pool.map(work, range(THREADS)) for item in seen]


def assert_nothing_lost(site: LiveSite, session: str, seen):
    failures = [(kind, status, body) for kind, status, body in seen if status not in (200, 201)]
    assert not failures, failures[:3]
    promised: dict[str, int] = {}
    for kind, _status, body in seen:
        if kind == "booster":
            for card in body["cards"]:
                promised[card["code"]] = promised.get(card["code"], 0) + 1
    status, owned = site.request("GET", "/api/collection/", session=session)
    assert status == 200
    assert {c["code"]: c["count"] for c in owned["cards"]} == promised
    assert sum(promised.values()) == THREADS * ROUNDS * 15
    created = {body["id"] for kind, _status, body in seen if kind == "deck"}
    assert len(created) == THREADS * ROUNDS


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_boosters_and_decks_on_postgresql(postgres_db, tmp_path):
    env = site_env(database_url(postgres_db))
    session = prepare(env, ["alice"])["alice"]
    with LiveSite(env, tmp_path, workers=2) as site:
        assert_nothing_lost(site, session, hammer(site, session))
    from decks.models import Deck

    assert Deck.objects.filter(owner__username="alice").count() == THREADS * ROUNDS


def test_concurrent_boosters_and_decks_on_the_embedded_sqlite(tmp_path):
    env = site_env(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    session = prepare(env, ["alice"], migrate=True)["alice"]
    with LiveSite(env, tmp_path, workers=2) as site:
        assert_nothing_lost(site, session, hammer(site, session))
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("select count(*) from decks_deck").fetchone() == (THREADS * ROUNDS,)
