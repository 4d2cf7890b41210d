"""Statistics benchmarks (issue 38): the metagame, a card's and a deck's statistics pages
over 100,000 synthetic finished games and 5,000 decklists, and the per-game update.

  (0) the refresh of the archetypes and of the cards played beside each card (after an
      event, daily): its wall time, once
  (1) GET /en/stats/, /en/stats/cards/<code>/, /en/stats/decks/<id>/: p50/p95 through
      Django's test Client in process (routing, middleware, view, queries, templates)
  (2) stats.recording.record_game on a finished game with 45-card colonies and its log of
      card moves: the worker's CPU (process time, this process only: not PostgreSQL's)

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/stats_bench.py

The server of DATABASE_URL is used with its own database `kgk_bench_stats` (--db), dropped
and recreated. The games' figures are written as the recording would leave them (the
synthetic games have no logs to read); (2) records real rows through the real function.
"""

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchdb  # noqa: E402

PLAYERS_PER_EVENT = 50
FAMILIES = 40  # the decks' archetypes (each deck: a family's 12 cards and 3 of its own)


def build(games: int, decklists: int, rng: random.Random) -> dict:
    from django.contrib.auth import get_user_model
    from django.db.models import Count
    from django.utils import timezone

    from cards_data.loader import load_cards
    from cards_data.models import Card
    from decks.models import Deck, DeckCard, DeckVersion
    from matches.models import Match
    from stats.figures import primary_race
    from stats.models import CardTally, DecklistCard, DecklistRace, MatchupTally, SeatResult
    from tournaments.models import Registration, Tournament

    load_cards()
    cards = list(Card.objects.values_list("pk", "code", "race"))
    by_race = defaultdict(list)
    for card in cards:
        by_race[card[2]].append(card)
    races = sorted(r for r in by_race if r)
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"p{i}") for i in range(400)]
    )
    owners = [rng.choice(users) for _ in range(decklists)]
    decks = Deck.objects.bulk_create(
        [
            Deck(owner=o, name=f"deck {i}", is_public=rng.random() < 0.7, card_count=45)
            for i, o in enumerate(owners)
        ]
    )
    lists, primaries, entries = [], [], []
    families = []  # a metagame's archetypes: a race pair and its core of 12 cards
    for _ in range(FAMILIES):
        main, other = rng.sample(races, 2)
        core = rng.sample(by_race[main], 8) + rng.sample(by_race[other], 4)
        families.append((main, other, core))
    for deck in decks:
        main, other, core = rng.choice(families)
        flex = [c for c in by_race[main] + by_race[other] + by_race[""] if c not in core]
        picked = core + rng.sample(flex, 3)  # 12 core cards and 3 of the player's own
        listed = sorted((code, 3) for _pk, code, _race in picked)
        lists.append(listed)
        primaries.append(primary_race(Counter({main: 30, other: 15})))
        entries += [DeckCard(deck=deck, card_id=pk, count=3) for pk, _c, _r in picked]
    DeckCard.objects.bulk_create(entries, batch_size=5000)
    DeckVersion.objects.bulk_create(
        [
            DeckVersion(deck=d, number=1, name=d.name, ruleset="original", cards=c)
            for d, c in zip(decks, lists, strict=True)
        ]
    )
    today = timezone.localdate()
    events = Tournament.objects.bulk_create(
        [
            Tournament(
                name=f"event {i}",
                date=today - datetime.timedelta(days=3 * i),
                status=Tournament.FINISHED,
                organiser=users[0],
            )
            for i in range(decklists // PLAYERS_PER_EVENT)
        ]
    )
    Registration.objects.bulk_create(
        [
            Registration(
                tournament=e,
                player=users[j],
                deck=decks[i * PLAYERS_PER_EVENT + j],
                deck_name="x",
                cards=lists[i * PLAYERS_PER_EVENT + j],
            )
            for i, e in enumerate(events)
            for j in range(PLAYERS_PER_EVENT)
        ],
        batch_size=5000,
    )
    registrations = Registration.objects.order_by("pk").values_list("pk", "tournament", "deck")
    index = {deck.pk: i for i, deck in enumerate(decks)}
    made = DecklistRace.objects.bulk_create(
        [
            DecklistRace(registration_id=pk, tournament_id=t, race=primaries[index[d]])
            for pk, t, d in registrations
        ],
        batch_size=5000,
    )
    DecklistCard.objects.bulk_create(
        [
            DecklistCard(decklist=made[i], code=code, count=count)
            for i, (_pk, _t, d) in enumerate(registrations)
            for code, count in lists[index[d]]
        ],
        batch_size=5000,
    )
    deck_codes = [[code for code, _n in listed] for listed in lists]
    now = timezone.now()
    matchups, card_counts, results = Counter(), defaultdict(lambda: [0] * 6), []
    for start in range(0, games, 5000):
        batch = []
        for _ in range(min(5000, games - start)):
            finished = now - datetime.timedelta(minutes=rng.randrange(360 * 24 * 60))
            batch.append(
                Match(
                    seed=1,
                    status=Match.FINISHED,
                    winner_seat=rng.randrange(2),
                    finished=finished,
                    seat_count=2,
                )
            )
        for match in Match.objects.bulk_create(batch):
            seats = [rng.randrange(len(decks)) for _ in range(2)]
            bots = rng.random() < 0.1
            month = match.finished.date().replace(day=1)
            for seat, d in enumerate(seats):
                won = int(match.winner_seat == seat)
                race, opponent = primaries[d], primaries[seats[1 - seat]]
                results.append(
                    SeatResult(
                        match=match,
                        seat=seat,
                        user=owners[d],
                        deck=decks[d],
                        deck_version=1,
                        race=race,
                        opponent_race=opponent,
                        won=bool(won),
                        bots=bots,
                        source="online",
                        finished=match.finished,
                    )
                )
                matchups[(month, race, opponent, bots, won)] += 1
                for code in deck_codes[d]:
                    drawn, opening = rng.random() < 0.6, rng.random() < 0.3
                    tally = card_counts[(code, bots)]
                    for i, n in enumerate((1, won, drawn, drawn * won, opening, opening * won)):
                        tally[i] += n
        SeatResult.objects.bulk_create(results, batch_size=5000)
        results = []
    games_by = Counter()
    wins_by = Counter()
    for (month, race, opponent, bots, won), n in matchups.items():
        games_by[(month, race, opponent, bots)] += n
        wins_by[(month, race, opponent, bots)] += n * won
    MatchupTally.objects.bulk_create(
        [
            MatchupTally(
                month=k[0], race=k[1], opponent_race=k[2], bots=k[3], games=n, wins=wins_by[k]
            )
            for k, n in games_by.items()
        ]
    )
    CardTally.objects.bulk_create(
        [
            CardTally(code=code, bots=bots, **dict(zip(CardTally.COUNTERS, counts, strict=True)))
            for (code, bots), counts in card_counts.items()
        ]
    )
    busiest_card = max(card_counts, key=lambda key: card_counts[key][0])[0]
    by_deck = SeatResult.objects.values("deck").annotate(n=Count("id")).order_by("-n")
    busiest_deck = by_deck[0]["deck"]
    return {"card": busiest_card, "deck": busiest_deck, "lists": lists, "decks": decks}


def page_times(paths: list[str], requests: int) -> dict[str, tuple[float, float]]:
    from django.test import Client

    client = Client()
    out = {}
    for path in paths:
        for _ in range(5):  # warm: templates, translations, the connection
            assert client.get(path).status_code == 200, path
        samples = []
        for _ in range(requests):
            started = time.perf_counter()
            response = client.get(path)
            samples.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200
        out[path] = (statistics.median(samples), benchdb.percentile(samples, 0.95))
    return out


def update_times(built: dict, games: int, rng: random.Random) -> tuple[float, float, float]:
    """record_game's process time per game (ms): p50, p95, and its wall p50."""
    from django.utils import timezone

    from matches.models import Match, MatchEvent, Seat
    from stats.recording import record_game

    ids = []
    for _ in range(games):
        match = Match.objects.create(
            seed=1, status=Match.FINISHED, winner_seat=0, finished=timezone.now()
        )
        events, seq = [], 0
        for seat in range(2):
            d = rng.randrange(len(built["decks"]))
            colony = [code for code, n in built["lists"][d] for _ in range(n)]
            Seat.objects.create(match=match, seat=seat, colony=colony, deck=built["decks"][d])
            for i, code in enumerate(rng.sample(colony, 25)):
                seq += 1
                card = {"face_down": True, "owner": seat, "zone": "centre", "id": seq}
                data = {
                    "card": card,
                    "from": "colony",
                    "to": "centre",
                    "why": "opening hand" if i < 5 else "draw",
                }
                secret = {"id": seq, "code": code, "name": code}
                events.append(
                    MatchEvent(
                        match=match,
                        seq=seq,
                        version=seq,
                        data={"kind": "move", "data": data, "secret": secret, "to": [seat]},
                    )
                )
        for _ in range(300):  # the rest of a game's log: credits, combat, phases
            seq += 1
            events.append(
                MatchEvent(
                    match=match,
                    seq=seq,
                    version=seq,
                    data={
                        "kind": "credits",
                        "data": {"player": 0, "change": 1},
                        "secret": None,
                        "to": [],
                    },
                )
            )  # noqa: E501
        MatchEvent.objects.bulk_create(events)
        ids.append(match.pk)
    benchdb.vacuum_analyze()
    cpu, wall = [], []
    for pk in ids:
        started, started_wall = time.process_time(), time.perf_counter()
        assert record_game(pk)
        cpu.append((time.process_time() - started) * 1000)
        wall.append((time.perf_counter() - started_wall) * 1000)
    return statistics.median(cpu), benchdb.percentile(cpu, 0.95), statistics.median(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="kgk_bench_stats")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--decklists", type=int, default=5_000)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--updates", type=int, default=200)
    args = parser.parse_args()
    url = benchdb.bench_url(os.environ.get("DATABASE_URL", ""), args.db)
    benchdb.recreate_database(url)
    benchdb.setup_django(url)
    rng = random.Random(38)
    started = time.perf_counter()
    built = build(args.games, args.decklists, rng)
    print(
        f"built {args.games} games, {args.decklists} decklists in "
        f"{time.perf_counter() - started:.0f} s"
    )
    from stats.archetypes import refresh
    from stats.beside import refresh_beside

    started = time.perf_counter()
    found = refresh()
    print(f"refresh_archetypes: {found} archetypes in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    refresh_beside()
    print(f"refresh_beside: {time.perf_counter() - started:.1f} s")
    benchdb.vacuum_analyze()
    paths = ["/en/stats/", f"/en/stats/cards/{built['card']}/", f"/en/stats/decks/{built['deck']}/"]
    for path, (p50, p95) in page_times(paths, args.requests).items():
        print(f"{path:32} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms")
    p50, p95, wall = update_times(built, args.updates, rng)
    print(f"record_game CPU p50 {p50:.2f} ms  p95 {p95:.2f} ms  (wall p50 {wall:.2f} ms)")


if __name__ == "__main__":
    main()
