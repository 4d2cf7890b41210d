"""Issue 37: a blocked pair never meets in a game. Blocking (either way) stops a challenge
to the other, accepting the other's open or sent challenge, and taking a seat at a table
the other sits at, each with the refusal sentence of matches/messages.py (BLOCKED)."""

import pytest
from django.test import Client

from decks.services import save_deck
from matches import services
from matches.errors import Forbidden
from matches.models import Match
from social import services as social
from tournaments.simulation import legal_colony_names

pytestmark = pytest.mark.django_db


def deck_of(user, seed):
    """A legal deck (R 9) of the user's own."""
    names = legal_colony_names(f"social-colony-{seed}", 6)
    return save_deck(user, name=f"{user.username} colony", cards=[(n, 3) for n in names])


@pytest.fixture
def trio(catalogue, django_user_model):
    users = [django_user_model.objects.create_user(n, password=f"pw-{n}-1") for n in "abc"]
    return [(u, deck_of(u, i)) for i, u in enumerate(users)]


@pytest.mark.parametrize("blocker", [0, 1])
def test_a_blocked_pair_cannot_challenge_each_other(trio, blocker):
    (a, deck_a), (b, _), _c = trio
    social.block(*((a, b) if blocker == 0 else (b, a)))
    with pytest.raises(Forbidden) as refused:
        services.challenge(a, deck_a, opponent=b)
    assert refused.value.code == "BLOCKED" and refused.value.status == 403
    assert not Match.objects.exists()


@pytest.mark.parametrize("blocker", [0, 1])
def test_a_blocked_pair_cannot_accept_each_others_challenges(trio, blocker):
    (a, deck_a), (b, deck_b), (c, deck_c) = trio
    sent = services.challenge(a, deck_a, opponent=b)  # sent before the block
    open_one = services.challenge(a, deck_a)
    social.block(*((a, b) if blocker == 0 else (b, a)))
    for match in (sent, open_one):
        with pytest.raises(Forbidden) as refused:
            services.accept(match, b, deck_b)
        assert refused.value.code == "BLOCKED"
    assert set(Match.objects.values_list("status", flat=True)) == {Match.INVITED, Match.OPEN}
    assert services.accept(open_one, c, deck_c).status == Match.ACTIVE  # anyone else may


def test_a_blocked_player_cannot_join_a_table_the_other_sits_at(trio):
    (a, deck_a), (b, deck_b), (c, deck_c) = trio
    table = services.open_table(a, deck_a, seats=4)
    services.join_table(table, c, deck_c)
    social.block(c, b)  # b is blocked by a guest, not by the host
    with pytest.raises(Forbidden) as refused:
        services.join_table(table, b, deck_b)
    assert refused.value.code == "BLOCKED"
    assert table.seats.filter(user=b).count() == 0


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "one of you has blocked the other"), ("hu", "letiltotta")]
)
def test_the_lobby_says_why_in_the_readers_language(trio, lang, words):
    (a, deck_a), (b, _), _c = trio
    social.block(b, a)
    client = Client()
    client.force_login(a)
    data = {"action": "challenge", "opponent": b.username, "deck": deck_a.pk}
    response = client.post(f"/{lang}/play/", data)
    assert response.status_code == 403
    assert words in response.content.decode()


def test_the_lobby_hides_open_games_of_a_blocked_player(trio):
    (a, deck_a), (b, _), (c, _) = trio
    blocked_one = services.challenge(a, deck_a)
    social.block(b, a)
    client = Client()
    client.force_login(b)
    page = client.get("/en/play/").content.decode()
    assert f'data-match="{blocked_one.pk}"' not in page
    client.force_login(c)
    assert f'data-match="{blocked_one.pk}"' in client.get("/en/play/").content.decode()


@pytest.mark.parametrize(("lang", "join"), [("en", "Accept on the Play page"), ("hu", "Elfogadás")])
def test_the_friends_page_offers_a_friends_open_game_and_their_game_to_watch(trio, lang, join):
    (a, deck_a), (b, deck_b), (c, deck_c) = trio
    social.follow(c, a)
    open_one = services.challenge(a, deck_a)
    playing = services.challenge(a, deck_a)
    services.accept(playing, b, deck_b)
    client = Client()
    client.force_login(c)
    page = client.get(f"/{lang}/friends/").content.decode()
    friend = page[page.index('data-user="a"') : page.index('id="followers"')]
    assert f'data-match="{open_one.pk}"' in friend and join in friend
    assert f'href="/{lang}/play/{playing.pk}/"' in friend  # watch the game being played
    social.block(c, b)  # the game being played has b in it: not offered to c any more
    social.follow(c, a)
    page = client.get(f"/{lang}/friends/").content.decode()
    assert f'data-match="{playing.pk}"' not in page and f'data-match="{open_one.pk}"' in page
