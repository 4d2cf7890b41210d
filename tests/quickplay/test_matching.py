"""The matching rule alone (quickplay/matching.py): pure, no database."""

from quickplay.matching import BOT_FOR_LEVEL, Waiting, choose_partner, window

RULE = {"pool": 4, "base": 100.0, "growth": 10.0}


def w(entry_id, user_id, skill=1100.0, waited=0.0):
    return Waiting(entry_id, user_id, skill, waited)


def test_never_with_themselves_nor_with_someone_blocked():
    me = w(1, user_id=10)
    assert choose_partner(me, [w(2, user_id=10)], set(), **RULE) is None
    assert choose_partner(me, [w(3, user_id=11)], {11}, **RULE) is None
    found = choose_partner(me, [w(2, 10), w(3, 11), w(4, 12)], {11}, **RULE)
    assert found.user_id == 12


def test_a_thin_queue_matches_at_once_however_far_the_skills():
    """Fewer than `pool` others waiting: the closest of them, even 800 points away."""
    me = w(1, 10, skill=1100)
    far = [w(2, 11, skill=1900), w(3, 12, skill=1700)]
    assert choose_partner(me, far, set(), **RULE).entry_id == 3


def test_with_enough_people_only_the_window_counts_and_it_widens_with_waiting():
    me = w(1, 10, skill=1100)
    crowd = [w(i, 10 + i, skill=1500 + i) for i in range(2, 6)]  # 4 others, 402-405 away
    assert choose_partner(me, crowd, set(), **RULE) is None  # window 100
    assert window(w(1, 10, waited=30.0), crowd[0], base=100, growth=10) == 400
    assert choose_partner(w(1, 10, 1100, waited=30.0), crowd, set(), **RULE) is None
    assert choose_partner(w(1, 10, 1100, waited=31.0), crowd, set(), **RULE).entry_id == 2
    # the partner's own wait widens the window as much as the joiner's
    crowd[3] = w(5, 15, skill=1505, waited=41.0)  # window 510
    assert choose_partner(me, crowd, set(), **RULE).entry_id == 5


def test_the_closest_skill_wins_and_a_tie_goes_to_the_longer_wait():
    me = w(1, 10, skill=1400)
    others = [w(2, 11, 1450), w(3, 12, 1350, waited=5.0), w(4, 13, 1390), w(5, 14, 1410, 9.0)]
    assert choose_partner(me, others, set(), **RULE).entry_id == 5  # 10 away, waited longer
    others[3] = w(5, 14, 1410, waited=0.0)
    assert choose_partner(me, others, set(), **RULE).entry_id == 4  # same gap, lower id


def test_the_bot_after_the_wait_follows_the_rating_levels():
    """Every level of ratings/skill.py has a bot, stronger or equal as the level rises."""
    from ratings.skill import LEVELS

    order = ["heuristic", "search-easy", "search-normal", "search-hard"]
    bots = [BOT_FOR_LEVEL[level.key] for level in LEVELS]
    assert [order.index(b) for b in bots] == sorted(order.index(b) for b in bots)
    assert bots[0] == "heuristic" and bots[-1] == "search-hard"
