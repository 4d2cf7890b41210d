"""Rules text of a card, generated from its keywords and structured abilities.

``render_text(card, lang)`` returns the text printed on the card in Hungarian
("hu") or English ("en"). The set files hold no hand-written rules text, so the
text can never disagree with what the engine executes (engine/effects.py).

Every piece is built in both languages at once (a `Phrase`): the sentence of each
effect primitive comes from the registry in cardtext_effects.py, the words from
cardtext_words.py; this module assembles abilities and cards.

Conventions: costs of activated abilities use the icon tokens of R 2.4
(``2 [CR], [USED]: ...``); everything else is in words. One ability per line;
the keyword line (R 13) comes first. Pure Python, no Django.
"""

from engine.catalog import KEYWORDS, SHIP_SIZE
from engine.effects import iter_effects

from .cardtext_effects import effects_sentence
from .cardtext_words import (
    EN_NOUNS,
    NO_PHRASE,
    Phrase,
    cap,
    cards,
    en_adjectives,
    en_posts,
    hu_target,
    low,
    noun_of,
    words_after,
    words_before,
)

LANGUAGES = ("hu", "en")

# --- costs of activated abilities (R 2.4 icon tokens) ----------------------------------


def _cost_phrase(cost) -> Phrase:
    parts = []
    if cost.get("credits") is not None:
        parts.append(_same(f"{cost['credits']} [CR]"))
    if cost.get("rotate") == "used":
        parts.append(_same("[USED]"))
    if cost.get("rotate") == "damaged":
        parts.append(_same("[DAMAGED]"))
    if cost.get("sacrifice"):
        parts.append(_same("[SACRIFICE]"))
    if cost.get("remove_upgrades"):
        n = cost["remove_upgrades"]
        parts.append(
            Phrase(f"{n} [UPG] levétele erről a bázisról", f"remove {n} [UPG] from this base")
        )
    if cost.get("discard_from_centre"):
        n = cost["discard_from_centre"]
        parts.append(
            Phrase(f"{n} lap eldobása a központodból", f"discard {cards(n)} from your centre")
        )
    return Phrase.zip(lambda *texts: ", ".join(texts), *parts)


def _same(text: str) -> Phrase:
    """A piece that reads the same in both languages (an icon token, a number)."""
    return Phrase(text, text)


# --- triggers ----------------------------------------------------------------------------


def _trigger_phrase(ability, card) -> Phrase:
    trigger, ctype = ability["trigger"], card.get("type")
    if trigger in ("static", "activated"):
        return NO_PHRASE
    if trigger == "on_play":
        if ctype in ("event", "interrupt"):
            return NO_PHRASE
        return Phrase("Amikor kijátszod ezt a hajót,", "When you play this ship,")
    if trigger == "on_attack_declared":
        if ability.get("by") == "you":
            return Phrase("Amikor támadást indítasz,", "Whenever you initiate an attack,")
        return Phrase(
            "Amikor az ellenfeled támadást indít,", "Whenever your opponent initiates an attack,"
        )
    if trigger == "on_bombard":
        if ctype == "ship":
            return Phrase(
                "Amikor ez a hajó sikeresen bombáz,", "Whenever this ship bombards successfully,"
            )
        return Phrase(
            "Amikor a hordozó hajó sikeresen bombáz,",
            "Whenever the carrying ship bombards successfully,",
        )
    if trigger == "on_destroyed":
        if ctype == "ship":
            return Phrase("Amikor ez a hajó megsemmisül,", "When this ship is destroyed,")
        return Phrase("Amikor ez a lap megsemmisül,", "When this card is destroyed,")
    return _FIXED_TRIGGERS[trigger]


_FIXED_TRIGGERS = {
    "on_pay": Phrase("Kifizetéskor", "When paid,"),
    "start_of_turn": Phrase("Kezdő fázisod elején", "At the start of your start phase,"),
    "end_of_payment": Phrase(
        "A harc kifizetési lépésének végén", "At the end of the payment step of a combat,"
    ),
}

# --- conditions --------------------------------------------------------------------------


