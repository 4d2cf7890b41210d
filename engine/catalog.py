"""Game constants of KGK: races, card types, rarities, clans, keywords, editions.

Pure data (no Django, no third-party imports). Identifiers follow RULES.md §23;
every entry carries its Hungarian (``hu``) and English (``en``) name.
"""

# R 7.1 — the eight races.
RACES = {
    "human": {"hu": "Ember", "en": "Human"},
    "xeno": {"hu": "Xeno", "en": "Xeno"},
    "insectoid": {"hu": "Inszektoid", "en": "Insectoid"},
    "carnoplantus": {"hu": "Karnoplantusz", "en": "Carnoplantus"},
    "cerebrite": {"hu": "Cerebrita", "en": "Cerebrite"},
    "zarg": {"hu": "Zarg", "en": "Zarg"},
    "triciplite": {"hu": "Triciplita", "en": "Triciplite"},
    "space_shark": {"hu": "Űrcápa", "en": "Space Shark"},
}

# R 7.1 — the four opposing pairs; a colony never holds both races of a pair (R 9.3).
RACE_PAIRS = (
    ("human", "xeno"),
    ("insectoid", "carnoplantus"),
    ("cerebrite", "zarg"),
    ("triciplite", "space_shark"),
)
OPPOSING_RACE = {a: b for a, b in RACE_PAIRS} | {b: a for a, b in RACE_PAIRS}

# R 4.1 / §23 — six types, four subtypes each (in rulebook order).
TYPES = {
    "ship": {"hu": "Űrhajó", "en": "Ship"},
    "armament": {"hu": "Fegyverzet", "en": "Armament"},
    "crew": {"hu": "Legénység", "en": "Crew"},
    "base": {"hu": "Bázis", "en": "Base"},
    "event": {"hu": "Esemény", "en": "Event"},
    "interrupt": {"hu": "Megszakítás", "en": "Interrupt"},
}

SUBTYPES = {
    "ship": {
        "scout": {"hu": "felderítő", "en": "Scout"},
        "fighter": {"hu": "vadászgép", "en": "Fighter"},
        "cruiser": {"hu": "cirkáló", "en": "Cruiser"},
        "destroyer": {"hu": "romboló", "en": "Destroyer"},
    },
    "armament": {
        "weapon": {"hu": "fegyver", "en": "Weapon"},
        "shield": {"hu": "pajzs", "en": "Shield"},
        "item": {"hu": "tárgy", "en": "Item"},
        "missile": {"hu": "rakéta", "en": "Missile"},
    },
    "crew": {
        "captain": {"hu": "kapitány", "en": "Captain"},
        "personnel": {"hu": "személyzet", "en": "Personnel"},
        "passenger": {"hu": "utas", "en": "Passenger"},
        "robot": {"hu": "robot", "en": "Robot"},
    },
    "base": {
        "research": {"hu": "kutatás", "en": "Research"},
        "building": {"hu": "épület", "en": "Building"},
        "bunker": {"hu": "bunker", "en": "Bunker"},
        "trap": {"hu": "csapda", "en": "Trap"},
    },
    "event": {
        "attack": {"hu": "támadás", "en": "Attack"},
        "response": {"hu": "reagálás", "en": "Response"},
        "resource": {"hu": "erőforrás", "en": "Resource"},
        "special": {"hu": "speciális", "en": "Special"},
    },
    "interrupt": {
        "start": {"hu": "kezdő", "en": "Start"},
        "combat": {"hu": "harc", "en": "Combat"},
        "reaction": {"hu": "reakció", "en": "Reaction"},
        "general": {"hu": "általános", "en": "General"},
    },
}

# subtype identifier -> type identifier (subtype identifiers are unique, R 4.1).
SUBTYPE_TYPE = {sub: type_ for type_, subs in SUBTYPES.items() for sub in subs}

# R 4.2.3 — ship size by subtype (capacity = size, R 4.2.4).
SHIP_SIZE = {"scout": 1, "fighter": 2, "cruiser": 3, "destroyer": 4}

# R 5.1.1 — ship values in printed order SPD-FP-ARM-BMB (R 21.2).
STATS = {
    "speed": {"hu": "sebesség", "en": "speed", "icon": "SPD"},
    "firepower": {"hu": "tűzerő", "en": "firepower", "icon": "FP"},
    "armour": {"hu": "páncélzat", "en": "armour", "icon": "ARM"},
    "bombardment": {"hu": "bombázás", "en": "bombardment", "icon": "BMB"},
}

# R 8.1 — rarity levels, most to least frequent; `weight` is the relative frequency in
# packs (30 : 10 : 3, AMB-42); ultra-rares never come from packs (R 8.1.2).
RARITIES = {
    "common": {"hu": "gyakori", "en": "Common", "symbol": "moon", "weight": 30},
    "uncommon": {"hu": "nem gyakori", "en": "Uncommon", "symbol": "planet", "weight": 10},
    "rare": {"hu": "ritka", "en": "Rare", "symbol": "sun", "weight": 3},
    "ultra_rare": {"hu": "ultraritka", "en": "Ultra-rare", "symbol": "galaxy", "weight": 0},
}

# R 8.2 — clans (no rules effect in the first edition).
CLANS = {
    "galactic_trade": {"hu": "Galactic Trade", "en": "Galactic Trade"},
    "steel_eagles": {"hu": "Acél Sasok", "en": "Steel Eagles"},
    "granite_snakes": {"hu": "Gránit Kígyók", "en": "Granite Snakes"},
}

# R 13 — the eight ship abilities (keywords).
KEYWORDS = {
    "cloak": {"hu": "Álcázás", "en": "Cloak"},
    "rapid_fire": {"hu": "Gyorstüzelés", "en": "Rapid fire"},
    "burst_fire": {"hu": "Sorozatlövés", "en": "Burst fire"},
    "formation": {"hu": "Kötelék", "en": "Formation"},
    "stealth": {"hu": "Lopakodás", "en": "Stealth"},
    "heavy_weapons": {"hu": "Nehézfegyverzet", "en": "Heavy weapons"},
    "repair": {"hu": "Javítás", "en": "Repair"},
    "ordnance": {"hu": "Tűzszerészet", "en": "Ordnance"},
}

# R 8.3 — editions; card codes are "<prefix>-<nnn>".
EDITIONS = {
    "first": {"hu": "Első kiadás", "en": "First edition", "prefix": "KG1"},
}
