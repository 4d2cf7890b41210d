"""What a finished game's log says about each player's cards (stats/gamelog.py)."""

from stats.gamelog import seen_cards

from .kit import move


def test_drawn_and_opening_cards_of_each_seat():
    log = [
        move(0, "a1", "opening hand"),
        move(1, "b1", "opening hand"),
        {"kind": "credits", "data": {"player": 0, "change": -1}, "secret": None, "to": []},
        move(0, "a2", "draw"),
        move(1, "b2", "search", hidden=False),
        move(1, "b3", "destroyed", origin="surface", to="wasteland", hidden=False),
        move(1, "b4", "returned", origin="wasteland"),  # to the centre, but never drawn
    ]
    seen = seen_cards(log)
    assert seen[0].drawn == {"a1", "a2"} and seen[0].opening == {"a1"}
    assert seen[1].drawn == {"b1", "b2"} and seen[1].opening == {"b1"}


def test_a_mulligan_s_new_hand_is_the_opening_centre_R_10_5():
    log = [
        move(0, "a1", "opening hand"),
        move(0, "a2", "opening hand"),
        move(0, "a1", "mulligan back", origin="centre", to="colony"),
        move(0, "a3", "mulligan"),
        move(0, "a4", "mulligan"),
    ]
    seen = seen_cards(log)[0]
    assert seen.opening == {"a3", "a4"}
    assert seen.drawn == {"a1", "a2", "a3", "a4"}
