"""Helpers of the matches tests: legal colonies from the real catalogue, decks, bot play."""

from django.test import Client

from tournaments.simulation import legal_colony_names


def legal_colony(seed=0, ships=6, others=9) -> list[str]:
    """45 codes: 15 names x 3 copies from four compatible races (R 9.1-9.3)."""
    names = legal_colony_names(f"matches-colony-{seed}", ships)
    return [code for code in names for _ in range(3)]


def make_deck(owner, seed=0, name="Test colony", codes=None):
    from decks.services import save_deck

    codes = codes or legal_colony(seed)
    counts = {}
    for code in codes:
        counts[code] = counts.get(code, 0) + 1
    return save_deck(owner, name=name, cards=sorted(counts.items()))


def read_match(match_id):
    """The test's own read of a match; None when the in-memory test database's shared cache
    has the table locked by the embedded clock's sweeping thread (a file database waits
    instead)."""
    from django.db import OperationalError

    from matches.models import Match

    try:
        return Match.objects.get(pk=match_id)
    except OperationalError:
        return None


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post_random_action(client, match_id, state, rng):
    """POST one of `state`'s legal actions, chosen by `rng` (a `random.Random`), with the
    state's version as its id; returns the response."""
    action = rng.choice(state["legal_actions"])["id"]
    body = {"client_action_id": f"h{state['version']}",
            "expected_version": state["version"], "action": action}  # fmt: skip
    return client.post(f"/api/matches/{match_id}/actions/", body, "application/json")


def post(client, url, data=None, capture=None):
    """POST JSON; with `capture` (django_capture_on_commit_callbacks) the on-commit work
    (drain, bot moves, pushes) runs as it would after a real commit."""
    if capture is None:
        return client.post(url, data or {}, content_type="application/json")
    with capture(execute=True):
        return client.post(url, data or {}, content_type="application/json")


def awaited(clients, match_id) -> dict:
    """The state read by whichever of `clients` has the awaited decision."""
    return _awaited(clients, match_id)[1]


def decide(clients, match_id, rng, capture=None) -> dict:
    """The awaited person's decision, over HTTP, chosen at random (never a concession), stored
    (applied too with `capture`, else by the worker); returns the state they read before it."""
    client, state = _awaited(clients, match_id)
    ids = [a["id"] for a in state["legal_actions"] if a["id"] != "concede"]
    body = {"client_action_id": f"d{state['version']}",
            "expected_version": state["version"], "action": rng.choice(ids)}  # fmt: skip
    answer = post(client, f"/api/matches/{match_id}/actions/", body, capture)
    assert answer.status_code == 202, answer.json()
    return state


def _awaited(clients, match_id):
    for client in clients:
        state = client.get(f"/api/matches/{match_id}/").json()
        if state["legal_actions"]:
            return client, state
    raise AssertionError("nobody has a decision")


def turns_started(match_id) -> list[tuple[int, int]]:
    """(turn, seat) of every turn started so far (the engine's `turn` events)."""
    from matches.models import MatchEvent

    rows = MatchEvent.objects.filter(match_id=match_id).order_by("seq")
    return [(r.data["data"]["turn"], r.data["data"]["player"]) for r in rows
            if r.data["kind"] == "turn"]  # fmt: skip


def play_until_over(client, match_id, rng, capture=None, max_steps=3000):
    """Play the logged-in user's seat with random legal actions through the HTTP API."""
    steps = 0
    while steps < max_steps:
        state = client.get(f"/api/matches/{match_id}/").json()
        if state["status"] != "active":
            return state, steps
        if not state["legal_actions"]:
            raise AssertionError(f"nothing to do for {state['you']} at version {state['version']}")
        action = state["legal_actions"][rng.randrange(len(state["legal_actions"]))]["id"]
        body = {
            "client_action_id": f"c{state['version']}",
            "expected_version": state["version"],
            "action": action,
        }
        response = post(client, f"/api/matches/{match_id}/actions/", body, capture)
        assert response.status_code == 202, response.json()
        steps += 1
    raise AssertionError("the game did not end")


def plan_actions(state, count, seed=0):
    """`count` (seat, action id) steps of a random game from `state` (which it advances),
    and the state_hash after them: what a drain must reproduce."""
    import random

    from engine.game import apply, legal_actions, pending
    from engine.serialize import state_hash

    rng = random.Random(seed)
    plan = []
    for _ in range(count):
        waiting = pending(state)
        actions = legal_actions(state)
        action = actions[rng.randrange(len(actions))].id
        apply(state, action)
        plan.append((waiting.player, action))
    return plan, state_hash(state)


def assert_consistent(match):
    """Nothing lost, nothing twice: versions 1..N once each, events 1..seq, and the stored
    state is exactly the replay of the applied actions. Reads the database `match` came
    from (a fault test's private server is a database alias of its own)."""
    from engine.serialize import load, replay, state_hash
    from matches import services
    from matches.models import ActionRequest, MatchEvent

    db = match._state.db
    match.refresh_from_db()
    applied = list(
        ActionRequest.objects.using(db)
        .filter(match=match, status="applied")
        .order_by("applied_version")
    )
    assert [r.applied_version for r in applied] == list(range(1, match.version + 1))
    seqs = list(MatchEvent.objects.using(db).filter(match=match).values_list("seq", flat=True))
    assert seqs == list(range(1, match.seq + 1))
    final = load(match.state)
    seats = list(match.seats.order_by("seat"))
    rebuilt = replay(
        [[final.defs[c] for c in s.colony] for s in seats],
        match.seed,
        [r.action for r in applied],
        services.engine_ruleset(match.ruleset, match.engine_options),
        names=tuple(s.display_name for s in seats),
        starting_player=match.starting_player,
    )
    assert state_hash(rebuilt) == state_hash(final)


def put_position(match, state):
    """Make the engine `state` (e.g. a position from engine.notation, with the site's card
    definitions) the match's current game, one version on (a position held in memory for
    the version before is never used): its snapshot, decider, legal ids and clock."""
    from django.db import transaction
    from django.utils import timezone

    from engine.game import legal_actions, pending
    from engine.serialize import dump
    from matches import clocks
    from matches.models import Match

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        seats = list(match.seats.order_by("seat"))
        match.version += 1
        match.snapshot, match.snapshot_version = dump(state), match.version
        waiting = pending(state)
        match.deciding_seat, match.decision = waiting.player, waiting.decision
        match.legal_ids = [a.id for a in legal_actions(state)]
        clocks.arm(match, seats, timezone.now())
        match.save()
    return match
