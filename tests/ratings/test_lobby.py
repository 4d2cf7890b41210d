"""The "Rated game" choice of the lobby (issue 37): offered to people who opted in, refused
with a sentence when a player has not opted in or a bot would sit at the table."""

import html

import pytest
from django.test import Client

from matches import services
from matches.errors import MatchError
from matches.models import Match
from ratings.models import OptIn
from tests.matches.kit import legal_colony, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(catalogue, django_user_model):
    """ann and ben opted in, cy did not; each with a legal deck and a logged-in client."""
    out = {}
    for seed, name in enumerate(["ann", "ben", "cy"], start=1):
        user = django_user_model.objects.create_user(name, password=f"pw-{name}-123")
        client = Client()
        client.force_login(user)
        out[name] = (user, make_deck(user, seed=seed, name=f"{name} colony"), client)
    OptIn.objects.bulk_create([OptIn(user=out["ann"][0]), OptIn(user=out["ben"][0])])
    return out


def page(response) -> str:
    return html.unescape(response.content.decode())


def test_the_box_is_offered_only_to_people_who_opted_in(three):
    ann_page = page(three["ann"][2].get("/en/play/"))
    cy_page = page(three["cy"][2].get("/en/play/"))
    assert 'id="rated"' in ann_page and "Rated game" in ann_page
    assert 'id="rated"' not in cy_page and 'id="rated-opt-in-link"' in cy_page
    hu = page(three["ann"][2].get("/hu/play/"))
    assert "Értékelt játszma" in hu and "Rated game" not in hu


def test_a_rated_challenge_between_two_people_who_opted_in(three):
    (_, deck, client), (ben, ben_deck, ben_client) = three["ann"], three["ben"]
    data = {"action": "challenge", "opponent": "ben", "deck": deck.pk, "rated": "1"}
    response = client.post("/en/play/", data)
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.rated and match.status == Match.INVITED
    assert "rated" in page(ben_client.get("/en/play/"))  # ben sees what he would accept
    services.accept(match, ben, ben_deck)
    match.refresh_from_db()
    assert match.status == Match.ACTIVE and match.rated


def test_a_rated_challenge_to_a_person_who_has_not_opted_in_is_refused(three):
    ann, deck, client = three["ann"]
    data = {"action": "challenge", "opponent": "cy", "deck": deck.pk, "rated": "1"}
    en = client.post("/en/play/", data)
    hu = client.post("/hu/play/", data)
    assert en.status_code == hu.status_code == 403
    assert "only between players who all take part in ratings" in page(en)
    assert "részt vesznek az értékszámításban" in page(hu)
    assert not Match.objects.exists()


def test_an_open_rated_challenge_is_refused_to_a_person_who_has_not_opted_in(three):
    ann, deck, _ = three["ann"]
    cy, cy_deck, _ = three["cy"]
    match = services.challenge(ann, deck, rated=True)
    with pytest.raises(MatchError) as refused:
        services.accept(match, cy, cy_deck)
    assert refused.value.code == "RATED_NOT_OPTED_IN" and refused.value.status == 403
    assert Match.objects.get().status == Match.OPEN


def test_a_rated_game_never_has_a_bot(three):
    ann, deck, client = three["ann"]
    ben = three["ben"][0]
    with pytest.raises(MatchError) as refused:
        services.challenge(ann, deck, bot="random", rated=True)
    assert refused.value.code == "RATED_WITH_BOT"
    with pytest.raises(MatchError):
        services.create_match(
            players=(ann, None),
            colonies=(legal_colony(1), legal_colony(2)),
            bots=(None, "random"),
            rated=True,
        )
    # the lobby's bot buttons ignore the box: a bot game is simply not rated
    client.post("/en/play/", {"action": "bot-random", "deck": deck.pk, "rated": "1"})
    assert not Match.objects.get().rated
    # quick play's path: people who opted in, rated
    people_game = services.create_match(
        players=(ann, ben), colonies=(legal_colony(1), legal_colony(2)), rated=True
    )
    assert people_game.rated


def test_a_rated_table_waits_for_people_in_every_seat(three):
    (_, deck, client), (ben, ben_deck, _), (cy, cy_deck, _) = (
        three["ann"],
        three["ben"],
        three["cy"],
    )
    response = client.post(
        "/en/play/", {"action": "table", "seats": "3", "deck": deck.pk, "rated": "1"}
    )
    assert response.status_code == 302
    table = Match.objects.get()
    assert table.rated and table.multiplayer
    services.join_table(table, ben, ben_deck)
    with pytest.raises(MatchError) as refused:
        services.join_table(table, cy, cy_deck)
    assert refused.value.code == "RATED_NOT_OPTED_IN"
    start = client.post("/en/play/", {"action": "start", "match": table.pk})
    assert start.status_code == 409
    assert "every seat has a player" in page(start)
    assert Match.objects.get().status == Match.OPEN


def test_a_rated_table_with_an_empty_seat_is_refused_by_its_code_then_starts_when_full(
    three, django_user_model
):
    """RATED_TABLE_NOT_FULL (matches/services/tables.py): the code, its Hungarian sentence,
    and the same table starting, rated, once people fill every seat."""
    (ann, deck, _client), (ben, ben_deck, _) = three["ann"], three["ben"]
    table = services.open_table(ann, deck, seats=3, rated=True)
    services.join_table(table, ben, ben_deck)
    with pytest.raises(MatchError) as refused:
        services.start_table(table, ann)
    assert refused.value.code == "RATED_TABLE_NOT_FULL" and refused.value.status == 409
    hu_client = Client()
    hu_client.force_login(ann)
    hu = page(hu_client.post("/hu/play/", {"action": "start", "match": table.pk}))
    assert "Értékelt asztal csak akkor indul, ha minden helyen játékos ül" in hu
    dee = django_user_model.objects.create_user("dee", password="pw-dee-123")
    OptIn.objects.create(user=dee)
    services.join_table(table, dee, make_deck(dee, seed=4, name="dee colony"))
    started = services.start_table(table, ann)
    assert started.status == Match.ACTIVE and started.rated
