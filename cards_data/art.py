"""Card art: an illustration generated from a card's own data, deterministic, as SVG.

The race gives the palette, the subtype a silhouette, the clan a mark in the corner, and
the card's code seeds the star field, so the same card always gets the same picture and
no two cards of a race look alike. Pure: no Django, no I/O.
"""

import hashlib
from functools import lru_cache
from xml.sax.saxutils import quoteattr

WIDTH, HEIGHT = 300, 140
RACE_COLOURS = {  # the same palette as static/css/site.css
    "human": "#3b82f6",
    "xeno": "#6b7280",
    "insectoid": "#a16207",
    "carnoplantus": "#16a34a",
    "cerebrite": "#a855f7",
    "zarg": "#dc2626",
    "triciplite": "#0891b2",
    "space_shark": "#1e3a8a",
}
NO_RACE = "#64748b"

# One silhouette per subtype (paths drawn around the centre of the box); a type's shape
# stands in for a subtype without its own.
SHIP = "M110 70 L190 58 L215 70 L190 82 Z"
SILHOUETTES = {
    "scout": "M125 70 L175 62 L190 70 L175 78 Z",
    "fighter": "M115 70 L165 50 L200 70 L165 90 Z M150 70 L120 52 L128 70 L120 88 Z",
    "cruiser": "M95 70 L130 56 L200 58 L225 70 L200 82 L130 84 Z",
    "destroyer": "M80 70 L120 48 L210 52 L240 70 L210 88 L120 92 Z M150 48 L170 36 L185 50 Z",
    "weapon": "M105 64 H205 V76 H105 Z M120 76 H140 V96 H120 Z",
    "shield": "M150 38 L185 50 Q185 90 150 104 Q115 90 115 50 Z",
    "item": "M125 48 H175 V96 H125 Z M125 60 H175",
    "missile": "M100 70 L120 60 H195 L215 70 L195 80 H120 Z M120 60 L108 48 M120 80 L108 92",
    "captain": "M150 38 A14 14 0 1 1 149.9 38 Z M118 104 Q150 56 182 104 Z M140 30 L150 22 L160 30",
    "personnel": "M150 40 A13 13 0 1 1 149.9 40 Z M120 104 Q150 58 180 104 Z",
    "passenger": "M150 44 A11 11 0 1 1 149.9 44 Z M126 104 Q150 64 174 104 Z",
    "robot": "M134 36 H166 V62 H134 Z M124 66 H176 V104 H124 Z M150 36 V28",
    "research": "M110 100 H190 V92 Q150 40 110 92 Z",
    "building": "M110 100 V60 H130 V44 H150 V70 H170 V52 H190 V100 Z",
    "bunker": "M100 100 L115 76 H185 L200 100 Z",
    "trap": "M110 100 L150 40 L190 100 Z M150 60 V84",
    "attack": "M150 30 L162 62 L196 62 L168 80 L180 110 L150 92 L120 110 L132 80 L104 62 L138 62 Z",
    "response": "M160 30 L130 76 H152 L138 112 L178 60 H154 Z",
    "resource": "M150 40 L180 70 L150 100 L120 70 Z",
}
TYPE_SILHOUETTES = {"ship": SHIP, "base": SILHOUETTES["building"], "crew": SILHOUETTES["personnel"]}
DEFAULT = "M150 44 A26 26 0 1 1 149.9 44 Z"
CLAN_MARKS = {
    "galactic_trade": '<circle cx="278" cy="22" r="11" fill="none" stroke="#f5b942" stroke-width="3"/>'
    '<path d="M278 14 V30 M273 18 H283 M273 26 H283" stroke="#f5b942" stroke-width="2"/>',
    "steel_eagles": '<path d="M264 16 L278 28 L292 16 M264 24 L278 36 L292 24" fill="none" '
    'stroke="#e5e7eb" stroke-width="3"/>',
    "granite_snakes": '<path d="M266 30 Q272 14 278 24 T290 18" fill="none" stroke="#a3a3a3" '
    'stroke-width="4" stroke-linecap="round"/>',
}


def _stars(seed: bytes) -> str:
    """A field of small stars placed by the card's own hash."""
    dots = []
    for i in range(0, 30, 3):
        x, y, r = seed[i] * WIDTH // 256, seed[i + 1] * HEIGHT // 256, 0.6 + seed[i + 2] % 3 * 0.5
        dots.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="#fff" opacity=".7"/>')
    return "".join(dots)


@lru_cache(maxsize=512)
def card_svg(code: str, race: str, type_: str, subtype: str, clan: str, title: str) -> str:
    """The card's illustration; the same arguments always give the same SVG."""
    seed = hashlib.sha256(f"{code}|{race}|{subtype}".encode()).digest()
    colour = RACE_COLOURS.get(race, NO_RACE)
    shape = SILHOUETTES.get(subtype) or TYPE_SILHOUETTES.get(type_, DEFAULT)
    tilt = seed[31] % 21 - 10
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label={quoteattr(title)}>'
        f'<defs><radialGradient id="g" cx="{30 + seed[30] % 40}%" cy="40%" r="80%">'
        f'<stop offset="0" stop-color="{colour}"/><stop offset="1" stop-color="#0b0d1c"/>'
        "</radialGradient></defs>"
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="url(#g)"/>'
        f"{_stars(seed)}"
        f'<g transform="rotate({tilt} 150 70)"><path d="{shape}" fill="#0b0d1c" '
        f'fill-opacity=".85" stroke="{colour}" stroke-width="2.5" stroke-linejoin="round"/></g>'
        f"{CLAN_MARKS.get(clan, '')}"
        "</svg>"
    )
