"""The effect vocabulary of structured card abilities (the rules engine's contract).

A card's ``abilities`` is a list of abilities; each ability is a dict::

    {"trigger": "activated",                     # when it happens (TRIGGERS)
     "cost": {"credits": 1, "rotate": "used"},   # only for "activated" (COSTS)
     "condition": {"kind": "controls", ...},     # optional (CONDITIONS)
     "effects": [{"effect": "deal_damage",       # applied in order (EFFECTS)
                  "target": {"kind": "ship", "owner": "opponent"},
                  "amount": 1}]}

Like Forge or Fireplace, cards compose a few dozen primitives; a primitive is
added only when at least three cards need it, and the ``python`` escape hatch
names a registered function (PYTHON_FUNCTIONS) for the rest. Pure stdlib.

``validate_ability(ability, card=None)`` returns a list of problems (empty =
valid); given the card, it also checks the card-type rules (R 4.3.5, 4.5.8,
4.5.9, 4.6, 4.7): events and interrupts act when played, research and traps
when paid, missiles at the end of the payment step.
"""

from typing import Any

from .catalog import KEYWORDS, RACES, STATS, SUBTYPE_TYPE, TYPES

# --- triggers ------------------------------------------------------------------

TRIGGERS = {
    "static": "continuous while the card is in play and paid (R 6.8.2); armaments/crew "
    "apply to the carrying ship (R 4.3.3, 4.4.3), passengers also in the canteen (R 4.4.7)",
    "on_play": "an event or interrupt resolves (R 4.6.1, 4.7.1); a ship enters play (R 4.2.1)",
    "on_pay": "a base, crew or armament is paid and turned face up (R 4.5.4); "
    "research (R 4.5.8) and traps (R 4.5.9) act this way",
    "activated": "the controller uses it by paying its cost (R 12.1c, 12.8)",
    "start_of_turn": "at the start of its controller's start phase, after income (R 11.2)",
    "end_of_payment": "at the end of the payment step of a combat it takes part in (R 11.4.3.3); "
    "missiles (R 4.3.5) and modal crew such as Tüzér",
    "on_attack_declared": "when an attack is initiated (R 11.4.1.1); parameter 'by': you|opponent",
    "on_bombard": "after this ship takes part in a successful bombardment (R 11.4.5.8)",
    "on_destroyed": "when this card is destroyed while paid (R 14.1)",
}
TRIGGER_PARAMS = {"on_attack_declared": {"by": ("you", "opponent")}}

# Optional timing window of an activated ability (default: any time, R 12.8).
TIMINGS = ("any", "main_phase", "combat", "firing_step", "bombardment_step")

# --- costs (R 2.4 icons CR, USED, DAMAGED, SACRIFICE, UPG) ------------------------

COSTS = {
    "credits": "int>=0",
    "rotate": ("used", "damaged"),
    "sacrifice": (True,),
    "remove_upgrades": "int>=1",  # from this base
    "discard_from_centre": "int>=1",
}

# --- targets --------------------------------------------------------------------

TARGET_KINDS = (
    "ship",
    "base",
    "crew",
    "armament",
    "card",  # any card in play (narrow with filter.type)
    "interrupt",  # an interrupt card being played (on the chain, R 12.2)
    "event",  # an event card being played
    "player",
    "self",  # this card
    "carrier",  # the ship carrying this armament or crew card
)
CHAIN_KINDS = ("interrupt", "event")
OWNERS = ("you", "opponent", "any")
CHOOSERS = ("you", "opponent")
ORIENTATIONS = ("active", "used", "damaged")

FILTERS = {
    "type": tuple(TYPES),
    "subtype": tuple(SUBTYPE_TYPE),
    "race": tuple(RACES),
    "keyword": tuple(KEYWORDS),
    "paid": (True, False),
    "state": ORIENTATIONS,
    "in_combat": (True,),  # participating in the current combat
    "other": (True,),  # not this card
    "cost_max": "int>=0",
    "cost_min": "int>=0",
    "size_max": "int>=1",
}
TARGET_KEYS = {"kind", "owner", "chooser", "count", "filter"}

# --- value kinds ----------------------------------------------------------------

DURATIONS = ("this_shot", "until_end_of_combat", "until_end_of_turn", "while_in_play")
MODIFIABLE_STATS = (*STATS, "upgrade_limit")
PLAYERS = ("you", "opponent", "each")

