"""The stored archetypes (stats/archetypes.py) on hand-built decks and lists whose
clusters are obvious: the typical lists, the shares, a deck's archetype, the matchups
between archetypes, the event report kept as the event ends, the rebuild, and privacy (a
private deck's list shapes nothing and is never shown: it only counts)."""

import datetime

import pytest
from django.core.management import call_command

from decks.services import save_deck
from matches.models import Match, Seat
from stats import selectors
from stats.archetypes import refresh
from stats.models import Archetype, DeckArchetype, DecklistRace, EventReport
from stats.recording import record_game
from tournaments.models import Registration, Tournament

from .kit import FINISHED

PERIOD = "?from=2026-11&to=2026-11"


@pytest.fixture
def cards(catalogue):
    zarg = list(catalogue.filter(race="zarg").order_by("code").values_list("code", flat=True))
    xeno = list(catalogue.filter(race="xeno").order_by("code").values_list("code", flat=True))
    return {"z": zarg[:9], "x": xeno[:4]}


def aggro(cards, extra=()):
    """Zarg-Xeno aggro: four Zarg cards and two Xeno (zarg 12, xeno 6 copies)."""
    return [*[(c, 3) for c in cards["z"][:4]], *[(c, 3) for c in cards["x"][:2]], *extra]


def control(cards):
    """Zarg-Xeno control: four other Zarg cards and two other Xeno: nothing in common."""
    return [*[(c, 3) for c in cards["z"][4:8]], *[(c, 3) for c in cards["x"][2:4]]]


@pytest.fixture
def decks(cards, django_user_model):
    """Three public aggro decks, three public control decks, and a private aggro deck
    with a card of its own (cards["z"][8]) that no public deck plays."""
    owner = django_user_model.objects.create_user("brewer")
    made = {"aggro": [], "control": []}
    for i in range(3):
        made["aggro"].append(
            save_deck(owner, name=f"Aggro {i}", cards=aggro(cards), is_public=True)
        )
        made["control"].append(
            save_deck(owner, name=f"Control {i}", cards=control(cards), is_public=True)
        )
    secret = aggro(cards, extra=[(cards["z"][8], 3)])
    made["private"] = save_deck(owner, name="Secret aggro", cards=secret)
    return made


def test_the_archetypes_of_obvious_decks_with_their_typical_lists(cards, decks):
    assert refresh() == 2
    rows = selectors.archetypes()
    names = [row.name for row in rows]
    assert all(name.startswith("Zarg–Xeno: ") for name in names), names
    first, second = rows
    # aggro: three public decks and the private one placed by its nearest archetype: 4 of 7
    assert (first.lists, round(first.share, 3)) == (4, round(4 / 7, 3))
    assert (second.lists, round(second.share, 3)) == (3, round(3 / 7, 3))
    assert {(code, copies) for code, copies, _n, _s in first.typical} == set(aggro(cards))
    assert {(code, copies) for code, copies, _n, _s in second.typical} == set(control(cards))
    assert first.races == second.races == ("zarg", "xeno")  # most copies first
    assert DeckArchetype.objects.get(deck=decks["private"]).archetype_id == first.id


def test_a_private_deck_s_list_never_shapes_an_archetype(cards, decks, client):
    """Privacy: the private deck's own card is in no typical list and on no page; its
    deck still counts (4 aggro lists)."""
    refresh()
    lone = cards["z"][8]
    for archetype in Archetype.objects.all():
        assert lone not in {row[0] for row in archetype.typical}
        assert lone not in archetype.signature
    assert all(lone not in {c for c, *_rest in row.typical} for row in selectors.archetypes())


def event(organiser, name, lists, day=7):
    t = Tournament.objects.create(
        name=name, organiser=organiser, date=datetime.date(2026, 11, day), status=Tournament.RUNNING
    )
    for i, (deck, listed) in enumerate(lists):
        player = type(organiser).objects.create_user(f"{name}-{i}")
        Registration.objects.create(
            tournament=t, player=player, deck=deck, deck_name=deck.name if deck else "typed",
            cards=sorted([code, n] for code, n in listed),
        )  # fmt: skip
    return t


