"""Whether the site takes a person's forced decisions and offers combat suggestions (issue
34; engine/assist.py says what is forced and what to suggest, matches/services.py
`take_forced` applies it, matches/selectors.py `match_payload` hands the suggestion out)."""

import os

from django.conf import settings


def assisting() -> bool:
    """On unless settings.KGK_ASSIST or the environment's KGK_ASSIST says off:
    bench/RESULTS.md measures the clicks of a game both ways."""
    value = getattr(settings, "KGK_ASSIST", None)
    if value is None:
        value = os.environ.get("KGK_ASSIST", "1").lower() not in ("0", "false", "off", "no")
    return bool(value)