# Parameter kinds (name -> (kind, required)):
#   target    a target spec {"kind", "owner", "chooser", "count", "filter"}
#   amount    int >= 0, "X" (upgrades on an X base when paid, R 4.5.5) or
#             {"count_of": <target spec>, "times": int} ("... for each ...")
#   signed    like amount, but an int may be negative (stat and cost changes)
#   all       like amount, or "all" (repair every point of damage)
#   int       int >= 1
#   options   a list of at least two effect lists (choose_one)
#   filter    a filter dict (FILTERS)
#   function  a name in PYTHON_FUNCTIONS;  dict: any object
#   a tuple   exactly one of its values
EFFECTS = {
    "modify_stat": {
        "target": ("target", True),
        "stat": (MODIFIABLE_STATS, True),
        "amount": ("signed", True),
        "duration": (DURATIONS, True),
    },
    "grant_keyword": {
        "target": ("target", True),
        "keyword": (tuple(KEYWORDS), True),
        "duration": (DURATIONS, True),
    },
    "gain_credits": {"player": (PLAYERS, False), "amount": ("amount", True)},
    "lose_credits": {"player": (PLAYERS, False), "amount": ("amount", True)},
    "draw": {"player": (PLAYERS, False), "amount": ("amount", True)},
    "discard_from_colony": {"player": (PLAYERS, False), "amount": ("amount", True)},
    "discard_from_centre": {
        "player": (PLAYERS, False),
        "amount": ("amount", True),
        "chooser": (("owner", "you", "random"), False),
    },
    "return_to_colony": {  # regain "life": cards to the bottom of your colony
        "amount": ("amount", True),
        "from": (("wasteland", "trash"), True),
    },
    "peek": {  # R 16.4: look once
        "zone": (("centre", "colony_top", "face_down"), True),
        "player": (("you", "opponent"), False),
        "amount": ("amount", False),  # colony_top: how many cards
        "target": ("target", False),  # face_down: which card(s)
        "reorder": ((True,), False),  # colony_top: put them back in any order
    },
    "search_colony": {  # like M8 (R 11.3.1) but filtered; the colony is then shuffled and cut
        "depth": ("int", True),
        "filter": ("filter", False),
        "amount": ("int", False),
    },
    "destroy": {"target": ("target", True)},
    "deal_damage": {"target": ("target", True), "amount": ("amount", True)},
    "repair_damage": {"target": ("target", True), "amount": ("all", True)},
    "neutralize": {"target": ("target", True)},  # R 12.5
    "add_upgrades": {"target": ("target", True), "amount": ("amount", True)},
    "remove_upgrades": {"target": ("target", True), "amount": ("amount", True)},
    "rotate": {"target": ("target", True), "to": (ORIENTATIONS, True)},
    "return_to_centre": {"target": ("target", True), "from": (("play", "trash"), False)},
    "attack_surcharge": {"amount": ("amount", True), "player": (("you", "opponent"), False)},
    "cost_modifier": {  # R 1.4: never below 0
        "amount": ("signed", True),  # negative = cheaper
        "player": (("you", "opponent"), False),
        "filter": ("filter", False),  # which cards (type, subtype, race, keyword)
        "action": (("card", "upgrade", "draw"), False),  # card cost, M6 or M7
        "duration": (("while_in_play", "until_end_of_turn", "next"), True),
    },
    "end_combat": {},  # the combat goes straight to its disarm step (R 11.4.6)
    "choose_one": {"options": ("options", True)},
    "python": {"function": ("function", True), "params": ("dict", False)},
}

# Conditions an ability may carry ("if ..." / "as long as ...").
CONDITIONS = {
    "controls": {"target": ("target", True), "at_least": ("int", True)},
    "in_combat": {"role": (("attacker", "defender", "any"), True)},
    "colony_at_most": {"player": (("you", "opponent"), True), "amount": ("int", True)},
}

# The escape hatch: effects too singular for a primitive. The engine registers a
# Python function under each name; the texts are the rules text the renderer prints.
PYTHON_FUNCTIONS = {
    "gain_control_of_ship": {
        "hu": "Az ellenfeled egy legfeljebb 6 creditköltségű hajója a kör végéig a te irányításod alá kerül (felszerelésével együtt); a kör végén visszakerül hozzá.",
        "en": "Gain control of an enemy ship costing 6 or less (with its attachments) until the end of the turn; then it returns to its controller.",
    },
    "copy_event": {
        "hu": "Válassz egy eseményt a szemetedből, és hajtsd végre a hatását, mintha most játszottad volna ki; az esemény a szemetedben marad.",
        "en": "Choose an event in your trash and carry out its effect as if you had just played it; the event stays in your trash.",
    },
}

