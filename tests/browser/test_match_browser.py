"""Online play in a real browser (Playwright, Debian Chromium) against pytest-django's
live_server. live_server speaks WSGI only, so the game page's WebSocket cannot connect and
its polling fallback keeps it current: that fallback is what these tests drive.

- A person starts a bot game from the lobby on a 390 px phone, plays a few actions by
  clicking (and with the P key), concedes, and opens the replay.
- A person plays a short bot game to its end by clicking the first legal action every time
  (R 15 / the turn limit ends it), then steps through the replay from both seats.
- Two people in two browser contexts: one posts an open challenge, the other accepts it,
  and both pages show the same game, each with only its own centre (R 16).
"""

import random
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from decks.services import save_deck
from matches import services
from matches.models import ActionRequest, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

from service_kit import database_url, redis_db, service_missing  # noqa: E402

from tests.matches.kit import logged_in, post_random_action  # noqa: E402

from .browser_kit import PASSWORD, log_in, no_horizontal_scroll  # noqa: E402

LACI = ["xeno", "insectoid", "zarg", "space_shark"]  # R 20 EX-1


def legal_entries(races=LACI):
    from engine.colonies import build_colony, load_cards

    counts = {}
    for card in build_colony(load_cards(), races):
        counts[card["code"]] = counts.get(card["code"], 0) + 1
    return sorted(counts.items())


def codes(entries):
    return [code for code, n in entries for _ in range(n)]


def make_user(name):
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    deck = save_deck(user, name=f"{name} colony", cards=legal_entries())
    return user, deck


def bot_match(user, deck, bot="random", **engine_options):
    """A game of `user` (seat 0, with `deck`) against a bot (seat 1) on the same colony."""
    return services.create_match(
        players=(user, None),
        colonies=(codes(legal_entries()), codes(legal_entries())),
        bots=(None, bot),
        decks=(deck, None),
        engine_options=engine_options or None,
    )


def version(page) -> int:
    return page.evaluate("window.KGKGame.state().version")


ACTION = "#actions button.act:not([disabled]):not(.sheet-toggle)"  # a legal action's button


def click_and_wait(page, button) -> bool:
    """Click a legal action; True once the page shows a newer version (False: it did not move)."""
    before = version(page)
    try:
        button.click(timeout=5000)
    except PlaywrightTimeout:  # the position moved on first and took the button away
        return False
    confirm = page.get_by_role("alertdialog")
    if confirm.count():  # "end the turn while an attack is still possible?" - yes
        confirm.get_by_role("button").first.click()
    try:
        page.wait_for_function("v => window.KGKGame.state().version > v", arg=before, timeout=8000)
    except PlaywrightTimeout:
        return False
    return True


def play_first_actions(page, max_clicks=4000):
    """Click the first enabled legal action until the result shows; returns the clicks."""
    clicks = 0
    while clicks < max_clicks:
        if page.locator("#result").is_visible():
            return clicks
        button = page.locator("#actions button.act:not([disabled])").first
        try:
            button.wait_for(timeout=8000)
        except PlaywrightTimeout:
            continue  # the bot is deciding; the poll brings the next decision
        if click_and_wait(page, button):
            clicks += 1
    raise AssertionError("the game did not end")


def test_phone_lobby_bot_game_keyboard_concede_and_replay(new_page, live_server, cards):
    make_user("alice")
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    log_in(page, live_server, "alice", "/en/play/")
    no_horizontal_scroll(page)
    with page.expect_navigation():
        page.click("#play-random")
    match = Match.objects.get()
    assert page.url == f"{live_server.url}/en/play/{match.pk}/"
    expect(page.locator("#side-bottom [data-zone=colony]")).to_be_visible()
    expect(page.locator("#side-top [data-zone=hangar]")).to_be_visible()
    expect(page.locator("#hand .card").first).to_be_visible()  # my centre, face up to me
    expect(page.locator("#conn")).to_have_class("conn polling")  # no WebSocket on WSGI
    no_horizontal_scroll(page)
    # a phone's decision sheet opens whole (issue 34: one line of main actions when folded;
    # a discard's choices are behind "More"), and stays open
    page.locator("#actions .sheet-toggle").click()
    expect(page.locator("#action-bar")).not_to_have_class(re.compile("collapsed"))
    # R 10.5: the first decision is the mulligan. The keyboard: P keeps the hand (P passes,
    # finishes or keeps whenever such an action is offered; in a game against bots most
    # such windows are now taken for the person, issue 34, so the mulligan is the sure one)
    page.locator(ACTION).first.wait_for()
    kinds = page.evaluate("window.KGKGame.state().legal_actions.map(a => a.kind)")
    assert "keep" in kinds
    before = version(page)
    page.keyboard.press("p")
    page.wait_for_function("v => window.KGKGame.state().version > v", arg=before)
    for _ in range(3):  # then a few clicks on the page's own buttons
        button = page.locator(ACTION).first
        button.wait_for()
        assert click_and_wait(page, button)
    assert page.locator("#log li").count() > 5
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#concede")
    expect(page.locator("#result")).to_contain_text("You lost")
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.result == "concede" and match.winner_seat == 1
    with page.expect_navigation():
        page.click("#replay-link")
    expect(page.locator("#step-label")).to_contain_text("0 /")
    page.click("#last")
    expect(page.locator("#result")).to_be_visible()
    no_horizontal_scroll(page)
    assert not page.js_errors, page.js_errors


