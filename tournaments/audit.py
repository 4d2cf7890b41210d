"""The audit log (R 18.5) read as sentences: each entry's structured data through gettext.

Entries store data, not text (services.log), so the log reads in the reader's language
and no Python structure ever reaches a page. An action without a sentence here (an old
entry) reads as a generic sentence naming the actor.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cardgame.hungarian import articles

from .models import AuditEntry


def _names(values) -> str:
    return ", ".join(str(v) for v in values or []) or "–"


def _score(data: dict, prefix: str = "") -> str:
    a, b = data.get(f"{prefix}games_a"), data.get(f"{prefix}games_b")
    if a is None or b is None:
        return "–"
    return f"{a}–{b}"


def _reason(code: str) -> str:
    return {
        "time": _("time ran out"),
        "ruling": _("a ruling"),
        "correction": _("a correction"),
        "drop": _("a drop"),
        "penalty": _("a penalty"),
    }.get(code, code or "–")


def _where(data: dict) -> str:
    stage = data.get("stage")
    if stage == "semi":
        return _("semi-final, table %(table)s") % {"table": data.get("table")}
    if stage == "final":
        return _("final")
    if stage == "third":
        return _("third-place match")
    if data.get("round"):
        return _("round %(round)s, table %(table)s") % {
            "round": data.get("round"),
            "table": data.get("table"),
        }
    if data.get("table"):
        return _("table %(table)s") % {"table": data.get("table")}
    return _("a match")


def _result(d: dict) -> str:
    return _("%(where)s: %(a)s v %(b)s, %(score)s") % {
        "where": _where(d),
        "a": d.get("player_a", "?"),
        "b": d.get("player_b", "?"),
        "score": _score(d.get("after") or d),
    }


def _prizes(d: dict) -> str:
    parts = []
    for item in d.get("prizes") or []:
        if isinstance(item, list | tuple) and len(item) >= 4:
            place, player, code, name = item[:4]
            parts.append(
                _("%(place)s. %(player)s: %(card)s (%(code)s)")
                % {"place": place, "player": player, "card": name, "code": code}
            )
    return "; ".join(parts) or "–"


def _penalty_name(d: dict) -> str:
    """The penalty in the middle of a sentence (lower case, with its article in English)."""
    names = {
        "warning": _("a warning"),
        "game_loss": _("a game loss"),
        "match_loss": _("a match loss"),
        "disqualification": _("a disqualification"),
    }
    code = d.get("penalty")
    return names.get(code) or str(d.get("penalty_label") or code or "–")


def _infraction_name(d: dict) -> str:
    names = {
        "tardiness": _("tardiness"),
        "slow_play": _("slow play"),
        "decklist": _("a deck or decklist problem"),
        "unsporting": _("unsporting conduct"),
        "procedure": _("a procedural error"),
        "other": _("another infraction"),
    }
    code = d.get("infraction")
    return names.get(code) or str(d.get("infraction_label") or code or "–")


def _penalty(d: dict) -> str:
    """A judge's penalty (tournaments/penalties.py), its effect on a match, and the note."""
    text = _("gave %(player)s a penalty: %(penalty)s for %(infraction)s.") % {
        "player": d.get("player"),
        "penalty": _penalty_name(d),
        "infraction": _infraction_name(d),
    }
    if d.get("table") is not None or d.get("stage") in ("semi", "final", "third"):
        text += " " + _("The match after it: %(result)s.") % {"result": _result(d)}
    elif d.get("pending"):
        text += " " + _("It applies to their next match.")
    if d.get("penalty") == "disqualification":
        text += " " + _("A disqualified player cannot be re-activated.")
    if d.get("note"):
        text += " " + _("Note: %(note)s") % {"note": d["note"]}
    return text


SENTENCES = {
    "create": lambda d: _("created the event “%(name)s”.") % {"name": d.get("name", "")},
    "check_in": lambda d: _("checked in %(player)s.") % {"player": d.get("player")},
    "check_in_many": lambda d: (
        _("checked in: %(players)s.") % {"players": _names(d.get("players"))}
    ),
    "late_entry": lambda d: (
        _("entered %(player)s late; their first round is %(n)s.")
        % {"player": d.get("player"), "n": d.get("first_round")}
    ),
    "drop": lambda d: _("dropped %(player)s.") % {"player": d.get("player")},
    "drop_concession": lambda d: (
        _("recorded a match loss for %(player)s, who dropped (table %(table)s).")
        % {"player": d.get("player"), "table": d.get("table")}
    ),
    "reactivate": lambda d: _("re-activated %(player)s.") % {"player": d.get("player")},
    "start": lambda d: (
        ngettext(
            "started the event with %(n)s player.",
            "started the event with %(n)s players.",
            d.get("players") or 0,
        )
        % {"n": d.get("players")}
        + (
            " " + _("Not checked in, so dropped: %(names)s.") % {"names": _names(d.get("no_show"))}
            if d.get("no_show")
            else ""
        )
    ),
    "forbid_pair": lambda d: (
        _("forbade the pair %(players)s: %(reason)s.")
        % {"players": " – ".join(d.get("players") or []), "reason": d.get("reason", "")}
    ),
    "allow_pair": lambda d: (
        _("removed the forbidden pair %(players)s.")
        % {"players": " – ".join(d.get("players") or [])}
    ),
    "pair": lambda d: _("paired round %(n)s as a draft.") % {"n": d.get("round")},
    "repair": lambda d: _("paired round %(n)s again.") % {"n": d.get("round")},
    "publish": lambda d: _("published round %(n)s and started its clock.") % {"n": d.get("round")},
    "result_entered": lambda d: _("entered the result of %(result)s.") % {"result": _result(d)},
    "judge_result": lambda d: (
        _("ruled on %(result)s (reason: %(reason)s; before: %(before)s).")
        % {
            "result": _result(d),
            "reason": _reason(d.get("reason", "")),
            "before": _score(d.get("before") or {}),
        }
    ),
    "judge_game": lambda d: (
        _("decided game %(game)s for %(winner)s (reason: %(reason)s).")
        % {"game": d.get("game"), "winner": d.get("winner"), "reason": _reason(d.get("reason", ""))}
    ),
    "start_playoff": lambda d: (
        _("started the playoff; seeds: %(seeds)s.") % {"seeds": _names(d.get("seeds"))}
    ),
    "finish_swiss": lambda d: (
        _("finished the event after the Swiss rounds; placings: %(p)s.")
        % {"p": _names(d.get("placings"))}
    ),
    "award_prizes": lambda d: _("awarded the prizes: %(prizes)s.") % {"prizes": _prizes(d)},
    "extend_time": lambda d: (
        _("gave table %(table)s %(minutes)s extra minutes.")
        % {"table": d.get("table"), "minutes": d.get("minutes")}
    ),
    "penalty": lambda d: _penalty(d),
    "penalty_applied": lambda d: (
        _(
            "applied %(player)s’s penalty (%(penalty)s for %(infraction)s) to their next "
            "match: %(result)s."
        )
        % {
            "player": d.get("player"),
            "penalty": _penalty_name(d),
            "infraction": _infraction_name(d),
            "result": _result(d),
        }
    ),
}


def sentence(entry: AuditEntry) -> str:
    """One entry as a sentence in the active language (the actor comes first on the page)."""
    describe = SENTENCES.get(entry.action)
    if describe is None:
        return _("did “%(action)s”.") % {"action": entry.action.replace("_", " ")}
    try:
        return articles(describe(entry.data or {}))
    except (TypeError, ValueError, KeyError):
        return _("did “%(action)s”.") % {"action": entry.action.replace("_", " ")}
