"""The sentence of each effect primitive (engine/effects.py) in both languages.

`PHRASERS` is the registry: one phraser per effect kind, each returning a `Phrase`
(Hungarian and English together), so a new primitive gets its two sentences in one
place. `effects_sentence` joins the effects of one ability into one sentence.
"""

from collections.abc import Callable

from cardgame.hungarian import az
from engine.catalog import KEYWORDS
from engine.effects import PYTHON_FUNCTIONS

from .cardtext_words import (
    DURATIONS,
    EN_NOUNS,
    EN_NUM,
    EN_STAT,
    HU_NOUNS,
    HU_NUM,
    HU_STAT_ACC,
    HU_STATE,
    NO_PHRASE,
    Phrase,
    amount,
    cap,
    chooser_note,
    distributes,
    en_adjectives,
    en_posts,
    hu_adjectives,
    low,
    noun_of,
    player_subject,
    target_phrase,
    words_after,
    words_before,
)

Phraser = Callable[[dict, dict], Phrase]
PHRASERS: dict[str, Phraser] = {}


def phraser(*effects: str) -> Callable[[Phraser], Phraser]:
    """Registers the decorated function as the phraser of these effect kinds."""

    def register(function: Phraser) -> Phraser:
        for effect in effects:
            PHRASERS[effect] = function
        return function

    return register


def effect_phrase(effect: dict, card: dict) -> Phrase:
    name = effect["effect"]
    if name not in PHRASERS:
        raise ValueError(f"no text for effect {name!r}")
    return PHRASERS[name](effect, card)


def _command(target, card, verbs, hu: tuple = ("", ""), en: tuple = ("", ""), note=NO_PHRASE):
    """An order about the effect's targets ("Destroy a ship."): the Hungarian verb in the form
    that agrees with its object (`verbs`: definite, indefinite; see target_phrase), each
    language's words before and after the object (`hu`, `en`), then the chooser's note."""
    phrase, definite = target_phrase(target, card, "acc")
    verb = verbs[0] if definite else verbs[1]
    return Phrase(
        f"{verb}{hu[0]} {phrase.hu}{hu[1]}{note.hu}.", f"{en[0]} {phrase.en}{en[1]}{note.en}."
    )


# --- stats and keywords -------------------------------------------------------------


@phraser("modify_stat")
def _modify_stat(e, card) -> Phrase:
    target = e["target"]
    subject, _ = target_phrase(target, card)
    phrase = subject.en
    distributive = ""
    if distributes(target):
        distributive, phrase = " egyenként", f"each of {phrase}"
    hu_parts, en_parts = [], []
    for part in e.get("_merged", [e]):
        number, each = amount(part["amount"], card, signed=True)
        hu_parts.append(f"{number} {HU_STAT_ACC[part['stat']]}")
        en_parts.append(f"{number} {EN_STAT[part['stat']]}{each.en}")
    duration = DURATIONS[e["duration"]]
    # Hungarian puts "for each ..." after the verb; only a lone part can have one (_merge)
    return Phrase(
        f"{cap(subject.hu)}{duration.hu}{distributive} {' és '.join(hu_parts)} kap{each.hu}.",
        f"{cap(phrase)} gets {' and '.join(en_parts)}{duration.en}.",
    )


@phraser("grant_keyword")
def _grant_keyword(e, card) -> Phrase:
    subject, _ = target_phrase(e["target"], card)
    keywords = [KEYWORDS[part["keyword"]] for part in e.get("_merged", [e])]
    duration = DURATIONS[e["duration"]]
    hu_names = " és ".join(keyword["hu"] for keyword in keywords)
    en_names = " and ".join(keyword["en"] for keyword in keywords)
    return Phrase(
        f"{cap(subject.hu)}{duration.hu} {hu_names} képességet kap.",
        f"{cap(subject.en)} gains {en_names}{duration.en}.",
    )


# --- credits and cards ----------------------------------------------------------------