def test_play_a_bot_to_the_end_then_replay_from_both_seats(page, live_server, cards):
    alice, deck = make_user("alice")
    match = bot_match(alice, deck, "random", turn_limit=3)
    log_in(page, live_server, "alice", f"/hu/play/{match.pk}/")
    play_first_actions(page)
    # Counted in the database, not by the clicks the page was seen to answer within 8 s
    # (on a loaded CI machine one answer came later and the count read 3)
    # (her decisions: those she clicked and those with one sensible answer, taken for her:
    # issue 34)
    played = ActionRequest.objects.filter(match=match, seat=0, status=ActionRequest.APPLIED)
    assert played.count() > 3
    assert played.filter(origin=ActionRequest.CLIENT).count() >= 2
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    expect(page.locator("#result")).to_be_visible()
    assert page.locator("#log li").count() >= 10
    expect(page.locator("#log")).to_contain_text("kör")  # the log is in Hungarian on /hu/
    # every event of the game is in the log once, in order
    seqs = page.evaluate("[...document.querySelectorAll('#log li')].map(li => +li.dataset.seq)")
    assert seqs == sorted(set(seqs)) and seqs[-1] == match.seq
    with page.expect_navigation():
        page.click("#replay-link")
    for seat in ("0", "1"):
        page.goto(f"{live_server.url}/en/play/{match.pk}/replay/?seat={seat}")
        expect(page.locator("#step-label")).to_contain_text("0 /")
        total = page.evaluate("window.KGKReplay.count()")
        assert total > played.count()
        page.click("#next")
        expect(page.locator("#step-label")).to_have_text(f"1 / {total - 1}")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#step-label")).to_have_text(f"2 / {total - 1}")
        page.click("#last")
        expect(page.locator("#result")).to_be_visible()
        me = page.locator("#side-bottom")
        assert me.get_attribute("data-seat") == seat
    assert not page.js_errors, page.js_errors


def test_a_game_that_ends_between_the_polls_two_reads_still_logs_its_last_events(
    page, live_server, cards
):
    """The poll reads the events, then the state. A move and the game's end committed in
    between give the page a finished state ahead of its log, and a finished game polls no
    more: the page must ask for the lines it missed (a CI run once ended with the log at
    seq 83 and the game at 86)."""
    alice, deck = make_user("alice")
    match = bot_match(alice, deck, "random")
    log_in(page, live_server, "alice", f"/en/play/{match.pk}/")
    expect(page.locator("#actions button.act:not([disabled])").first).to_be_visible()
    client, rng = logged_in(alice), random.Random(7)
    state_url = f"/api/matches/{match.pk}/"
    between = []

    def move_and_concede_before_the_state_read(route):
        if not between:
            state = client.get(state_url).json()
            assert state["legal_actions"], "alice should be deciding (the bot plays eagerly)"
            between.append(post_random_action(client, match.pk, state, rng).status_code)
            between.append(client.post(f"{state_url}concede/").status_code)
        route.continue_()

    page.route(f"**{state_url}", move_and_concede_before_the_state_read)
    seen = version(page)
    # a move the poll sees: it reads the events, then the state (through the route above)
    trigger = post_random_action(client, match.pk, client.get(state_url).json(), rng)
    assert trigger.status_code == 202
    expect(page.locator("#result")).to_be_visible()
    assert between == [202, 200]
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.version > seen
    # at once, not after a wait: a later poll (the socket's retry starts one) would hide it
    seqs = page.evaluate("[...document.querySelectorAll('#log li')].map(li => +li.dataset.seq)")
    assert seqs == list(range(1, match.seq + 1))  # every line once, in order, none missing
    assert not page.js_errors, page.js_errors