def _condition_phrase(condition, card, static: bool) -> Phrase:
    """ "As long as ..." for a static ability, "If ..." otherwise."""
    lead = Phrase("Amíg", "As long as") if static else Phrase("Ha", "If")
    kind = condition["kind"]
    if kind == "controls":
        return _controls(condition, card, lead)
    if kind == "in_combat":
        return _in_combat(condition["role"], lead)
    if kind == "colony_at_most":
        n, opponent = condition["amount"], condition["player"] == "opponent"
        hu_whose = "az ellenfeled kolóniájában" if opponent else "a kolóniádban"
        en_whose = "your opponent's colony has" if opponent else "your colony has"
        return Phrase(
            f"{lead.hu} {hu_whose} legfeljebb {n} lap van,",
            f"{lead.en} {en_whose} {n} or fewer cards,",
        )
    raise ValueError(kind)


def _controls(condition, card, lead: Phrase) -> Phrase:
    target = dict(condition["target"], count=1)
    n = condition["at_least"]
    phrase, _ = hu_target(target, card)
    phrase = phrase.split(" ", 1)[1]  # drop "egy"
    singular, plural = EN_NOUNS[noun_of(target)]
    other = ["other"] if target.get("filter", {}).get("other") else []
    words = words_before([*other, *en_adjectives(target)])
    post = words_after(en_posts(target))
    noun = singular if n == 1 else plural
    return Phrase(
        f"{lead.hu} legalább {n} {phrase} van játékban,",
        f"{lead.en} you control at least {n} {words}{noun}{post},",
    )


def _in_combat(role: str, lead: Phrase) -> Phrase:
    return {
        "attacker": Phrase(f"{lead.hu} te vagy a támadó,", f"{lead.en} you are the attacker,"),
        "defender": Phrase(f"{lead.hu} te vagy a védő,", f"{lead.en} you are the defender,"),
        "any": Phrase("Harc közben", "During a combat,"),
    }[role]


# --- abilities and cards -------------------------------------------------------------------


def ability_phrase(ability, card) -> Phrase:
    """One line of rules text for one structured ability, in both languages."""
    body = effects_sentence(ability["effects"], card)
    activated = ability["trigger"] == "activated"
    if "condition" in ability:
        static = ability["trigger"] == "static"
        condition = _condition_phrase(ability["condition"], card, static)
        body = Phrase.zip(lambda lead, text: f"{lead} {low(text)}", condition, body)
    if activated:
        cost = _cost_phrase(ability["cost"])
        return Phrase.zip(lambda price, text: f"{cap(price)}: {cap(text)}", cost, body)
    trigger = _trigger_phrase(ability, card)
    return Phrase.zip(
        lambda when, text: cap(f"{when} {low(text)}") if when else cap(text), trigger, body
    )


def _uses_x(card) -> bool:
    return any(
        e.get("amount") == "X"
        for a in card.get("abilities", [])
        for e in iter_effects(a["effects"])
    )


def card_phrases(card: dict) -> list[Phrase]:
    """The card's rules text, one `Phrase` per line."""
    lines = []
    keywords = card.get("keywords") or []
    if keywords:
        lines.append(
            Phrase(*(", ".join(KEYWORDS[k][lang] for k in keywords) + "." for lang in LANGUAGES))
        )
    if card.get("hangar_size"):
        size, n = SHIP_SIZE[card["subtype"]], card["hangar_size"]
        lines.append(
            Phrase(
                f"Hátrány: ez a hajó a hangárban {n} méretnyi helyet foglal el ({size} helyett).",
                f"Drawback: this ship takes up {n} size of hangar space instead of {size}.",
            )
        )
    for ability in card.get("abilities") or []:
        lines.append(ability_phrase(ability, card))
    if _uses_x(card):
        lines.append(
            Phrase(
                "(X = a bázison lévő fejlesztések száma a kifizetés pillanatában.)",
                "(X is the number of upgrades on this base when it was paid.)",
            )
        )
    return lines


def card_text(card: dict) -> Phrase:
    """The card's full rules text in both languages (lines separated by newlines)."""
    return Phrase.zip(lambda *lines: "\n".join(lines), *card_phrases(card))


def render_text(card: dict, lang: str = "hu") -> str:
    """The card's full rules text in "hu" or "en" (lines separated by newlines)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    return card_text(card)[lang]