# effect -> (Hungarian imperative, Hungarian 3rd person, English verb)
_RESOURCE_VERBS = {
    "gain_credits": ("Kapsz", "kap", "gain"),
    "lose_credits": ("Veszíts el", "elveszít", "lose"),
    "draw": ("Húzz", "húz", "draw"),
}


@phraser(*_RESOURCE_VERBS)
def _resource(e, card) -> Phrase:
    number, each = amount(e["amount"], card)
    hu_you, hu_other, verb = _RESOURCE_VERBS[e["effect"]]
    hu_noun, en_noun = ("lapot", "card") if e["effect"] == "draw" else ("creditet", "credit")
    hu_thing = f"{number} {hu_noun}"
    en_thing = f"{number} {en_noun}{'' if number == '1' else 's'}"
    player = e.get("player", "you")
    if player == "you":
        return Phrase(f"{hu_you} {hu_thing}{each.hu}.", f"{cap(verb)} {en_thing}{each.en}.")
    subject = player_subject(player)
    return Phrase(
        f"{subject.hu} {hu_other} {hu_thing}{each.hu}.",
        f"{subject.en} {verb}s {en_thing}{each.en}.",
    )


@phraser("discard_from_colony")
def _discard_from_colony(e, card) -> Phrase:
    number, each = amount(e["amount"], card)
    top = _top_of(number)
    player = e.get("player", "you")
    if player == "you":
        return Phrase(
            f"Dobd a kolóniád {top.hu}{each.hu} a pusztulatodba.",
            f"Discard {top.en} of your colony{each.en} to your wasteland.",
        )
    subject = player_subject(player)
    return Phrase(
        f"{subject.hu} a kolóniája {top.hu}{each.hu} a pusztulatába dobja.",
        f"{subject.en} discards {top.en} of their colony{each.en} to their wasteland.",
    )


def _top_of(number: str) -> Phrase:
    """The top card(s) of a colony: "felső lapját" / "the top card"."""
    if number == "1":
        return Phrase("felső lapját", "the top card")
    return Phrase(f"felső {number} lapját", f"the top {number} cards")


@phraser("discard_from_centre")
def _discard_from_centre(e, card) -> Phrase:
    number, each = amount(e["amount"], card)
    cards = "card" if number == "1" else "cards"
    player, chooser = e.get("player", "you"), e.get("chooser", "owner")
    subject = player_subject(player)
    if player == "you":
        return Phrase(
            f"Dobj el {number} lapot{each.hu} a központodból a pusztulatodba.",
            f"Discard {number} {cards}{each.en} from your centre to your wasteland.",
        )
    if chooser == "you":
        them = "it" if number == "1" else "them"
        return Phrase(
            f"Nézd meg az ellenfeled központját, és válassz ki belőle {number} lapot{each.hu}: az ellenfeled a pusztulatába dobja.",
            f"Look at your opponent's centre and choose {number} {cards}{each.en} from it; your opponent discards {them} to their wasteland.",
        )
    if chooser == "random":
        return Phrase(
            f"{subject.hu} véletlenszerűen eldob {number} lapot{each.hu} a központjából a pusztulatába.",
            f"{subject.en} discards {number} {cards}{each.en} at random from their centre to their wasteland.",
        )
    return Phrase(
        f"{subject.hu} eldob {number} általa választott lapot{each.hu} a központjából a pusztulatába.",
        f"{subject.en} discards {number} {cards} of their choice{each.en} from their centre to their wasteland.",
    )


@phraser("return_to_colony")
def _return_to_colony(e, card) -> Phrase:
    number, each = amount(e["amount"], card)
    source = "pusztulatodból" if e["from"] == "wasteland" else "szemetedből"
    cards = "card" if number == "1" else "cards"
    return Phrase(
        f"Tegyél a {source} {number} általad választott lapot{each.hu} a kolóniád aljára.",
        f"Put {number} {cards} of your choice{each.en} from your {e['from']} on the bottom of your colony.",
    )