def test_two_people_open_challenge_accept_and_see_their_own_centre(new_page, live_server, cards):
    make_user("alice")
    make_user("bob")
    alice = new_page()
    bob = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    log_in(alice, live_server, "alice", "/en/play/")
    with alice.expect_navigation():
        alice.click("#challenge")  # empty user name: an open challenge
    match = Match.objects.get(status=Match.OPEN)
    log_in(bob, live_server, "bob", "/hu/play/")
    expect(bob.locator(f"#open-challenges [data-match='{match.pk}']")).to_be_visible()
    with bob.expect_navigation():
        bob.click(f"#open-challenges [data-match='{match.pk}'] button.accept")
    assert bob.url == f"{live_server.url}/hu/play/{match.pk}/"
    alice.goto(f"{live_server.url}/en/play/{match.pk}/")
    for page, seat in ((alice, 0), (bob, 1)):
        expect(page.locator("#side-bottom")).to_have_attribute("data-seat", str(seat))
        expect(page.locator("#hand .card").first).to_be_visible()
        assert page.locator("#hand .card.back").count() == 0  # my centre: face up to me
    # the opponent's centre is only a count (R 3.13), never cards
    expect(alice.locator("#side-top [data-count=centre]")).to_have_text("5")
    state = alice.evaluate("window.KGKGame.state()")
    assert state["view"]["players"][1]["centre"] is None  # a count, no ids (R 16.2)
    # whoever decides first clicks; the other page follows by polling
    decider = alice if state["pending"]["player"] == 0 else bob
    follower = bob if decider is alice else alice
    before = version(follower)
    assert click_and_wait(decider, decider.locator("#actions button.act:not([disabled])").first)
    follower.wait_for_function("v => window.KGKGame.state().version > v", arg=before)
    assert not alice.js_errors and not bob.js_errors


def test_a_gap_in_seq_makes_the_page_resync_over_http(page, live_server, cards):
    """A message whose first event is not last seq + 1 is not trusted: the page GETs the match
    and the missing events, and shows exactly the server's current state."""
    alice, deck = make_user("alice")
    match = bot_match(alice, deck)
    log_in(page, live_server, "alice", f"/en/play/{match.pk}/")
    page.wait_for_function("window.KGKGame.lastSeq() > 0")
    last = page.evaluate("window.KGKGame.lastSeq()")
    shown = page.evaluate("window.KGKGame.state()")
    bogus = {**shown, "version": shown["version"] + 50, "seq": last + 9}
    with page.expect_request(lambda r: r.url.endswith(f"/api/matches/{match.pk}/")):
        page.evaluate(
            "([m, seq]) => window.KGKGame.receive({type: 'update', version: m.version, seq: seq,"
            " events: [{seq: seq, kind: 'pass', player: 1}], state: m})",
            [bogus, last + 9],
        )
    page.wait_for_timeout(500)
    server = page.evaluate(f"fetch('/api/matches/{match.pk}/').then(r => r.json())")
    assert page.evaluate("window.KGKGame.state().version") == server["version"]
    assert page.evaluate("window.KGKGame.lastSeq()") == server["seq"]  # no event invented
    assert not page.js_errors, page.js_errors


# ----------------------------------------------------- the whole stack, with WebSockets


def _free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args, env, log_path, ready):
    import subprocess
    import time

    proc = subprocess.Popen(args, env=env, stdout=log_path.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while not ready():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"{args[0]} did not start: {log_path.read_text()[-2000:]}")
        time.sleep(0.2)
    return proc


@pytest.fixture
def asgi_stack(transactional_db, tmp_path):
    """daphne (ASGI: HTTP + WebSocket) and a Celery worker as real processes on the test
    PostgreSQL database, with Redis DB 2 (KGK_BROWSER_REDIS_URL) as broker and channel layer.
    Stopped by pid."""
    import os
    import socket
    import sys

    from django.db import connection

    if connection.vendor != "postgresql":
        service_missing("needs PostgreSQL: the ASGI server and the worker share the test database")
    url = redis_db(os.environ.get("KGK_BROWSER_REDIS_URL", "redis://127.0.0.1:6379/2"))
    env = {**os.environ, "DATABASE_URL": database_url(connection), "REDIS_URL": url, "DEBUG": "true",
           "DATABASE_POOL": "1"}  # fmt: skip
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    bin_dir = Path(sys.executable).parent
    port = _free_port()

    def listening():
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    worker_log = tmp_path / "worker.log"
    procs = [
        _start(
            [str(bin_dir / "daphne"), "-b", "127.0.0.1", "-p", str(port), "cardgame.asgi:application"],
            env, tmp_path / "daphne.log", listening,
        ),
        _start(
            [str(bin_dir / "celery"), "-A", "cardgame", "worker", "-c", "1", "--without-mingle",
             "--without-gossip", "-l", "info", "-n", f"browser-{os.getpid()}@%h"],
            env, worker_log, lambda: " ready." in worker_log.read_text(errors="replace"),
        ),
    ]  # fmt: skip
    yield f"http://127.0.0.1:{port}"
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except Exception:  # noqa: BLE001 - a stuck process is killed, never left behind
            proc.kill()


