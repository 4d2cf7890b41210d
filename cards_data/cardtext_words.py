"""The words of a card's rules text: the lexicon, target noun phrases and amounts.

Hungarian and English grammars differ too much to share one phrase builder for a
target (case and definiteness on one side, articles and post-modifiers on the other),
so there is one for each language here; everything built from them returns both
languages at once as a `Phrase` (cards_data/cardtext_effects.py, cards_data/cardtext.py).
"""

from collections.abc import Callable
from dataclasses import dataclass

from engine.catalog import KEYWORDS, RACES, STATS


@dataclass(frozen=True)
class Phrase:
    """One piece of rules text in both languages."""

    hu: str
    en: str

    def __getitem__(self, lang: str) -> str:
        return self.hu if lang == "hu" else self.en

    @staticmethod
    def zip(build: Callable[..., str], *phrases: "Phrase") -> "Phrase":
        """`build` applied to the Hungarian pieces and to the English pieces."""
        return Phrase(build(*(p.hu for p in phrases)), build(*(p.en for p in phrases)))


NO_PHRASE = Phrase("", "")

# --- lexicon ------------------------------------------------------------------------

# Hungarian noun forms: nominative, accusative, "your" (2sg possessive) nom/acc,
# "your ..." plural, "their ..." plural (3sg possessor), "their ..." singular nom/acc.
_HU_CASES = ("nom", "acc", "pos", "pos_acc", "pl_pos", "opp_pl", "opp", "opp_acc")
_HU_NOUN_FORMS = {
    "ship": "hajó hajót hajód hajódat hajóid hajói hajója hajóját",
    "base": "bázis bázist bázisod bázisodat bázisaid bázisai bázisa bázisát",
    "crew": "legénységkártya legénységkártyát legénységkártyád legénységkártyádat legénységkártyáid legénységkártyái legénységkártyája legénységkártyáját",
    "armament": "fegyverzet fegyverzetet fegyverzeted fegyverzetedet fegyverzeteid fegyverzetei fegyverzete fegyverzetét",
    "card": "lap lapot lapod lapodat lapjaid lapjai lapja lapját",
    "interrupt": "megszakítás megszakítást megszakításod megszakításodat megszakításaid megszakításai megszakítása megszakítását",
    "event": "esemény eseményt eseményed eseményedet eseményeid eseményei eseménye eseményét",
    "player": "játékos játékost játékosod játékosodat játékosaid játékosai játékosa játékosát",
    "scout": "felderítő felderítőt felderítőd felderítődet felderítőid felderítői felderítője felderítőjét",
    "fighter": "vadászgép vadászgépet vadászgéped vadászgépedet vadászgépeid vadászgépei vadászgépe vadászgépét",
    "cruiser": "cirkáló cirkálót cirkálód cirkálódat cirkálóid cirkálói cirkálója cirkálóját",
    "destroyer": "romboló rombolót rombolód rombolódat rombolóid rombolói rombolója rombolóját",
    "weapon": "fegyver fegyvert fegyvered fegyveredet fegyvereid fegyverei fegyvere fegyverét",
    "shield": "pajzs pajzsot pajzsod pajzsodat pajzsaid pajzsai pajzsa pajzsát",
    "item": "tárgy tárgyat tárgyad tárgyadat tárgyaid tárgyai tárgya tárgyát",
    "missile": "rakéta rakétát rakétád rakétádat rakétáid rakétái rakétája rakétáját",
    "captain": "kapitány kapitányt kapitányod kapitányodat kapitányaid kapitányai kapitánya kapitányát",
    "personnel": "személyzet személyzetet személyzeted személyzetedet személyzeteid személyzetei személyzete személyzetét",
    "passenger": "utas utast utasod utasodat utasaid utasai utasa utasát",
    "robot": "robot robotot robotod robotodat robotjaid robotjai robotja robotját",
    "research": "kutatás kutatást kutatásod kutatásodat kutatásaid kutatásai kutatása kutatását",
    "building": "épület épületet épületed épületedet épületeid épületei épülete épületét",
    "bunker": "bunker bunkert bunkered bunkeredet bunkereid bunkerei bunkere bunkerét",
    "trap": "csapda csapdát csapdád csapdádat csapdáid csapdái csapdája csapdáját",
}
HU_NOUNS = {
    noun: dict(zip(_HU_CASES, forms.split(), strict=True)) for noun, forms in _HU_NOUN_FORMS.items()
}

