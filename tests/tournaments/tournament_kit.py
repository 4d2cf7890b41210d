"""Helpers shared by the tournaments tests: legal colonies from the real catalogue, users,
registered and checked-in entrants."""

from cards_data.models import Card
from decks.services import save_deck
from tournaments import services

LACI = ["xeno", "insectoid", "zarg", "space_shark"]  # R 20 EX-1: a legal colony


def colony(races=LACI, total=45, copies=3):
    """`total` cards of the races in turn, in code order, `copies` of each (R 9)."""
    pools = {race: list(Card.objects.filter(race=race).order_by("code")) for race in races}
    entries, turn = [], 0
    while sum(n for _, n in entries) < total:
        card = pools[races[turn % len(races)]].pop(0)
        entries.append((card.code, min(copies, total - sum(n for _, n in entries))))
        turn += 1
    return entries


def create_users(user_model, names):
    """{name: user}, each with the password pw-<name>-12345."""
    return {n: user_model.objects.create_user(n, password=f"pw-{n}-12345") for n in names}


def enter(event, users, names):
    """Register each named user with a fresh legal colony and check them in: {name: reg}."""
    regs = {}
    for name in names:
        reg = services.register(
            event, users[name], save_deck(users[name], name="c", cards=colony())
        )
        services.check_in(reg, users[name])
        regs[name] = reg
    return regs