@pytest.mark.postgres
def test_websocket_game_on_daphne_with_a_worker(new_page, asgi_stack):
    """The production shape: daphne, a Celery worker, PostgreSQL, Redis. The page goes live
    over the WebSocket, sends its moves on it (no POST) and the bot's moves arrive as pushed
    messages (no polling), a dropped socket reconnects and resyncs to exactly the server's
    state, and the game can be conceded and replayed."""
    from cards_data.loader import load_cards

    load_cards()
    make_user("alice")
    page = new_page()

    class Server:
        url = asgi_stack

    log_in(page, Server, "alice", "/en/play/")
    with page.expect_navigation():
        page.click("#play-heuristic")
    expect(page.locator("#conn")).to_have_class("conn live", timeout=15_000)
    polls, posts = [], []
    page.on("request", lambda r: polls.append(r.url) if "/events/?after=" in r.url else None)
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    for _ in range(8):
        button = page.locator("#actions button.act:not([disabled])").first
        button.wait_for(timeout=20_000)
        assert click_and_wait(page, button), "the pushed update did not arrive"
    assert page.evaluate("window.KGKGame.live()")
    trail = page.evaluate("window.KGKGame.socketTrail()")
    assert not polls, f"updates came over the socket, not by polling or resyncs: {trail}"
    assert not posts, "the moves went over the socket, not by POST (issue 16)"
    seqs = page.evaluate("[...document.querySelectorAll('#log li')].map(li => +li.dataset.seq)")
    assert seqs == list(range(1, seqs[-1] + 1))  # every event once, none missing
    # a dropped connection: the page reconnects and shows exactly the server's state. Drop it
    # while the human decides, so the bot is not still moving: the server's state then stays
    # put and the comparison below is exact (CI once fetched mid-way through the bot's moves).
    page.locator("#actions button.act:not([disabled])").first.wait_for(timeout=20_000)
    page.evaluate("window.KGKGame.dropSocket()")
    try:
        page.wait_for_function("window.KGKGame.live()", timeout=15_000)
    except PlaywrightTimeout:  # flaky in CI (stop 23's note): say what the page was in
        seen = page.evaluate(
            "({conn: document.getElementById('conn').className,"
            " status: window.KGKGame.state().status, version: window.KGKGame.state().version,"
            " busy: window.KGKGame.busy(), trail: window.KGKGame.socketTrail()})"
        )
        raise AssertionError(f"the page did not go live again after the drop: {seen}") from None
    # The page may still be finishing a move it sent as the socket dropped (its fallback POST,
    # then an automatic pass): compare with the server's state read again until they agree.
    page.wait_for_function(
        """async () => {
            const api = location.pathname.replace(/^\\/\\w\\w\\/play/, '/api/matches');
            const server = await (await fetch(api)).json();
            const game = window.KGKGame;
            return !game.busy() && game.state().version === server.version
                && game.lastSeq() === server.seq;
        }""",
        polling=300,
        timeout=15_000,
    )
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#concede")
    expect(page.locator("#result")).to_contain_text("You lost", timeout=15_000)
    with page.expect_navigation():
        page.click("#replay-link")
    page.click("#last")
    expect(page.locator("#result")).to_be_visible()
    assert not page.js_errors, page.js_errors


# ------------------------------------------------------------------------- the deck lab