@phraser("peek")
def _peek(e, card) -> Phrase:
    zone, opponent = e["zone"], e.get("player", "you") == "opponent"
    if zone == "centre":
        if opponent:
            return Phrase("Nézd meg az ellenfeled központját.", "Look at your opponent's centre.")
        return Phrase("Nézd meg a központodat.", "Look at your centre.")
    if zone == "colony_top":
        return _peek_colony_top(e, card, opponent)
    return _command(e["target"], card, ("Nézd", "Nézz"), (" meg", ""), ("Look at", ""))


def _peek_colony_top(e, card, opponent: bool) -> Phrase:
    number, _ = amount(e["amount"], card)
    top = _top_of(number)
    hu_whose = "az ellenfeled kolóniájának" if opponent else "a kolóniád"
    en_whose = "your opponent's colony" if opponent else "your colony"
    then = NO_PHRASE
    if e.get("reorder"):
        then = Phrase(
            ", majd tedd vissza őket tetszőleges sorrendben", ", then put them back in any order"
        )
    return Phrase(
        f"Nézd meg {hu_whose} {top.hu}{then.hu}.", f"Look at {top.en} of {en_whose}{then.en}."
    )


@phraser("search_colony")
def _search_colony(e, card) -> Phrase:
    wanted = {"kind": "card", "filter": e.get("filter", {}), "count": e.get("amount", 1)}
    found, _ = target_phrase(wanted, card, "acc")
    depth = e["depth"]
    return Phrase(
        f"Nézd meg a kolóniád felső {depth} lapját, tegyél közülük {found.hu} a központodba, majd keverd meg a kolóniádat.",
        f"Look at the top {depth} cards of your colony, put {found.en} from among them into your centre, then shuffle your colony.",
    )


# --- cards in play ----------------------------------------------------------------------


@phraser("destroy")
def _destroy(e, card) -> Phrase:
    target = e["target"]
    if target.get("chooser") == "opponent" and target.get("owner") == "opponent":
        return _opponent_destroys(target)
    verbs = ("Semmisítsd", "Semmisíts")
    return _command(target, card, verbs, (" meg", ""), ("Destroy", ""), chooser_note(target))


def _opponent_destroys(target) -> Phrase:
    """The opponent destroys one of their own cards, of their choice."""
    noun, count = noun_of(target), target.get("count", 1)
    hu_adj, en_adj = words_before(hu_adjectives(target)), words_before(en_adjectives(target))
    plural = EN_NOUNS[noun][1]
    what = (
        f"one of their {en_adj}{plural}"
        if count == 1
        else f"{EN_NUM.get(count, count)} of their {en_adj}{plural}"
    )
    return Phrase(
        f"Az ellenfeled megsemmisíti {HU_NUM.get(count, 'egy')} általa választott {hu_adj}{HU_NOUNS[noun]['opp_acc']}.",
        f"Your opponent destroys {what} of their choice.",
    )


@phraser("deal_damage")
def _deal_damage(e, card) -> Phrase:
    target = e["target"]
    subject, _ = target_phrase(target, card)
    number, each = amount(e["amount"], card)
    phrase = subject.en
    distributive = ""
    if distributes(target):
        distributive, phrase = " egyenként", f"each of {phrase}"
    note = chooser_note(target)
    return Phrase(
        f"{cap(subject.hu)}{distributive} {number} sebzést szenved{each.hu}{note.hu}.",
        f"Deal {number} damage{each.en} to {phrase}{note.en}.",
    )


@phraser("repair_damage")
def _repair_damage(e, card) -> Phrase:
    subject, _ = target_phrase(e["target"], card)
    if e["amount"] == "all":
        return Phrase(
            f"{cap(subject.hu)} visszanyeri a teljes páncélzatát.",
            f"{cap(subject.en)} regains all of its armour.",
        )
    number, each = amount(e["amount"], card)
    return Phrase(
        f"{cap(subject.hu)} visszanyer {number} páncélzatot{each.hu}.",
        f"{cap(subject.en)} regains {number} armour{each.en}.",
    )


