"""The deck lab never runs in the web request (issue 11, finding 6).

In the embedded default (SQLite, eager Celery) a 1,000-game run held its POST for 19 s of
CPU. Now the POST only queues the run; decklab.background's thread plays it chunk by chunk,
so the run's progress (what the page's bar shows) rises while the site keeps answering.
A real server process on a SQLite file: the embedded default as `make run` serves it.
"""

import time

from live_kit import LiveSite, prepare, site_env

GAMES = 400


def legal_cards():
    """A legal 45-card colony (R 9.1, 9.2), as the engine's colony builder makes one."""
    from engine.colonies import build_colony, load_cards

    counts: dict[str, int] = {}
    for card in build_colony(load_cards(), ["xeno", "insectoid", "zarg", "space_shark"]):
        counts[card["code"]] = counts.get(card["code"], 0) + 1
    return [{"code": code, "count": n} for code, n in sorted(counts.items())]


def test_a_run_answers_at_once_and_its_progress_moves(tmp_path):
    env = site_env(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    session = prepare(env, ["alice"], migrate=True)["alice"]
    with LiveSite(env, tmp_path) as site:
        cards = legal_cards()
        status, deck = site.request("POST", "/api/decks/", {"name": "L", "cards": cards}, session)
        assert status == 201, deck
        status, run = site.request(
            "POST", "/api/decklab/runs/", {"deck": deck["id"], "games": GAMES}, session
        )
        assert status == 201, run
        assert run["done"] < GAMES and run["status"] in ("queued", "running")
        seen = [run["done"]]
        deadline = time.monotonic() + 600
        while run["status"] not in ("done", "failed") and time.monotonic() < deadline:
            time.sleep(0.2)
            status, run = site.request("GET", f"/api/decklab/runs/{run['id']}/", session=session)
            assert status == 200  # the site answers while the run plays
            seen.append(run["done"])
    assert run["status"] == "done" and run["done"] == GAMES
    assert seen == sorted(seen)
    assert any(0 < done < GAMES for done in seen), seen  # the bar stood between the ends