def test_deck_lab_progress_bar_follows_the_workers_and_shows_the_chart(
    new_page, live_server, cards
):
    """From the deck page to the lab; a run whose chunks are still pending shows 0 on its
    progress bar, which follows each chunk a worker stores (played here by calling the
    service, as a worker's task does), and ends with the win-rate chart (95 % Wilson)."""
    from decklab import services as lab
    from decklab.chunks import play_chunk
    from decklab.models import LabChunk, LabRun
    from decklab.reference import reference_decks
    from decks import play

    alice, deck = make_user("alice")
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    log_in(page, live_server, "alice", f"/en/decks/{deck.pk}/")
    with page.expect_navigation():
        page.click("#lab-link")
    expect(page.locator(".gauntlet li")).to_have_count(len(reference_decks()))
    no_horizontal_scroll(page)
    # a run queued for the workers (the rows start_run writes, before any task ran)
    run = LabRun.objects.create(
        deck=deck, owner=alice, colony=play.frozen_entries(deck), games=8, ruleset="original"
    )
    for i, (opponent, first, n) in enumerate(lab.split_games(8, ["vanguard", "swarm"], chunk=2)):
        LabChunk.objects.create(run=run, index=i, opponent=opponent, first=first, games=n)
    page.goto(f"{live_server.url}/en/lab/runs/{run.pk}/")
    expect(page.locator("#lab-progress")).to_have_attribute("value", "0")
    expect(page.locator("#lab-waiting")).to_be_visible()
    chunks = list(run.chunks.order_by("index"))
    play_chunk(chunks[0].pk)
    page.wait_for_function("document.getElementById('lab-progress').value === 2")
    expect(page.locator("#lab-status")).to_have_text("Running")
    for chunk in chunks[1:]:
        play_chunk(chunk.pk)
    page.wait_for_function("document.getElementById('lab-progress').value === 8")
    expect(page.locator("#lab-status")).to_have_text("Finished")
    expect(page.locator(".wr-play svg.wr-bar")).to_be_visible()
    expect(page.locator(".wr-overall svg.wr-bar")).to_be_visible()
    no_horizontal_scroll(page)
    page.goto(f"{live_server.url}/hu/lab/runs/{run.pk}/")  # longer words, same width
    expect(page.locator("#lab-status")).to_have_text("Befejezve")
    no_horizontal_scroll(page)
    assert not page.js_errors, page.js_errors


@pytest.mark.postgres
def test_a_push_that_never_arrives_costs_the_page_at_most_two_seconds(new_page, asgi_stack):
    """Issue 16: pushes are at-most-once. Here every push to Alice's socket is dropped on
    purpose between the worker and her socket (her seat's group is emptied in Redis), and
    Bob moves: her quiet socket asks for the newest version (a ping; the pong reads what the
    worker noted at its commit), sees it is behind and resyncs, within 2 s of the commit."""
    import os
    import time

    import redis

    from cards_data.loader import load_cards

    load_cards()
    alice, alice_deck = make_user("alice")
    bob, bob_deck = make_user("bob")
    match = services.create_match(
        players=(alice, bob),
        colonies=(codes(legal_entries()), codes(legal_entries())),
        decks=(alice_deck, bob_deck),
        starting_player=0,
    )

    class Server:
        url = asgi_stack

    pages = {0: new_page(), 1: new_page()}
    for seat, name in ((0, "alice"), (1, "bob")):
        log_in(pages[seat], Server, name, f"/en/play/{match.pk}/")
        expect(pages[seat].locator("#conn")).to_have_class("conn live", timeout=15_000)

    def deciding():
        match.refresh_from_db()
        return match.deciding_seat

    for _ in range(10):  # the opening decisions, until it is Bob's turn to decide
        if deciding() == 1:
            break
        assert click_and_wait(
            pages[0], pages[0].locator("#actions button.act:not([disabled])").first
        )
    assert deciding() == 1
    pages[0].wait_for_function("v => window.KGKGame.state().version === v", arg=match.version)
    before = match.version
    group_key = f"asgi:group:match.{match.pk}.seat0"
    redis_url = os.environ.get("KGK_BROWSER_REDIS_URL", "redis://127.0.0.1:6379/2")
    assert redis.Redis.from_url(redis_url).delete(group_key) == 1  # Alice hears no more pushes
    resyncs = []
    pages[0].on(
        "request",
        lambda r: resyncs.append(r.url) if r.url.endswith(f"/api/matches/{match.pk}/") else None,
    )
    pages[1].locator("#actions button.act:not([disabled])").first.click()
    deadline = time.monotonic() + 20
    while match.version == before and time.monotonic() < deadline:
        time.sleep(0.02)
        match.refresh_from_db()
    assert match.version > before, "Bob's action was not applied"
    committed = time.monotonic()
    pages[0].wait_for_function(
        "v => window.KGKGame.state().version >= v", arg=match.version, timeout=2_000
    )
    assert time.monotonic() - committed <= 2.0
    assert resyncs, "the page caught up by a resync, not by the (dropped) push"
    assert pages[0].evaluate("window.KGKGame.live()")
    assert not pages[0].js_errors, pages[0].js_errors