# --- validation -------------------------------------------------------------------

_AMOUNT_WORDS = ("X",)


def _key(value):
    """A value usable as a dict key for look-ups (malformed input must not raise)."""
    return value if isinstance(value, str) else None


def _one_of(value, options) -> bool:
    """Exact membership: True is not 1, "1" is not 1."""
    return any(value == option and type(value) is type(option) for option in options)


def _is_int(value, minimum=None):
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (minimum is None or value >= minimum)
    )


def validate_target(target, where="target") -> list[str]:
    errors = []
    if not isinstance(target, dict):
        return [f"{where}: must be an object"]
    for key in target:
        if key not in TARGET_KEYS:
            errors.append(f"{where}: unknown key {key!r}")
    kind = target.get("kind")
    if not _one_of(kind, TARGET_KINDS):
        errors.append(f"{where}.kind: {kind!r} is not one of {', '.join(TARGET_KINDS)}")
    if not _one_of(target.get("owner", "any"), OWNERS):
        errors.append(f"{where}.owner: {target.get('owner')!r} is not one of {', '.join(OWNERS)}")
    if not _one_of(target.get("chooser", "you"), CHOOSERS):
        errors.append(
            f"{where}.chooser: {target.get('chooser')!r} is not one of {', '.join(CHOOSERS)}"
        )
    count = target.get("count", 1)
    if not (_is_int(count, 1) or count == "all"):
        errors.append(f"{where}.count: must be an int >= 1 or 'all'")
    if kind in ("self", "carrier") and set(target) - {"kind"}:
        errors.append(f"{where}: a {kind!r} target takes no other keys")
    flt = target.get("filter", {})
    errors += validate_filter(flt, f"{where}.filter")
    if isinstance(flt, dict):
        if "type" in flt and kind != "card":
            errors.append(f"{where}.filter.type: only for kind 'card'")
        sub = flt.get("subtype")
        if _key(sub) in SUBTYPE_TYPE and _key(kind) in TYPES and SUBTYPE_TYPE[sub] != kind:  # type: ignore[index]
            errors.append(f"{where}.filter.subtype: {sub!r} is not a subtype of {kind!r}")
    return errors


def _validate_keyed(obj, table: dict, kind: str, where: str) -> list[str]:
    """An object whose keys come from `table`, each value a listed option or "int>=N"."""
    errors = []
    for key, value in obj.items():
        spec = table.get(key)
        if spec is None:
            errors.append(f"{where}: unknown {kind} {key!r}")
        elif isinstance(spec, tuple):
            if not _one_of(value, spec):
                errors.append(f"{where}.{key}: {value!r} is not allowed")
        elif not _is_int(value, int(spec.split(">=")[1])):
            errors.append(f"{where}.{key}: must be {spec}")
    return errors


def validate_filter(flt, where="filter") -> list[str]:
    if not isinstance(flt, dict):
        return [f"{where}: must be an object"]
    return _validate_keyed(flt, FILTERS, "filter", where)


def _validate_amount(value, where, signed=False) -> list[str]:
    if _is_int(value) and (signed or value >= 0):
        return []
    if value in _AMOUNT_WORDS:
        return []
    if isinstance(value, dict) and set(value) <= {"count_of", "times"} and "count_of" in value:
        errors = validate_target(value["count_of"], f"{where}.count_of")
        if not _is_int(value.get("times", 1), 1):
            errors.append(f"{where}.times: must be an int >= 1")
        return errors
    return [f"{where}: must be an int{'' if signed else ' >= 0'}, 'X' or {{'count_of': ...}}"]