@phraser("neutralize")
def _neutralize(e, card) -> Phrase:
    return _command(e["target"], card, ("Semlegesítsd", "Semlegesíts"), en=("Neutralise", ""))


@phraser("add_upgrades", "remove_upgrades")
def _upgrades(e, card) -> Phrase:
    subject, _ = target_phrase(e["target"], card)
    number, each = amount(e["amount"], card)
    noun = "upgrade" if number == "1" else "upgrades"
    if e["effect"] == "add_upgrades":
        return Phrase(
            f"{cap(subject.hu)} {number} fejlesztést kap{each.hu}.",
            f"Put {number} {noun}{each.en} on {subject.en}.",
        )
    return Phrase(
        f"{cap(subject.hu)} elveszít {number} fejlesztést{each.hu}.",
        f"Remove {number} {noun}{each.en} from {subject.en}.",
    )


@phraser("rotate")
def _rotate(e, card) -> Phrase:
    target, state = e["target"], e["to"]
    hu = (f" {HU_STATE[state]} állapotba", "")
    return _command(
        target, card, ("Fordítsd", "Fordíts"), hu, ("Turn", f" {state}"), chooser_note(target)
    )


@phraser("return_to_centre")
def _return_to_centre(e, card) -> Phrase:
    target = e["target"]
    if e.get("from") == "trash":
        hu = (" vissza", " a szemetedből a központodba")
        en = ("Return", " from your trash to your centre")
        return _command(dict(target, owner="any"), card, ("Tedd", "Tegyél"), hu, en)
    subject, _ = target_phrase(target, card)
    note = chooser_note(target)
    return Phrase(
        f"{cap(subject.hu)} visszakerül a tulajdonosa központjába{note.hu}.",
        f"Return {subject.en} to its owner's centre{note.en}.",
    )


# --- costs and combat -------------------------------------------------------------------


@phraser("attack_surcharge")
def _attack_surcharge(e, card) -> Phrase:
    number, _ = amount(e["amount"], card)
    credits = "credit" if number == "1" else "credits"
    if e.get("player", "opponent") == "you":
        return Phrase(
            f"Minden támadás indításához további {number} creditet kell fizetned.",
            f"You must pay {number} additional {credits} to initiate each attack.",
        )
    return Phrase(
        f"Az ellenfelednek minden támadás indításához további {number} creditet kell fizetnie.",
        f"Your opponent must pay {number} additional {credits} to initiate each attack.",
    )


@phraser("cost_modifier")
def _cost_modifier(e, card) -> Phrase:
    change = abs(e["amount"])
    cheaper = e["amount"] < 0
    hu_change = f"{change} credittel {'kevesebbe' if cheaper else 'többe'}"
    en_change = f"{change} {'less' if cheaper else 'more'}"
    opponent = e.get("player", "you") == "opponent"
    every, next_one = _cost_modified_things(e, opponent)
    if e["duration"] == "next":
        hu_next = f"Az {next_one.hu}" if opponent else f"A következő {next_one.hu}"
        return Phrase(
            f"{hu_next} ebben a körben {hu_change} kerül.",
            f"{cap(next_one.en)} this turn costs {en_change}.",
        )
    article = az(every.hu)
    if e["duration"] == "until_end_of_turn":
        return Phrase(
            f"Ebben a körben {article} {every.hu} {hu_change} kerülnek.",
            f"This turn, {every.en} cost {en_change}.",
        )
    return Phrase(
        f"{cap(article)} {every.hu} {hu_change} kerülnek.", f"{cap(every.en)} cost {en_change}."
    )


