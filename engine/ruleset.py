"""Game ruleset: the configurable points of RULES.md §22 with their defaults (R 0.6).

Every flag is named as in §22. A value the engine does not implement yet raises
``ValueError`` when the ruleset is built, so nobody plays a variant silently
treated as the default.
"""

from dataclasses import asdict, dataclass, fields

from .deck import RACE_RULES


@dataclass(frozen=True)
class Ruleset:
    # R 10.3 / AMB-04: the initial pool; R 10.6: the credits of game turns 1-4, then `income`.
    initial_credits: int = 5
    turn_credits: tuple = (1, 2, 3, 4)
    income: int = 5
    opening_hand: int = 5  # R 10.4
    hand_limit: int = 5  # R 11.5.1
    hangar_limit: int = 12  # R 11.5.2
    credit_cap: int = 20  # R 11.5.3
    # AMB-03: "active" for boarding/attacking/defending means orientation only.
    active_requires_paid_for_boarding: bool = False
    hangar_limit_on_play: bool = False  # AMB-10
    allow_responses_during_resolution: bool = False  # AMB-13 (only False implemented)
    neutralize_payment_removes_card: bool = False  # AMB-14: True = the card goes to the trash
    passenger_exempt_from_return_used: bool = False  # AMB-15
    armour_reset_scope: str = "all"  # AMB-19: "all" | "own"
    rotate_shooter_on_declare: bool = True  # AMB-21
    cloak_blocks_fire: bool = False  # AMB-22
    burst_cap_by_armour: bool = True  # AMB-23
    burst_return_fire_scope: str = "always"  # AMB-24: "always" | "when_firing"
    trap_payable_vs_stealth: bool = False  # AMB-26
    heavy_weapons_cap: str = "total"  # AMB-27: "total" | "increase"
    ordnance_cap: str = "total"  # AMB-28: "total" | "increase"
    bluff_slots: tuple = ("surface", "canteen", "ship")  # AMB-39
    race_rule: str = "original"  # R 9.5 (deck legality)
    simplified_combat: bool = False  # R 17.2: alternate firing, no speed, no return fire
    cut: str = "auto"  # R 16.1: "auto" (engine cuts at random) | "choose" (the opponent decides)
    check_decks: bool = True  # new_game validates both colonies with engine.deck (R 9)
    turn_limit: int = 0  # 0 = none; otherwise the game stops unfinished after this turn
    # --- multiplayer (R 17.1; docs/rulings.md "Multiplayer"). Left out of to_dict while at
    # their defaults, so a two-player state dumps and hashes exactly as before.
    max_players: int = 6  # AMB-54: 3 up to this many at a multiplayer table
    elimination_repeat: bool = False  # AMB-44: True = check the new neighbours again at once
    combat_opponent: str = "combatant"  # "combatant" | "choose": "the opponent" in a combat
    static_opponent: str = "neighbours"  # "neighbours" | "all": whom a static "opponent" means
    response_order: str = "from_actor"  # "from_actor" | "from_active": after a response
    responders: str = "all"  # "all" | "combatants": who may answer inside a combat

    def __post_init__(self):
        choices = {
            "armour_reset_scope": ("all", "own"),
            "burst_return_fire_scope": ("always", "when_firing"),
            "heavy_weapons_cap": ("total", "increase"),
            "ordnance_cap": ("total", "increase"),
            "race_rule": RACE_RULES,
            "cut": ("auto", "choose"),
            "combat_opponent": ("combatant", "choose"),
            "static_opponent": ("neighbours", "all"),
            "response_order": ("from_actor", "from_active"),
            "responders": ("all", "combatants"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}")
        if not set(self.bluff_slots) <= {"surface", "canteen", "ship"}:
            raise ValueError("bluff_slots: only surface, canteen, ship")
        if not 3 <= self.max_players <= 6:
            raise ValueError("max_players: 3 to 6 (AMB-54)")
        if self.allow_responses_during_resolution:
            raise ValueError("allow_responses_during_resolution=True is not implemented yet")

    def to_dict(self) -> dict:
        data = asdict(self)
        for key in _QUIET_DEFAULTS:
            if data[key] == _FIELD_DEFAULTS[key]:
                del data[key]
        for key, value in data.items():
            if isinstance(value, tuple):
                data[key] = list(value)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Ruleset":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown ruleset flags: {', '.join(sorted(unknown))}")
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})  # type: ignore[arg-type]


_FIELD_DEFAULTS = {f.name: f.default for f in fields(Ruleset)}
# not dumped while at their defaults: two-player hashes stay as they were (a module constant,
# not a class attribute: the compiled engine's Ruleset has only its fields)
_QUIET_DEFAULTS = (
    "max_players",
    "elimination_repeat",
    "combat_opponent",
    "static_opponent",
    "response_order",
    "responders",
)
DEFAULT = Ruleset()