def _validate_param(kind, value, where) -> list[str]:
    if isinstance(kind, tuple):
        if not _one_of(value, kind):
            return [f"{where}: {value!r} is not one of {', '.join(map(str, kind))}"]
        return []
    if kind == "target":
        return validate_target(value, where)
    if kind == "amount":
        return _validate_amount(value, where)
    if kind == "signed":
        return _validate_amount(value, where, signed=True)
    if kind == "all":
        return [] if value == "all" else _validate_amount(value, where)
    if kind == "int":
        return [] if _is_int(value, 1) else [f"{where}: must be an int >= 1"]
    if kind == "filter":
        return validate_filter(value, where)
    if kind == "dict":
        return [] if isinstance(value, dict) else [f"{where}: must be an object"]
    if kind == "function":
        return (
            []
            if _key(value) in PYTHON_FUNCTIONS
            else [f"{where}: {value!r} is not a registered function"]
        )
    if kind == "options":
        if not isinstance(value, list) or len(value) < 2:
            return [f"{where}: must be a list of at least two effect lists"]
        errors = []
        for i, option in enumerate(value):
            errors += validate_effects(option, f"{where}[{i}]")
        return errors
    raise ValueError(kind)  # pragma: no cover - a bug in EFFECTS


def validate_effect(effect, where="effect") -> list[str]:
    if not isinstance(effect, dict):
        return [f"{where}: must be an object"]
    name = effect.get("effect")
    spec: Any = EFFECTS.get(_key(name))
    if spec is None:
        return [f"{where}.effect: unknown effect {name!r}"]
    errors = []
    for key in effect:
        if key != "effect" and key not in spec:
            errors.append(f"{where}: {name} takes no parameter {key!r}")
    for key, (kind, required) in spec.items():
        if key not in effect:
            if required:
                errors.append(f"{where}: {name} needs {key!r}")
            continue
        value = effect[key]
        errors += _validate_param(kind, value, f"{where}.{key}")
    target_kind = (
        effect.get("target", {}).get("kind") if isinstance(effect.get("target"), dict) else None
    )
    if name == "neutralize" and target_kind not in CHAIN_KINDS:
        errors.append(f"{where}: neutralize targets an interrupt or an event (R 12.5)")
    if name in ("add_upgrades", "remove_upgrades") and target_kind not in ("base", "self"):
        errors.append(f"{where}: upgrades go on bases (R 4.5.2)")
    if (
        name == "modify_stat"
        and effect.get("stat") == "upgrade_limit"
        and target_kind not in ("base", "self")
    ):
        errors.append(f"{where}: only bases have an upgrade limit (R 5.3.1)")
    if name == "peek":
        if effect.get("zone") == "face_down" and "target" not in effect:
            errors.append(f"{where}: peek at a face-down card needs a target")
        if effect.get("zone") == "colony_top" and "amount" not in effect:
            errors.append(f"{where}: peek at the colony needs an amount")
    return errors


def validate_effects(effects, where="effects") -> list[str]:
    if not isinstance(effects, list) or not effects:
        return [f"{where}: must be a non-empty list"]
    errors = []
    for i, effect in enumerate(effects):
        errors += validate_effect(effect, f"{where}[{i}]")
    return errors


def validate_condition(condition, where="condition") -> list[str]:
    if not isinstance(condition, dict):
        return [f"{where}: must be an object"]
    kind = condition.get("kind")
    spec: Any = CONDITIONS.get(_key(kind))
    if spec is None:
        return [f"{where}.kind: unknown condition {kind!r}"]
    errors = [
        f"{where}: {kind} takes no parameter {key!r}"
        for key in condition
        if key != "kind" and key not in spec
    ]
    for key, (param_kind, required) in spec.items():
        if key in condition:
            errors += _validate_param(param_kind, condition[key], f"{where}.{key}")
        elif required:
            errors.append(f"{where}: {kind} needs {key!r}")
    if kind == "controls" and isinstance(condition.get("target"), dict):
        if condition["target"].get("owner") != "you":
            errors.append(f"{where}.target.owner: 'controls' counts your own cards")
    return errors


def validate_cost(cost, where="cost") -> list[str]:
    if not isinstance(cost, dict) or not cost:
        return [f"{where}: must be a non-empty object"]
    return _validate_keyed(cost, COSTS, "cost", where)


def iter_effects(effects):
    """Every effect in a list, including those nested in choose_one options."""
    for effect in effects or ():
        yield effect
        if isinstance(effect, dict) and effect.get("effect") == "choose_one":
            for option in effect.get("options") or ():
                yield from iter_effects(option)


def _iter_targets(effects):
    for effect in iter_effects(effects):
        if isinstance(effect, dict) and isinstance(effect.get("target"), dict):
            yield effect["target"]