def _cost_modified_things(e, opponent: bool) -> tuple[Phrase, Phrase]:
    """(every thing whose cost changes, the next one) of a cost modifier."""
    whose = "your opponent's" if opponent else "your"
    action = e.get("action", "card")
    if action == "upgrade":
        if opponent:
            every = Phrase("ellenfeled által vásárolt fejlesztések", "upgrades your opponent buys")
            return every, Phrase("ellenfeled következő fejlesztése", f"{whose} next upgrade")
        every = Phrase("bázisaidra vásárolt fejlesztések", "upgrades you buy")
        return every, Phrase("fejlesztésed", f"{whose} next upgrade")
    if action == "draw":
        if opponent:
            every = Phrase("ellenfeled húzásai", "cards your opponent draws")
            return every, Phrase("ellenfeled következő húzása", f"{whose} next draw")
        return Phrase("húzásaid", "cards you draw"), Phrase("húzásod", f"{whose} next draw")
    target = {"kind": "card", "filter": e.get("filter", {})}
    hu_adj = words_before(hu_adjectives(target))
    forms, (singular, plural) = HU_NOUNS[noun_of(target)], EN_NOUNS[noun_of(target)]
    adjectives = en_adjectives(target)
    post = words_after(en_posts(target))
    en_every = f"{whose} {' '.join([*adjectives, plural])}{post}"
    en_next = f"{whose} next {' '.join([*adjectives, singular])}{post}"
    if opponent:
        return Phrase(f"ellenfeled {hu_adj}{forms['opp_pl']}", en_every), Phrase(
            f"ellenfeled következő {hu_adj}{forms['opp']}", en_next
        )
    return Phrase(f"{hu_adj}{forms['pl_pos']}", en_every), Phrase(
        f"{hu_adj}{forms['pos']}", en_next
    )


@phraser("end_combat")
def _end_combat(e, card) -> Phrase:
    return Phrase(
        "A harc azonnal a leszerelési lépéssel folytatódik.",
        "The combat proceeds at once to its disarm step.",
    )


@phraser("choose_one")
def _choose_one(e, card) -> Phrase:
    options = [effects_sentence(option, card) for option in e["options"]]
    return Phrase(
        "Válassz egyet: " + "; vagy ".join(low(o.hu.rstrip(".")) for o in options) + ".",
        "Choose one: " + "; or ".join(low(o.en.rstrip(".")) for o in options) + ".",
    )


@phraser("python")
def _python(e, card) -> Phrase:
    text = PYTHON_FUNCTIONS[e["function"]]
    return Phrase(text["hu"], text["en"])


# --- one sentence for the effects of an ability -------------------------------------------


def _merge(effects) -> list:
    """Join consecutive stat changes (or keyword grants) of one target and duration.

    "gets +1 armour and +1 firepower" reads better than two sentences; the
    structured effects stay separate.
    """
    merged = []
    for effect in effects:
        last = merged[-1] if merged else None
        if (
            last is not None
            and effect["effect"] in ("modify_stat", "grant_keyword")
            and effect["effect"] == last["effect"]
            and effect["target"] == last["target"]
            and effect["duration"] == last["duration"]
            and not isinstance(effect.get("amount"), dict)
            and not isinstance(last.get("amount"), dict)
        ):
            last["_merged"].append(effect)
            continue
        merged.append(dict(effect, _merged=[effect]))
    return merged


_EN_IMPERATIVES = (
    "Gain ",
    "Lose ",
    "Draw ",
    "Discard ",
    "Look ",
    "Put ",
    "Return ",
    "Destroy ",
    "Deal ",
    "Turn ",
    "Neutralise ",
    "Remove ",
)


def effects_sentence(effects, card) -> Phrase:
    """Several effects as one sentence: "A, majd b." / "A, then b."."""
    parts = [effect_phrase(e, card) for e in _merge(effects)]
    hu = [part.hu.rstrip(".") for part in parts]
    en = [part.en.rstrip(".") for part in parts]
    return Phrase(
        hu[0] + "".join(", majd " + low(part) for part in hu[1:]) + ".", _join_english(en) + "."
    )


def _join_english(parts: list[str]) -> str:
    """ "A, then b": an imperative after a sentence with a subject gets "you"."""
    text = parts[0]
    for before, part in zip(parts, parts[1:], strict=False):
        subject = (
            "you "
            if part.startswith(_EN_IMPERATIVES) and not before.startswith(_EN_IMPERATIVES)
            else ""
        )
        text += ", then " + subject + low(part)
    return text