def finish(t, django_capture_on_commit_callbacks):
    """The event ends as tournaments/playoff.py ends it: the status saved, then the commit."""
    with django_capture_on_commit_callbacks(execute=True):
        t.status = Tournament.FINISHED
        t.save(update_fields=["status"])


@pytest.fixture
def cup(cards, decks, django_capture_on_commit_callbacks, monkeypatch):
    """A finished 4-player event: the private aggro deck won, two control lists 2nd and
    3rd, a typed aggro list (no saved deck) 4th... and an 8-player one: 2 aggro, 6 control."""
    owner = decks["private"].owner
    cup = event(
        owner,
        "cup",
        [
            (decks["private"], aggro(cards, extra=[(cards["z"][8], 3)])),
            (decks["control"][0], control(cards)),
            (decks["control"][1], control(cards)),
            (None, aggro(cards)),
        ],
    )
    ids = list(cup.registrations.order_by("pk").values_list("pk", flat=True))
    monkeypatch.setattr(
        "stats.reports.final_places",
        lambda t: dict(zip(ids, [1, 2, 3, 4], strict=True)) if t.pk == cup.pk else {},
    )
    big = event(
        owner,
        "open",
        [(decks["aggro"][0], aggro(cards))] * 2 + [(decks["control"][2], control(cards))] * 6,
        day=8,
    )
    finish(cup, django_capture_on_commit_callbacks)
    finish(big, django_capture_on_commit_callbacks)
    return cup


def test_the_event_report_is_stored_as_the_event_ends(cards, cup):
    data = EventReport.objects.get(tournament=cup).data
    assert data["lists"] == 4
    aggro_codes = {code for code, _n in aggro(cards)}
    rows = {(row["archetype"]["signature"][0] in aggro_codes): row for row in data["archetypes"]}
    # aggro: the private winner and the typed list, both in the top four: 2 of 2
    assert (rows[True]["lists"], rows[True]["top"]) == (2, 2)
    assert (rows[False]["lists"], rows[False]["top"]) == (2, 2)
    winner = data["winner"]
    assert winner["public"] is False and winner["cards"] == [] and winner["deck_name"] == ""


def test_the_event_report_page_hides_a_private_winner_s_list(cards, cup, client):
    page = client.get(f"/en/stats/events/{cup.pk}/").content.decode()
    assert "The winner&#x27;s deck is private" in page or "The winner's deck is private" in page
    assert cards["z"][8] not in page and "Secret aggro" not in page
    assert '<meta property="og:title" content="cup: event report">' in page
    assert f'<meta property="og:url" content="http://testserver/en/stats/events/{cup.pk}/">' in page
    # 4 lists, aggro 2 (50%) both in the top four: 100%
    section = page.split('id="event-archetypes"')[1].split("</section>")[0]
    assert "<td>2</td><td>2</td><td>100%</td>" in section
    assert "@media print" in open("static/css/stats.css").read()


def test_the_metagame_s_archetype_shares_are_weighted_by_event_size(cards, cup, client):
    """cup (4 players): aggro 2, control 2; open (8 players): aggro 2, control 6. Weighted:
    aggro (4 * 2/4 + 8 * 2/8) / 12 = 4/12 = 33%, control (4 * 2/4 + 8 * 6/8) / 12 = 67%."""
    page = client.get(f"/en/stats/{PERIOD}").content.decode()
    section = page.split('id="archetypes"')[1].split("</section>")[0]
    assert '<span class="archetype-share">67%</span>' in section
    assert '<span class="archetype-share">33%</span>' in section
    assert cards["z"][8] not in section  # the private deck's own card: never listed