def validate_ability(ability, card=None) -> list[str]:
    """Problems of one structured ability against the vocabulary (and the card, if given)."""
    if not isinstance(ability, dict):
        return ["ability: must be an object"]
    errors = []
    allowed = {
        "trigger",
        "cost",
        "condition",
        "timing",
        "effects",
        *TRIGGER_PARAMS.get(_key(ability.get("trigger")), {}),
    }
    for key in ability:
        if key not in allowed:
            errors.append(f"ability: unknown key {key!r}")
    trigger = _key(ability.get("trigger"))
    if trigger not in TRIGGERS:
        errors.append(f"trigger: {trigger!r} is not one of {', '.join(TRIGGERS)}")
    for key, values in TRIGGER_PARAMS.get(trigger, {}).items():
        if not _one_of(ability.get(key), values):
            errors.append(f"{key}: {trigger} needs one of {', '.join(values)}")
    if trigger == "activated":
        errors += validate_cost(ability.get("cost"))
        if not _one_of(ability.get("timing", "any"), TIMINGS):
            errors.append(f"timing: {ability.get('timing')!r} is not one of {', '.join(TIMINGS)}")
    else:
        if "cost" in ability:
            errors.append("cost: only activated abilities have a cost")
        if "timing" in ability:
            errors.append("timing: only activated abilities have a timing")
    if "condition" in ability:
        errors += validate_condition(ability["condition"])
    effects = ability.get("effects")
    errors += validate_effects(effects)
    if errors or card is None:
        return errors
    return _card_context_problems(ability, card)


def _card_context_problems(ability, card) -> list[str]:
    errors = []
    ctype, subtype, trigger = card.get("type"), card.get("subtype"), ability["trigger"]
    effects = list(iter_effects(ability["effects"]))
    if ctype in ("event", "interrupt") and trigger != "on_play":
        errors.append(f"trigger: {ctype}s act when played (R 4.6.1, 4.7.1), not {trigger!r}")
    if trigger == "on_pay" and ctype not in ("base", "crew", "armament"):
        errors.append(
            "trigger: only bases, crew and armaments are paid after being played (R 6.8.3)"
        )
    if trigger == "on_play" and ctype not in ("ship", "event", "interrupt"):
        errors.append("trigger: bases, crew and armaments act when paid, not when played (R 6.8.2)")
    if subtype in ("research", "trap") and trigger != "on_pay":
        errors.append(f"trigger: a {subtype} acts when paid and then leaves play (R 4.5.8, 4.5.9)")
    if subtype == "missile" and trigger != "end_of_payment":
        errors.append("trigger: a missile acts at the end of the payment step (R 4.3.5)")
    if trigger in ("on_bombard",) and ctype not in ("ship", "armament", "crew"):
        errors.append("trigger: only ships (and what they carry) bombard (R 11.4.5)")
    for target in _iter_targets(ability["effects"]):
        if target.get("kind") == "carrier" and ctype not in ("armament", "crew"):
            errors.append("target: only armaments and crew have a carrying ship")
    if any(effect.get("amount") == "X" for effect in effects) and card.get("upgrade_limit") != "X":
        errors.append("amount: 'X' needs a base with upgrade limit X (R 4.5.5)")
    for effect in effects:
        if effect.get("duration") == "while_in_play" and trigger != "static":
            errors.append("duration: 'while_in_play' belongs to static abilities")
        if trigger == "static" and effect.get("duration") not in (None, "while_in_play"):
            errors.append("duration: a static ability lasts while the card is in play")
    return errors


def validate_card_abilities(card) -> list[str]:
    """All problems of a card's abilities, each prefixed with its index."""
    errors = []
    for i, ability in enumerate(card.get("abilities", [])):
        errors += [f"abilities[{i}].{e}" for e in validate_ability(ability, card)]
    return errors


def primitive_usage(cards) -> dict[str, int]:
    """How many cards use each effect primitive (a primitive needs >= 3, python excepted)."""
    usage = {name: 0 for name in EFFECTS}
    for card in cards:
        names = {
            e.get("effect")
            for a in card.get("abilities", [])
            for e in iter_effects(a.get("effects"))
        }
        for name in names & set(usage):
            usage[name] += 1
    return usage


def targeted(eff: dict) -> bool:
    """Is this effect's target chosen when the card is played (and so can be lost)?"""
    spec = eff.get("target")
    if not isinstance(spec, dict):
        return False
    if spec["kind"] in ("self", "carrier"):
        return False
    if spec.get("count", 1) == "all" or spec.get("chooser", "you") != "you":
        return False
    if eff["effect"] == "return_to_centre" and eff.get("from") == "trash":
        return False
    return True
