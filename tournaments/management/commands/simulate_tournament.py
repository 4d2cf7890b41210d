"""`manage.py simulate_tournament --players 64`: a whole online event played by bots.

Bot entrants register with legal decks; every Swiss round and the top-four playoff is
played game by game through the matches app (Celery workers when REDIS_URL is set, the
embedded in-process loop otherwise); a progress bar goes to stderr and the final
standings and placings to stdout.
"""

import time

from django.core.management.base import BaseCommand, CommandError

from engine.bots import BOTS
from tournaments import selectors, services, simulation

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Simulate a whole online tournament played by bots (Swiss rounds and playoff)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=64)
        parser.add_argument("--rounds", type=int, default=None, help="default ceil(log2 N)")
        parser.add_argument("--bot", choices=sorted(BOTS), default="heuristic")
        parser.add_argument("--format", choices=["bo1", "bo3"], default="bo1", dest="fmt")
        parser.add_argument(
            "--turn-limit",
            type=int,
            # Two heuristic bots can loop without end (wasteland draws, no attack); turn 100
            # is far past a normal game and stands in for R 18.4's hour, which a simulation
            # cannot wait for: the judge decides such a game, as a timed-out one.
            default=100,
            help="stop each game after this turn; a judge then decides it "
            "(default 100, standing in for the hour of R 18.4; 0: play to the end)",
        )
        parser.add_argument("--seed", default="0", help="seed of the judge's decisions")
        parser.add_argument(
            "--stall", type=float, default=300.0, help="give up after this many idle seconds"
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args, **options):
        players = options["players"]
        if not 4 <= players <= 1024:
            raise CommandError("--players must be between 4 and 1024 (the playoff needs four).")
        if options["rounds"] is not None and not 1 <= options["rounds"] <= 20:
            raise CommandError("--rounds must be between 1 and 20.")
        started = time.monotonic()
        bar = None if options["quiet"] else ProgressBar(self.stderr)
        try:
            t = simulation.run(
                players,
                report=bar.show if bar else (lambda progress: None),
                stall=options["stall"],
                seed=options["seed"],
                bot=options["bot"],
                rounds=options["rounds"],
                match_format=options["fmt"],
                turn_limit=options["turn_limit"],
            )
        except simulation.Stalled as exc:
            raise CommandError(str(exc)) from exc
        if bar:
            bar.close()
        self._print_results(t, time.monotonic() - started)

    def _print_results(self, t, seconds):
        out = self.stdout
        out.write(f"{t.name}: {t.planned_rounds()} Swiss rounds, playoff, in {seconds:.1f} s")
        out.write(
            f"{'#':>3} {'player':<16} {'pts':>3} {'W-L':>6} {'OMW%':>7} {'GW%':>7} {'OGW%':>7}"
        )
        for row in selectors.standings_rows(t):
            record = f"{row['wins']}-{row['losses']}"
            out.write(
                f"{row['rank']:>3} {row['player']:<16} {row['points']:>3} {record:>6} "
                f"{row['omw']:>7} {row['gwp']:>7} {row['ogw']:>7}"
            )
        prizes = {p.place: p.card.code for p in t.prizes.select_related("card")}
        for place, reg in enumerate(services.placings(t), 1):
            out.write(f"place {place}: {reg.name} (prize {prizes.get(place, '-')})")


class ProgressBar:
    """One line on the command's stderr, redrawn: [#####.....] 12/16 matches · round 2/4."""

    def __init__(self, stream):
        self.stream = stream  # a management command's OutputWrapper

    def show(self, progress):
        filled = BAR_WIDTH * progress.done // max(progress.total, 1)
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        line = f"\r[{bar}] {progress.done}/{progress.total} matches · {progress.stage}   "
        end = "\n" if progress.done >= progress.total else ""
        self.stream.write(line, ending=end)
        self.stream.flush()

    def close(self):
        self.stream.flush()
