"""Rules text of a card, generated from its keywords and structured abilities.

``render_text(card, lang)`` returns the text printed on the card in Hungarian
("hu") or English ("en"). The set files hold no hand-written rules text, so the
text can never disagree with what the engine executes (engine/effects.py).

Conventions: costs of activated abilities use the icon tokens of R 2.4
(``2 [CR], [USED]: ...``); everything else is in words. One ability per line;
the keyword line (R 13) comes first. Pure Python, no Django.
"""

from engine.catalog import KEYWORDS, RACES, SHIP_SIZE, STATS

# --- lexicon ------------------------------------------------------------------------

# Hungarian noun forms: nominative, accusative, "your" (2sg possessive) nom/acc,
# "your ..." plural, "their ..." plural (3sg possessor), "their ..." singular nom/acc.
_HU_FORMS = ("nom", "acc", "pos", "pos_acc", "pl_pos", "opp_pl", "opp", "opp_acc")
_HU_NOUNS = {
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
_HU = {noun: dict(zip(_HU_FORMS, forms.split(), strict=True)) for noun, forms in _HU_NOUNS.items()}

_EN = {
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

_HU_NUM = {1: "egy", 2: "két", 3: "három", 4: "négy", 5: "öt"}
_EN_NUM = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}

_HU_STAT_ACC = {
    "speed": "sebességet",
    "firepower": "tűzerőt",
    "armour": "páncélzatot",
    "bombardment": "bombázást",
    "upgrade_limit": "fejlesztési limitet",
}
_EN_STAT = {**{k: v["en"] for k, v in STATS.items()}, "upgrade_limit": "upgrade limit"}

_HU_DURATION = {
    "this_shot": "erre a lövésre",
    "until_end_of_combat": "a harc végéig",
    "until_end_of_turn": "a kör végéig",
    "while_in_play": "",
}
_EN_DURATION = {
    "this_shot": " for this shot",
    "until_end_of_combat": " until the end of the combat",
    "until_end_of_turn": " until the end of the turn",
    "while_in_play": "",
}

_HU_STATE = {"active": "aktív", "used": "használt", "damaged": "sérült"}
_HU_VOWELS = "aáeéiíoóöőuúüű"


def _hu_article(word: str) -> str:
    """Hungarian definite article: "az" before a vowel, "a" otherwise."""
    return "az" if word[:1].lower() in _HU_VOWELS else "a"


def _en_article(phrase: str) -> str:
    word = phrase.split()[0].lower() if phrase else ""
    vowel = word[:1] in "aeio" or word.startswith("un")
    return "an" if vowel else "a"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _low(text: str) -> str:
    return text[:1].lower() + text[1:]


def _cards(n) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


# --- target phrases -------------------------------------------------------------------


def _noun(target) -> str:
    flt = target.get("filter", {})
    if flt.get("subtype"):
        return flt["subtype"]
    if target["kind"] == "card" and flt.get("type"):
        return flt["type"]
    return target["kind"]


def _hu_adjectives(target) -> list[str]:
    flt, adj = target.get("filter", {}), []
    if flt.get("other"):
        adj.append("másik")
    if "state" in flt:
        adj.append(_HU_STATE[flt["state"]])
    if "paid" in flt:
        adj.append("kifizetett" if flt["paid"] else "kifizetetlen")
    if flt.get("in_combat"):
        adj.append("harcoló")
    if "cost_max" in flt:
        adj.append(f"legfeljebb {flt['cost_max']} creditköltségű")
    if "cost_min" in flt:
        adj.append(f"legalább {flt['cost_min']} creditköltségű")
    if "size_max" in flt:
        adj.append(f"legfeljebb {flt['size_max']} méretű")
    if "keyword" in flt:
        adj.append(f"{KEYWORDS[flt['keyword']]['hu']} képességű")
    if "race" in flt:
        adj.append(RACES[flt["race"]]["hu"])
    return adj


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
    forms = _HU[_noun(target)]
    adj = _hu_adjectives(target)
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
    quantifier = _HU_NUM.get(count, str(count))
    if adj and adj[0].startswith("az ellenfeled"):
        return f"{quantifier}, {phrase}", possessive
    return f"{quantifier} {phrase}", possessive


def _en_posts(target) -> list[str]:
    flt, post = target.get("filter", {}), []
    if "keyword" in flt:
        post.append(f"with {KEYWORDS[flt['keyword']]['en']}")
    if "size_max" in flt:
        post.append(f"of size {flt['size_max']} or less")
    if "cost_max" in flt:
        post.append(f"costing {flt['cost_max']} or less")
    if "cost_min" in flt:
        post.append(f"costing {flt['cost_min']} or more")
    return post


def _en_adjectives(target) -> list[str]:
    flt, adj = target.get("filter", {}), []
    if "state" in flt:
        adj.append(flt["state"])
    if "paid" in flt:
        adj.append("paid" if flt["paid"] else "unpaid")
    if flt.get("in_combat"):
        adj.append("participating")
    if "race" in flt:
        adj.append(RACES[flt["race"]]["en"])
    return adj


def en_target(target, card) -> str:
    kind = target["kind"]
    if kind == "self":
        return {"ship": "this ship", "base": "this base"}.get(card.get("type"), "this card")
    if kind == "carrier":
        return "the carrying ship"
    owner, count = target.get("owner", "any"), target.get("count", 1)
    if kind == "player":
        return "your opponent" if owner == "opponent" else "a player"
    singular, plural = _EN[_noun(target)]
    adj, post = _en_adjectives(target), _en_posts(target)
    other = target.get("filter", {}).get("other")
    if kind in ("interrupt", "event") and owner != "any":
        post.append("played by your opponent" if owner == "opponent" else "you played")
        owner = "any"
    if owner == "opponent":
        adj.append("enemy")
    tail = (" " + " ".join(post)) if post else ""
    if owner == "you":
        if count == "all":
            core = " ".join([*(["other"] if other else []), *adj, singular])
            return f"each {core} you control{tail}"
        core = " ".join([*(["other"] if other else []), *adj, plural])
        lead = "one" if count == 1 else _EN_NUM.get(count, str(count))
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
    return f"{_EN_NUM.get(count, str(count))} {core}{tail}"


def _is_multi(target) -> bool:
    count = target.get("count", 1)
    return count == "all" or (isinstance(count, int) and count > 1)


# --- amounts ------------------------------------------------------------------------------


def _amount(value, lang, card, signed=False) -> tuple[str, str]:
    """(number text, trailing "for each ..." text) of an amount."""
    if isinstance(value, dict):
        times = value.get("times", 1)
        counted = dict(value["count_of"], count=1)
        number = f"+{times}" if signed and times > 0 else str(times)
        if lang == "hu":
            phrase, _ = hu_target(dict(counted, count="all"), card)
            return number, f" {phrase} után"
        return number, f" for each {en_target(counted, card).split(' ', 1)[1]}"
    if signed and (value == "X" or value >= 0):
        return f"+{value}", ""
    return str(value), ""


# --- effects ------------------------------------------------------------------------------


def _chooser_note(target, lang) -> str:
    if target.get("chooser") == "opponent":
        return " (az ellenfeled választ)" if lang == "hu" else " (your opponent chooses)"
    return ""


def _player_subject_hu(player) -> str:
    return {"opponent": "Az ellenfeled", "each": "Minden játékos"}.get(player, "")


def _effect_hu(e, card) -> str:  # noqa: C901 - one branch per primitive
    name = e["effect"]
    player = e.get("player", "you")
    target = e.get("target")
    if name == "modify_stat":
        subject, _ = hu_target(target, card)
        duration = _HU_DURATION[e["duration"]]
        duration = f" {duration}" if duration else ""
        distributive = " egyenként" if _is_multi(target) and target.get("count") != "all" else ""
        parts = []
        for part in e.get("_merged", [e]):
            number, each = _amount(part["amount"], "hu", card, signed=True)
            parts.append(f"{number} {_HU_STAT_ACC[part['stat']]}")
        return f"{_cap(subject)}{duration}{distributive} {' és '.join(parts)} kap{each}."
    if name == "grant_keyword":
        subject, _ = hu_target(target, card)
        duration = _HU_DURATION[e["duration"]]
        duration = f" {duration}" if duration else ""
        names = " és ".join(KEYWORDS[part["keyword"]]["hu"] for part in e.get("_merged", [e]))
        return f"{_cap(subject)}{duration} {names} képességet kap."
    if name in ("gain_credits", "lose_credits", "draw"):
        number, each = _amount(e["amount"], "hu", card)
        if name == "draw":
            thing = f"{number} lapot"
            verbs = {"you": "Húzz", "other": "húz"}
        else:
            thing = f"{number} creditet"
            verbs = (
                {"you": "Kapsz", "other": "kap"}
                if name == "gain_credits"
                else {"you": "Veszíts el", "other": "elveszít"}
            )
        if player == "you":
            return f"{verbs['you']} {thing}{each}."
        return f"{_player_subject_hu(player)} {verbs['other']} {thing}{each}."
    if name == "discard_from_colony":
        number, each = _amount(e["amount"], "hu", card)
        top = "felső lapját" if number == "1" else f"felső {number} lapját"
        if player == "you":
            return f"Dobd a kolóniád {top}{each} a pusztulatodba."
        return f"{_player_subject_hu(player)} a kolóniája {top}{each} a pusztulatába dobja."
    if name == "discard_from_centre":
        number, each = _amount(e["amount"], "hu", card)
        chooser = e.get("chooser", "owner")
        if player == "you":
            return f"Dobj el {number} lapot{each} a központodból a pusztulatodba."
        subject = _player_subject_hu(player)
        if chooser == "you":
            return f"Nézd meg az ellenfeled központját, és válassz ki belőle {number} lapot{each}: az ellenfeled a pusztulatába dobja."
        if chooser == "random":
            return f"{subject} véletlenszerűen eldob {number} lapot{each} a központjából a pusztulatába."
        return (
            f"{subject} eldob {number} általa választott lapot{each} a központjából a pusztulatába."
        )
    if name == "return_to_colony":
        number, each = _amount(e["amount"], "hu", card)
        source = "pusztulatodból" if e["from"] == "wasteland" else "szemetedből"
        return f"Tegyél a {source} {number} általad választott lapot{each} a kolóniád aljára."
    if name == "peek":
        zone = e["zone"]
        if zone == "centre":
            return (
                "Nézd meg az ellenfeled központját."
                if player == "opponent"
                else "Nézd meg a központodat."
            )
        if zone == "colony_top":
            number, _ = _amount(e["amount"], "hu", card)
            top = "felső lapját" if number == "1" else f"felső {number} lapját"
            whose = "az ellenfeled kolóniájának" if player == "opponent" else "a kolóniád"
            text = f"Nézd meg {whose} {top}"
            if e.get("reorder"):
                text += ", majd tedd vissza őket tetszőleges sorrendben"
            return text + "."
        phrase, definite = hu_target(target, card, "acc")
        return f"{'Nézd' if definite else 'Nézz'} meg {phrase}."
    if name == "search_colony":
        found, _ = hu_target(
            {"kind": "card", "filter": e.get("filter", {}), "count": e.get("amount", 1)},
            card,
            "acc",
        )
        return f"Nézd meg a kolóniád felső {e['depth']} lapját, tegyél közülük {found} a központodba, majd keverd meg a kolóniádat."
    if name == "destroy":
        if target.get("chooser") == "opponent" and target.get("owner") == "opponent":
            forms = _HU[_noun(target)]
            adj = " ".join(_hu_adjectives(target))
            adj = f"{adj} " if adj else ""
            return f"Az ellenfeled megsemmisíti {_HU_NUM.get(target.get('count', 1), 'egy')} általa választott {adj}{forms['opp_acc']}."
        phrase, definite = hu_target(target, card, "acc")
        return f"{'Semmisítsd' if definite else 'Semmisíts'} meg {phrase}{_chooser_note(target, 'hu')}."
    if name == "deal_damage":
        subject, _ = hu_target(target, card)
        number, each = _amount(e["amount"], "hu", card)
        distributive = " egyenként" if _is_multi(target) and target.get("count") != "all" else ""
        return f"{_cap(subject)}{distributive} {number} sebzést szenved{each}{_chooser_note(target, 'hu')}."
    if name == "repair_damage":
        subject, _ = hu_target(target, card)
        if e["amount"] == "all":
            return f"{_cap(subject)} visszanyeri a teljes páncélzatát."
        number, each = _amount(e["amount"], "hu", card)
        return f"{_cap(subject)} visszanyer {number} páncélzatot{each}."
    if name == "neutralize":
        phrase, definite = hu_target(target, card, "acc")
        return f"{'Semlegesítsd' if definite else 'Semlegesíts'} {phrase}."
    if name in ("add_upgrades", "remove_upgrades"):
        subject, _ = hu_target(target, card)
        number, each = _amount(e["amount"], "hu", card)
        verb = "kap" if name == "add_upgrades" else "elveszít"
        if name == "add_upgrades":
            return f"{_cap(subject)} {number} fejlesztést kap{each}."
        return f"{_cap(subject)} {verb} {number} fejlesztést{each}."
    if name == "rotate":
        phrase, definite = hu_target(target, card, "acc")
        state = _HU_STATE[e["to"]]
        return f"{'Fordítsd' if definite else 'Fordíts'} {state} állapotba {phrase}{_chooser_note(target, 'hu')}."
    if name == "return_to_centre":
        if e.get("from") == "trash":
            phrase, definite = hu_target(dict(target, owner="any"), card, "acc")
            return (
                f"{'Tedd' if definite else 'Tegyél'} vissza {phrase} a szemetedből a központodba."
            )
        subject, _ = hu_target(target, card)
        return (
            f"{_cap(subject)} visszakerül a tulajdonosa központjába{_chooser_note(target, 'hu')}."
        )
    if name == "attack_surcharge":
        number, _ = _amount(e["amount"], "hu", card)
        if e.get("player", "opponent") == "you":
            return f"Minden támadás indításához további {number} creditet kell fizetned."
        return (
            f"Az ellenfelednek minden támadás indításához további {number} creditet kell fizetnie."
        )
    if name == "cost_modifier":
        return _cost_modifier_hu(e, card)
    if name == "end_combat":
        return "A harc azonnal a leszerelési lépéssel folytatódik."
    if name == "choose_one":
        options = [
            _low(_effects_sentence(option, "hu", card).rstrip(".")) for option in e["options"]
        ]
        return "Válassz egyet: " + "; vagy ".join(options) + "."
    if name == "python":
        from engine.effects import PYTHON_FUNCTIONS

        return PYTHON_FUNCTIONS[e["function"]]["hu"]
    raise ValueError(f"no Hungarian text for effect {name!r}")


def _cost_modifier_hu(e, card) -> str:
    amount, duration = e["amount"], e["duration"]
    change = f"{abs(amount)} credittel {'kevesebbe' if amount < 0 else 'többe'}"
    action = e.get("action", "card")
    flt = e.get("filter", {})
    opponent = e.get("player", "you") == "opponent"
    if action == "upgrade":
        thing_pl, thing_sg = "bázisaidra vásárolt fejlesztések", "fejlesztésed"
        if opponent:
            thing_pl, thing_sg = (
                "ellenfeled által vásárolt fejlesztések",
                "ellenfeled következő fejlesztése",
            )
    elif action == "draw":
        thing_pl, thing_sg = "húzásaid", "húzásod"
        if opponent:
            thing_pl, thing_sg = "ellenfeled húzásai", "ellenfeled következő húzása"
    else:
        target = {"kind": "card", "filter": flt}
        adj = " ".join(_hu_adjectives(target))
        adj = f"{adj} " if adj else ""
        forms = _HU[_noun(target)]
        if opponent:
            thing_pl, thing_sg = (
                f"ellenfeled {adj}{forms['opp_pl']}",
                f"ellenfeled következő {adj}{forms['opp']}",
            )
        else:
            thing_pl, thing_sg = f"{adj}{forms['pl_pos']}", f"{adj}{forms['pos']}"
    if duration == "next":
        if opponent:
            return f"Az {thing_sg} ebben a körben {change} kerül."
        return f"A következő {thing_sg} ebben a körben {change} kerül."
    prefix = "Ebben a körben " if duration == "until_end_of_turn" else ""
    article = _hu_article(thing_pl)
    head = f"{article} {thing_pl}" if prefix else f"{_cap(article)} {thing_pl}"
    return f"{prefix}{head} {change} kerülnek."


def _effect_en(e, card) -> str:  # noqa: C901 - one branch per primitive
    name = e["effect"]
    player = e.get("player", "you")
    target = e.get("target")
    subject_en = {"opponent": "Your opponent", "each": "Each player"}.get(player, "")
    if name == "modify_stat":
        phrase = en_target(target, card)
        if _is_multi(target) and target.get("count") != "all":
            phrase = f"each of {phrase}"
        parts = []
        for part in e.get("_merged", [e]):
            number, each = _amount(part["amount"], "en", card, signed=True)
            parts.append(f"{number} {_EN_STAT[part['stat']]}{each}")
        return f"{_cap(phrase)} gets {' and '.join(parts)}{_EN_DURATION[e['duration']]}."
    if name == "grant_keyword":
        phrase = en_target(target, card)
        names = " and ".join(KEYWORDS[part["keyword"]]["en"] for part in e.get("_merged", [e]))
        return f"{_cap(phrase)} gains {names}{_EN_DURATION[e['duration']]}."
    if name in ("gain_credits", "lose_credits", "draw"):
        number, each = _amount(e["amount"], "en", card)
        noun = "card" if name == "draw" else "credit"
        thing = f"{number} {noun}{'' if number == '1' else 's'}"
        verb = {"gain_credits": "gain", "lose_credits": "lose", "draw": "draw"}[name]
        if player == "you":
            return f"{_cap(verb)} {thing}{each}."
        return f"{subject_en} {verb}s {thing}{each}."
    if name == "discard_from_colony":
        number, each = _amount(e["amount"], "en", card)
        top = "the top card" if number == "1" else f"the top {number} cards"
        if player == "you":
            return f"Discard {top} of your colony{each} to your wasteland."
        return f"{subject_en} discards {top} of their colony{each} to their wasteland."
    if name == "discard_from_centre":
        number, each = _amount(e["amount"], "en", card)
        cards = "card" if number == "1" else "cards"
        chooser = e.get("chooser", "owner")
        if player == "you":
            return f"Discard {number} {cards}{each} from your centre to your wasteland."
        if chooser == "you":
            return f"Look at your opponent's centre and choose {number} {cards}{each} from it; your opponent discards {'it' if number == '1' else 'them'} to their wasteland."
        if chooser == "random":
            return f"{subject_en} discards {number} {cards}{each} at random from their centre to their wasteland."
        return f"{subject_en} discards {number} {cards} of their choice{each} from their centre to their wasteland."
    if name == "return_to_colony":
        number, each = _amount(e["amount"], "en", card)
        cards = "card" if number == "1" else "cards"
        return f"Put {number} {cards} of your choice{each} from your {e['from']} on the bottom of your colony."
    if name == "peek":
        zone = e["zone"]
        if zone == "centre":
            return (
                "Look at your opponent's centre."
                if player == "opponent"
                else "Look at your centre."
            )
        if zone == "colony_top":
            number, _ = _amount(e["amount"], "en", card)
            top = "the top card" if number == "1" else f"the top {number} cards"
            whose = "your opponent's colony" if player == "opponent" else "your colony"
            text = f"Look at {top} of {whose}"
            if e.get("reorder"):
                text += ", then put them back in any order"
            return text + "."
        return f"Look at {en_target(target, card)}."
    if name == "search_colony":
        found = en_target(
            {"kind": "card", "filter": e.get("filter", {}), "count": e.get("amount", 1)}, card
        )
        return f"Look at the top {e['depth']} cards of your colony, put {found} from among them into your centre, then shuffle your colony."
    if name == "destroy":
        if target.get("chooser") == "opponent" and target.get("owner") == "opponent":
            singular, plural = _EN[_noun(target)]
            adj = " ".join(_en_adjectives(target))
            adj = f"{adj} " if adj else ""
            count = target.get("count", 1)
            what = (
                f"one of their {adj}{plural}"
                if count == 1
                else f"{_EN_NUM.get(count, count)} of their {adj}{plural}"
            )
            return f"Your opponent destroys {what} of their choice."
        return f"Destroy {en_target(target, card)}{_chooser_note(target, 'en')}."
    if name == "deal_damage":
        number, each = _amount(e["amount"], "en", card)
        phrase = en_target(target, card)
        if _is_multi(target) and target.get("count") != "all":
            phrase = f"each of {phrase}"
        return f"Deal {number} damage{each} to {phrase}{_chooser_note(target, 'en')}."
    if name == "repair_damage":
        phrase = _cap(en_target(target, card))
        if e["amount"] == "all":
            return f"{phrase} regains all of its armour."
        number, each = _amount(e["amount"], "en", card)
        return f"{phrase} regains {number} armour{each}."
    if name == "neutralize":
        return f"Neutralise {en_target(target, card)}."
    if name in ("add_upgrades", "remove_upgrades"):
        number, each = _amount(e["amount"], "en", card)
        noun = "upgrade" if number == "1" else "upgrades"
        phrase = en_target(target, card)
        if name == "add_upgrades":
            return f"Put {number} {noun}{each} on {phrase}."
        return f"Remove {number} {noun}{each} from {phrase}."
    if name == "rotate":
        return f"Turn {en_target(target, card)} {e['to']}{_chooser_note(target, 'en')}."
    if name == "return_to_centre":
        if e.get("from") == "trash":
            return f"Return {en_target(dict(target, owner='any'), card)} from your trash to your centre."
        return (
            f"Return {en_target(target, card)} to its owner's centre{_chooser_note(target, 'en')}."
        )
    if name == "attack_surcharge":
        number, _ = _amount(e["amount"], "en", card)
        credits = "credit" if number == "1" else "credits"
        if e.get("player", "opponent") == "you":
            return f"You must pay {number} additional {credits} to initiate each attack."
        return f"Your opponent must pay {number} additional {credits} to initiate each attack."
    if name == "cost_modifier":
        return _cost_modifier_en(e, card)
    if name == "end_combat":
        return "The combat proceeds at once to its disarm step."
    if name == "choose_one":
        options = [
            _low(_effects_sentence(option, "en", card).rstrip(".")) for option in e["options"]
        ]
        return "Choose one: " + "; or ".join(options) + "."
    if name == "python":
        from engine.effects import PYTHON_FUNCTIONS

        return PYTHON_FUNCTIONS[e["function"]]["en"]
    raise ValueError(f"no English text for effect {name!r}")


def _cost_modifier_en(e, card) -> str:
    amount, duration = e["amount"], e["duration"]
    change = f"{abs(amount)} {'less' if amount < 0 else 'more'}"
    action = e.get("action", "card")
    opponent = e.get("player", "you") == "opponent"
    whose = "your opponent's" if opponent else "your"
    if action == "upgrade":
        plural, singular = (
            f"upgrades {'your opponent buys' if opponent else 'you buy'}",
            f"{whose} next upgrade",
        )
    elif action == "draw":
        plural, singular = (
            f"cards {'your opponent draws' if opponent else 'you draw'}",
            f"{whose} next draw",
        )
    else:
        target = {"kind": "card", "filter": e.get("filter", {})}
        words = " ".join([*_en_adjectives(target), _EN[_noun(target)][1]])
        post = " ".join(_en_posts(target))
        post = f" {post}" if post else ""
        plural = f"{whose} {words}{post}"
        singular = (
            f"{whose} next {' '.join([*_en_adjectives(target), _EN[_noun(target)][0]])}{post}"
        )
    if duration == "next":
        return f"{_cap(singular)} this turn costs {change}."
    prefix = "This turn, " if duration == "until_end_of_turn" else ""
    head = plural if prefix else _cap(plural)
    return f"{prefix}{head} cost {change}."


def _effect_text(effect, lang, card) -> str:
    return _effect_hu(effect, card) if lang == "hu" else _effect_en(effect, card)


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


def _effects_sentence(effects, lang, card) -> str:
    """Several effects as one sentence: "A, majd b." / "A, then b."."""
    parts = [_effect_text(e, lang, card).rstrip(".") for e in _merge(effects)]
    if lang == "hu":
        return parts[0] + "".join(", majd " + _low(p) for p in parts[1:]) + "."
    text = parts[0]
    for before, part in zip(parts, parts[1:], strict=False):
        subject = (
            "you "
            if part.startswith(_EN_IMPERATIVES) and not before.startswith(_EN_IMPERATIVES)
            else ""
        )
        text += ", then " + subject + _low(part)
    return text + "."


# --- abilities ------------------------------------------------------------------------------


def _cost_text(cost, lang, card) -> str:
    parts = []
    if cost.get("credits") is not None:
        parts.append(f"{cost['credits']} [CR]")
    if cost.get("rotate") == "used":
        parts.append("[USED]")
    if cost.get("rotate") == "damaged":
        parts.append("[DAMAGED]")
    if cost.get("sacrifice"):
        parts.append("[SACRIFICE]")
    if cost.get("remove_upgrades"):
        n = cost["remove_upgrades"]
        parts.append(
            f"{n} [UPG] levétele erről a bázisról"
            if lang == "hu"
            else f"remove {n} [UPG] from this base"
        )
    if cost.get("discard_from_centre"):
        n = cost["discard_from_centre"]
        parts.append(
            f"{n} lap eldobása a központodból"
            if lang == "hu"
            else f"discard {_cards(n)} from your centre"
        )
    return ", ".join(parts)


def _trigger_prefix(ability, lang, card) -> str:
    trigger = ability["trigger"]
    ctype = card.get("type")
    if lang == "hu":
        return {
            "static": "",
            "on_play": "" if ctype in ("event", "interrupt") else "Amikor kijátszod ezt a hajót,",
            "on_pay": "Kifizetéskor",
            "start_of_turn": "Kezdő fázisod elején",
            "end_of_payment": "A harc kifizetési lépésének végén",
            "on_attack_declared": "Amikor támadást indítasz,"
            if ability.get("by") == "you"
            else "Amikor az ellenfeled támadást indít,",
            "on_bombard": "Amikor ez a hajó sikeresen bombáz,"
            if ctype == "ship"
            else "Amikor a hordozó hajó sikeresen bombáz,",
            "on_destroyed": "Amikor ez a hajó megsemmisül,"
            if ctype == "ship"
            else "Amikor ez a lap megsemmisül,",
        }[trigger]
    return {
        "static": "",
        "on_play": "" if ctype in ("event", "interrupt") else "When you play this ship,",
        "on_pay": "When paid,",
        "start_of_turn": "At the start of your start phase,",
        "end_of_payment": "At the end of the payment step of a combat,",
        "on_attack_declared": "Whenever you initiate an attack,"
        if ability.get("by") == "you"
        else "Whenever your opponent initiates an attack,",
        "on_bombard": "Whenever this ship bombards successfully,"
        if ctype == "ship"
        else "Whenever the carrying ship bombards successfully,",
        "on_destroyed": "When this ship is destroyed,"
        if ctype == "ship"
        else "When this card is destroyed,",
    }[trigger]


def _condition_text(condition, lang, card, static) -> str:
    kind = condition["kind"]
    if kind == "controls":
        target = dict(condition["target"], count=1)
        n = condition["at_least"]
        if lang == "hu":
            phrase, _ = hu_target(target, card)
            phrase = phrase.split(" ", 1)[1]  # drop "egy"
            lead = "Amíg" if static else "Ha"
            return f"{lead} legalább {n} {phrase} van játékban,"
        singular, plural = _EN[_noun(target)]
        words = " ".join(
            [*(["other"] if target.get("filter", {}).get("other") else []), *_en_adjectives(target)]
        )
        words = f"{words} " if words else ""
        post = " ".join(_en_posts(target))
        post = f" {post}" if post else ""
        noun = singular if n == 1 else plural
        lead = "As long as" if static else "If"
        return f"{lead} you control at least {n} {words}{noun}{post},"
    if kind == "in_combat":
        role = condition["role"]
        if lang == "hu":
            lead = "Amíg" if static else "Ha"
            return {
                "attacker": f"{lead} te vagy a támadó,",
                "defender": f"{lead} te vagy a védő,",
                "any": "Harc közben",
            }[role]
        lead = "As long as" if static else "If"
        return {
            "attacker": f"{lead} you are the attacker,",
            "defender": f"{lead} you are the defender,",
            "any": "During a combat,",
        }[role]
    if kind == "colony_at_most":
        n, player = condition["amount"], condition["player"]
        if lang == "hu":
            whose = "az ellenfeled kolóniájában" if player == "opponent" else "a kolóniádban"
            lead = "Amíg" if static else "Ha"
            return f"{lead} {whose} legfeljebb {n} lap van,"
        whose = "your opponent's colony has" if player == "opponent" else "your colony has"
        lead = "As long as" if static else "If"
        return f"{lead} {whose} {n} or fewer cards,"
    raise ValueError(kind)


def render_ability(ability, lang, card) -> str:
    """One line of rules text for one structured ability."""
    body = _effects_sentence(ability["effects"], lang, card)
    prefix_parts = []
    if ability["trigger"] == "activated":
        cost = _cost_text(ability["cost"], lang, card)
        return f"{_cap(cost)}: {_cap(_prefixed(ability, lang, card, body))}"
    trigger = _trigger_prefix(ability, lang, card)
    if trigger:
        prefix_parts.append(trigger)
    text = body
    if "condition" in ability:
        text = f"{_condition_text(ability['condition'], lang, card, ability['trigger'] == 'static')} {_low(text)}"
    if prefix_parts:
        joined = " ".join(prefix_parts)
        if not joined.endswith(","):
            joined = joined if lang == "hu" else joined + ","
        return _cap(f"{joined} {_low(text)}")
    return _cap(text)


def _prefixed(ability, lang, card, body) -> str:
    if "condition" in ability:
        return f"{_condition_text(ability['condition'], lang, card, False)} {_low(body)}"
    return body


def _uses_x(card) -> bool:
    from engine.effects import iter_effects

    return any(
        e.get("amount") == "X"
        for a in card.get("abilities", [])
        for e in iter_effects(a["effects"])
    )


def render_text(card: dict, lang: str = "hu") -> str:
    """The card's full rules text in "hu" or "en" (lines separated by newlines)."""
    if lang not in ("hu", "en"):
        raise ValueError(f"unknown language {lang!r}")
    lines = []
    keywords = card.get("keywords") or []
    if keywords:
        lines.append(", ".join(KEYWORDS[k][lang] for k in keywords) + ".")
    if card.get("hangar_size"):
        size, n = SHIP_SIZE[card["subtype"]], card["hangar_size"]
        if lang == "hu":
            lines.append(
                f"Hátrány: ez a hajó a hangárban {n} méretnyi helyet foglal el ({size} helyett)."
            )
        else:
            lines.append(
                f"Drawback: this ship takes up {n} size of hangar space instead of {size}."
            )
    for ability in card.get("abilities") or []:
        lines.append(render_ability(ability, lang, card))
    if _uses_x(card):
        if lang == "hu":
            lines.append("(X = a bázison lévő fejlesztések száma a kifizetés pillanatában.)")
        else:
            lines.append("(X is the number of upgrades on this base when it was paid.)")
    return "\n".join(lines)