EN_NOUNS = {
    "ship": ("ship", "ships"),
    "base": ("base", "bases"),
    "crew": ("crew card", "crew cards"),
    "armament": ("armament", "armaments"),
    "card": ("card", "cards"),
    "interrupt": ("interrupt", "interrupts"),
    "event": ("event", "events"),
    "player": ("player", "players"),
    "scout": ("scout", "scouts"),
    "fighter": ("fighter", "fighters"),
    "cruiser": ("cruiser", "cruisers"),
    "destroyer": ("destroyer", "destroyers"),
    "weapon": ("weapon", "weapons"),
    "shield": ("shield", "shields"),
    "item": ("item", "items"),
    "missile": ("missile", "missiles"),
    "captain": ("captain", "captains"),
    "personnel": ("personnel card", "personnel cards"),
    "passenger": ("passenger", "passengers"),
    "robot": ("robot", "robots"),
    "research": ("research base", "research bases"),
    "building": ("building", "buildings"),
    "bunker": ("bunker", "bunkers"),
    "trap": ("trap", "traps"),
}

HU_NUM = {1: "egy", 2: "két", 3: "három", 4: "négy", 5: "öt"}
EN_NUM = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}

HU_STAT_ACC = {
    "speed": "sebességet",
    "firepower": "tűzerőt",
    "armour": "páncélzatot",
    "bombardment": "bombázást",
    "upgrade_limit": "fejlesztési limitet",
}
EN_STAT = {**{k: v["en"] for k, v in STATS.items()}, "upgrade_limit": "upgrade limit"}

DURATIONS = {
    "this_shot": Phrase(" erre a lövésre", " for this shot"),
    "until_end_of_combat": Phrase(" a harc végéig", " until the end of the combat"),
    "until_end_of_turn": Phrase(" a kör végéig", " until the end of the turn"),
    "while_in_play": NO_PHRASE,
}

HU_STATE = {"active": "aktív", "used": "használt", "damaged": "sérült"}


def _en_article(phrase: str) -> str:
    word = phrase.split()[0].lower() if phrase else ""
    vowel = word[:1] in "aeio" or word.startswith("un")
    return "an" if vowel else "a"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def low(text: str) -> str:
    return text[:1].lower() + text[1:]


def words_before(words: list[str]) -> str:
    """Words that stand before a noun, with the space after them ("" if none)."""
    return " ".join(words) + " " if words else ""


def words_after(words: list[str]) -> str:
    """Words that follow a noun, with the space before them ("" if none)."""
    return " " + " ".join(words) if words else ""


def cards(n) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


# --- target phrases -------------------------------------------------------------------


def noun_of(target) -> str:
    flt = target.get("filter", {})
    if flt.get("subtype"):
        return flt["subtype"]
    if target["kind"] == "card" and flt.get("type"):
        return flt["type"]
    return target["kind"]


# A target's filter in words: for each filter key, the words its value gives, in the order
# the language puts them (a falsy value of a yes/no key gives no word).
HU_ADJECTIVES = {
    "other": lambda v: "másik" if v else "",
    "state": lambda v: HU_STATE[v],
    "paid": lambda v: "kifizetett" if v else "kifizetetlen",
    "in_combat": lambda v: "harcoló" if v else "",
    "cost_max": lambda v: f"legfeljebb {v} creditköltségű",
    "cost_min": lambda v: f"legalább {v} creditköltségű",
    "size_max": lambda v: f"legfeljebb {v} méretű",
    "keyword": lambda v: f"{KEYWORDS[v]['hu']} képességű",
    "race": lambda v: RACES[v]["hu"],
}
EN_ADJECTIVES = {
    "state": lambda v: v,
    "paid": lambda v: "paid" if v else "unpaid",
    "in_combat": lambda v: "participating" if v else "",
    "race": lambda v: RACES[v]["en"],
}
EN_POSTS = {  # the English words after the noun
    "keyword": lambda v: f"with {KEYWORDS[v]['en']}",
    "size_max": lambda v: f"of size {v} or less",
    "cost_max": lambda v: f"costing {v} or less",
    "cost_min": lambda v: f"costing {v} or more",
}


def filter_words(target, words) -> list[str]:
    """The words (HU_ADJECTIVES, EN_ADJECTIVES or EN_POSTS) of the target's filter."""
    flt = target.get("filter", {})
    return [w for key, word in words.items() if key in flt and (w := word(flt[key]))]


def hu_adjectives(target) -> list[str]:
    return filter_words(target, HU_ADJECTIVES)


def _hu_self(card) -> tuple[str, str]:
    if card.get("type") == "ship":
        return "ez a hajó", "ezt a hajót"
    if card.get("type") == "base":
        return "ez a bázis", "ezt a bázist"
    return "ez a lap", "ezt a lapot"


