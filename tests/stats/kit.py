"""Helpers of the stats tests: engine "move" events as the matches app stores them, and
finished games made of them."""

import datetime

from django.utils import timezone

from matches.models import Match, MatchEvent, Seat

FINISHED = timezone.make_aware(datetime.datetime(2026, 11, 14, 18, 0))


def move(owner, code, why, origin="colony", to="centre", hidden=True):
    card = {"face_down": True, "owner": owner, "zone": to, "id": 7}
    if not hidden:
        card = {"id": 7, "code": code, "name": code, "owner": owner, "zone": to}
    data = {"card": card, "from": origin, "to": to, "why": why}
    secret = {"id": 7, "code": code, "name": code} if hidden else None
    return {"kind": "move", "data": data, "secret": secret, "to": [owner] if hidden else []}


def game(
    codes, winner, log, status=Match.FINISHED, bots=("", ""), users=(None, None), decks=(None, None)
):
    """Seat 0 plays a1 a1 a2 (zarg), seat 1 plays b1 b1 a1 (xeno by most copies)."""
    match = Match.objects.create(
        seed=1, status=status, winner_seat=winner, finished=FINISHED, casual=True
    )
    colonies = (["a1", "a1", "a2"], ["b1", "b1", "a1"])
    for seat, colony in enumerate(colonies):
        Seat.objects.create(
            match=match,
            seat=seat,
            colony=[codes[c] for c in colony],
            bot=bots[seat],
            user=users[seat],
            deck=decks[seat],
        )
    for seq, (owner, card, why) in enumerate(log, start=1):
        data = move(owner, codes[card], why)
        MatchEvent.objects.create(match=match, seq=seq, version=seq, data=data)
    return match