def play(decks, winners):
    """Games between aggro (seat 0) and control (seat 1), both from saved decks."""
    for winner in winners:
        match = Match.objects.create(
            seed=1, status=Match.FINISHED, winner_seat=winner, finished=FINISHED, casual=True
        )
        for seat, deck in enumerate((decks["aggro"][0], decks["control"][0])):
            colony = [code for code, n in deck.versions.get().cards for _ in range(n)]
            Seat.objects.create(match=match, seat=seat, colony=colony, deck=deck)
        record_game(match.pk)


def test_the_archetype_matchups_by_hand(cards, decks, client):
    play(decks, [0, 0, 1])
    refresh()
    columns, matrix = selectors.archetype_matrix(
        selectors.period_from({"from": "2026-11", "to": "2026-11"}, FINISHED.date())
    )
    by_name = {row.name: cells for row, cells in matrix}
    aggro_row = next(cells for row, cells in matrix if row.lists == 4)
    control_row = next(cells for row, cells in matrix if row.lists == 3)
    assert len(by_name) == 2
    # aggro won 2 of 3 against control
    assert [(c.rate.wins, c.rate.games) for c in aggro_row if c.race != c.opponent] == [(2, 3)]
    assert [(c.rate.wins, c.rate.games) for c in control_row if c.race != c.opponent] == [(1, 3)]
    page = client.get(f"/en/stats/{PERIOD}").content.decode()
    section = page.split('id="archetype-matchups"')[1].split("</section>")[0]
    assert '<span class="rate thin" title="95% interval: 21%–94%">67%</span>' in section


def test_the_deck_page_names_the_deck_s_archetype(cards, decks, client):
    refresh()
    page = client.get(f"/en/stats/decks/{decks['aggro'][1].pk}/").content.decode()
    name = selectors.archetypes()[0].name
    assert f">{name}</a>" in page.split('id="deck-archetype"')[1]
    hu = client.get(f"/hu/stats/decks/{decks['aggro'][1].pk}/").content.decode()
    assert "Archetípus:" in hu


def archetype_figures():
    return sorted(
        Archetype.objects.values_list("races", "rank", "other", "signature", "typical", "lists")
    )


def report_figures():
    return sorted((r.tournament_id, repr(r.data)) for r in EventReport.objects.all())


def test_the_rebuild_gives_the_same_archetypes_and_reports(cards, cup):
    incremental = (archetype_figures(), report_figures())
    assert incremental[0] and incremental[1]
    call_command("rebuild_stats", stdout=open("/dev/null", "w"))
    assert (archetype_figures(), report_figures()) == incremental
    assert DecklistRace.objects.filter(archetype__isnull=False).count() == 12


def test_the_metagame_s_archetypes_change_with_each_refresh(
    cards, decks, client, django_capture_on_commit_callbacks
):
    """The page keeps what depends only on the archetypes under the refresh that found
    them: an event ending (and its refresh) shows at once."""
    late = event(decks["aggro"][0].owner, "late", [(decks["aggro"][0], aggro(cards))] * 3)
    before = client.get(f"/en/stats/{PERIOD}").content.decode()
    assert (
        "No archetype in this period&#x27;s events yet." in before
        or "No archetype in this period's events yet." in before
    )
    finish(late, django_capture_on_commit_callbacks)
    after = client.get(f"/en/stats/{PERIOD}").content.decode()
    section = after.split('id="archetypes"')[1].split("</section>")[0]
    assert '<span class="archetype-share">100%</span>' in section


def test_a_running_event_s_lists_never_shape_an_archetype(cards, decks):
    """Privacy: an event's decklists are published when it finishes (tournaments'
    decklist_visible). Before that, even a typed list with no saved deck only counts: its
    own card is in no typical list, however many of them there are."""
    lone = cards["z"][8]
    running = event(decks["private"].owner, "league", [(None, aggro(cards, [(lone, 3)]))] * 4)
    refresh()
    assert running.status == Tournament.RUNNING
    for archetype in Archetype.objects.all():
        assert lone not in {row[0] for row in archetype.typical}
        assert lone not in archetype.signature