def hu_target(target, card, case="nom") -> tuple[str, bool]:
    """A Hungarian noun phrase for a target and whether it is definite (verb agreement)."""
    kind = target["kind"]
    if kind == "self":
        nom, acc = _hu_self(card)
        return (nom if case == "nom" else acc), True
    if kind == "carrier":
        return ("a hordozó hajó" if case == "nom" else "a hordozó hajót"), True
    owner, count = target.get("owner", "any"), target.get("count", 1)
    forms = HU_NOUNS[noun_of(target)]
    adj = hu_adjectives(target)
    if kind == "player":
        if owner == "opponent":
            return ("az ellenfeled" if case == "nom" else "az ellenfeledet"), True
        return ("egy játékos" if case == "nom" else "egy játékost"), False
    if kind in ("interrupt", "event") and owner != "any":
        adj.insert(
            0, "az ellenfeled által kijátszott" if owner == "opponent" else "általad kijátszott"
        )
        owner = "any"
    possessive = owner == "you"
    if owner == "opponent":
        adj.append("ellenséges")
    if possessive:
        noun = forms["pos" if case == "nom" else "pos_acc"]
    else:
        noun = forms["nom" if case == "nom" else "acc"]
    phrase = " ".join([*adj, noun])
    if count == "all":
        return f"minden {phrase}", possessive
    quantifier = HU_NUM.get(count, str(count))
    if adj and adj[0].startswith("az ellenfeled"):
        return f"{quantifier}, {phrase}", possessive
    return f"{quantifier} {phrase}", possessive


def en_posts(target) -> list[str]:
    return filter_words(target, EN_POSTS)


def en_adjectives(target) -> list[str]:
    return filter_words(target, EN_ADJECTIVES)


def en_target(target, card) -> str:
    kind = target["kind"]
    if kind == "self":
        return {"ship": "this ship", "base": "this base"}.get(card.get("type"), "this card")
    if kind == "carrier":
        return "the carrying ship"
    owner, count = target.get("owner", "any"), target.get("count", 1)
    if kind == "player":
        return "your opponent" if owner == "opponent" else "a player"
    singular, plural = EN_NOUNS[noun_of(target)]
    adj, post = en_adjectives(target), en_posts(target)
    other = target.get("filter", {}).get("other")
    if kind in ("interrupt", "event") and owner != "any":
        post.append("played by your opponent" if owner == "opponent" else "you played")
        owner = "any"
    if owner == "opponent":
        adj.append("enemy")
    tail = words_after(post)
    if owner == "you":
        if count == "all":
            core = " ".join([*(["other"] if other else []), *adj, singular])
            return f"each {core} you control{tail}"
        core = " ".join([*(["other"] if other else []), *adj, plural])
        lead = "one" if count == 1 else EN_NUM.get(count, str(count))
        return f"{lead} of your {core}{tail}"
    if count == "all":
        core = " ".join([*(["other"] if other else []), *adj, singular])
        return f"each {core}{tail}"
    if count == 1:
        core = " ".join([*adj, singular])
        if other:
            return f"another {core}{tail}"
        return f"{_en_article(core)} {core}{tail}"
    core = " ".join([*(["other"] if other else []), *adj, plural])
    return f"{EN_NUM.get(count, str(count))} {core}{tail}"


def target_phrase(target, card, case="nom") -> tuple[Phrase, bool]:
    """A target's noun phrase in both languages (the Hungarian in `case`, "nom" or "acc")
    and whether the Hungarian is definite: the verb agrees with it ("Semmisítsd meg ezt",
    "Semmisíts meg egy")."""
    hu, definite = hu_target(target, card, case)
    return Phrase(hu, en_target(target, card)), definite


def distributes(target) -> bool:
    """Whether an effect reaches each of several chosen targets ("each of two ships")."""
    count = target.get("count", 1)
    return isinstance(count, int) and count > 1


def chooser_note(target) -> Phrase:
    if target.get("chooser") == "opponent":
        return Phrase(" (az ellenfeled választ)", " (your opponent chooses)")
    return NO_PHRASE


def player_subject(player) -> Phrase:
    """The subject of a sentence about another player; empty for "you" (imperative)."""
    if player == "opponent":
        return Phrase("Az ellenfeled", "Your opponent")
    if player == "each":
        return Phrase("Minden játékos", "Each player")
    return NO_PHRASE


# --- amounts ------------------------------------------------------------------------------


def amount(value, card, signed=False) -> tuple[str, Phrase]:
    """(number text, trailing "for each ..." phrase) of an amount."""
    if isinstance(value, dict):
        times = value.get("times", 1)
        counted = dict(value["count_of"], count=1)
        number = f"+{times}" if signed and times > 0 else str(times)
        every, _ = hu_target(dict(counted, count="all"), card)
        each = en_target(counted, card).split(" ", 1)[1]
        return number, Phrase(f" {every} után", f" for each {each}")
    if signed and (value == "X" or value >= 0):
        return f"+{value}", NO_PHRASE
    return str(value), NO_PHRASE
