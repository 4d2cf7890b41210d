"""The tournaments REST API (thin: services decide who may do what, and when).

Errors: 400 bad input (with `detail`), 403 not allowed for this user, 404 unknown or
hidden (a draft round for a player), 409 not allowed in the event's current state.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException, PermissionDenied, ValidationError
from rest_framework.response import Response

from cardgame.hungarian import articles
from decks.models import Deck

from . import online, penalties, problems, selectors, services
from .models import AuditEntry, ForbiddenPair, Penalty, Registration, Round, TableSet, Tournament
from .serializers import (
    ForbiddenPairInput,
    ForbiddenPairSerializer,
    JudgeGameInput,
    JudgeInput,
    LateEntryInput,
    MatchSerializer,
    PenaltyInput,
    PenaltySerializer,
    PrizesInput,
    RegisterInput,
    RegistrationSerializer,
    ResultInput,
    RoundSerializer,
    TournamentInput,
    TournamentSerializer,
)


class ConflictError(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "Not allowed in the tournament's current state."


def _call(fn, *args, **kwargs):
    """Run a service; translate its errors to API errors."""
    try:
        return fn(*args, **kwargs)
    except services.DeckNotLegal as error:
        raise ValidationError({"detail": error.messages[0], "problems": error.problems}) from error
    except DjangoValidationError as error:
        detail = error.message_dict if hasattr(error, "error_dict") else {"detail": error.messages}
        raise ValidationError(detail) from error
    except services.NotAllowed as error:
        raise PermissionDenied(error.payload()) from error
    except DjangoPermissionDenied as error:
        raise PermissionDenied(str(error)) from error
    except services.Conflict as error:
        raise ConflictError(error.payload()) from error


def _data(serializer_class, request):
    if not isinstance(request.data, dict):
        raise ValidationError({"detail": "Send a JSON object."})
    payload = serializer_class(data=request.data)
    payload.is_valid(raise_exception=True)
    return payload.validated_data


def _tournament(pk) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def _staff(request, t):
    if not services.is_staff(request.user, t):
        raise PermissionDenied(problems.payload("STAFF_ONLY"))


def _my_reg(request, t) -> Registration:
    reg = selectors.my_registration(t, request.user)
    if reg is None:
        raise ConflictError(problems.payload("NOT_REGISTERED"))
    return reg


# ------------------------------------------------------------------- endpoints


@extend_schema(methods=["GET"], responses=TournamentSerializer(many=True))
@extend_schema(methods=["POST"], request=TournamentInput, responses={201: TournamentSerializer})
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticatedOrReadOnly])
def tournament_list(request):
    """Tournaments; any signed-in user may organise one (they become its organiser)."""
    if request.method == "GET":
        events = Tournament.objects.select_related("organiser").prefetch_related("judges")
        return Response(TournamentSerializer(events[:200], many=True).data)
    fields = dict(_data(TournamentInput, request))
    names = fields.pop("judges")
    judges = list(get_user_model().objects.filter(username__in=names))
    missing = sorted(set(names) - {j.username for j in judges})
    if missing:
        raise ValidationError({"judges": [f"Unknown user {name}." for name in missing]})
    t = _call(services.create_tournament, request.user, judges=judges, **fields)
    return Response(TournamentSerializer(t).data, status=status.HTTP_201_CREATED)


@extend_schema(responses=TournamentSerializer)
@api_view(["GET"])
def tournament_detail(request, pk):
    t = _tournament(pk)
    body = TournamentSerializer(t).data
    body["registrations"] = RegistrationSerializer(
        t.registrations.select_related("player"), many=True
    ).data
    body["is_staff"] = services.is_staff(request.user, t)
    return Response(body)


@extend_schema(methods=["POST"], request=RegisterInput, responses={201: RegistrationSerializer})
@extend_schema(methods=["DELETE"], request=None, responses={204: None})
@api_view(["POST", "DELETE"])
@permission_classes([permissions.IsAuthenticated])
def register(request, pk):
    """POST {"deck": id}: register or replace the frozen decklist; DELETE: withdraw."""
    t = _tournament(pk)
    if request.method == "DELETE":
        _call(services.unregister, _my_reg(request, t), request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
    deck_id = request.data.get("deck") if isinstance(request.data, dict) else None
    if isinstance(deck_id, bool) or not isinstance(deck_id, int):
        raise ValidationError({"deck": ["Give the id of one of your decks."]})
    deck = Deck.objects.filter(pk=deck_id, owner=request.user).first()
    if deck is None:
        raise ValidationError({"deck": [f"You have no deck {deck_id}."]})
    reg = _call(services.register, t, request.user, deck)
    return Response(RegistrationSerializer(reg).data, status=status.HTTP_201_CREATED)


@extend_schema(request=None, responses=RegistrationSerializer)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def check_in(request, pk):
    t = _tournament(pk)
    reg = _call(services.check_in, _my_reg(request, t), request.user)
    return Response(RegistrationSerializer(reg).data)


@extend_schema(request=None, responses=RegistrationSerializer)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def drop(request, pk):
    t = _tournament(pk)
    reg = _call(services.drop, _my_reg(request, t), request.user)
    return Response(RegistrationSerializer(reg).data)


@extend_schema(request=None, responses=RegistrationSerializer)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def registration_action(request, pk, action):
    """Staff: drop, reactivate or check in (at the door) any registration."""
    fns = {"drop": services.drop, "reactivate": services.reactivate, "check-in": services.check_in}
    if action not in fns:
        raise Http404("No such action.")
    reg = get_object_or_404(Registration, pk=pk)
    _staff(request, reg.tournament)
    fn = fns[action]
    reg = _call(fn, reg, request.user)
    return Response(RegistrationSerializer(reg).data)


@extend_schema(request=LateEntryInput, responses={201: RegistrationSerializer})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def late_entry(request, pk):
    """Staff: {"player": username, "deck": id} after the start; missed rounds are losses."""
    t = _tournament(pk)
    _staff(request, t)
    data = request.data if isinstance(request.data, dict) else {}
    player = get_user_model().objects.filter(username=data.get("player")).first()
    if player is None:
        raise ValidationError({"player": ["Unknown player."]})
    deck_id = data.get("deck")
    if isinstance(deck_id, bool) or not isinstance(deck_id, int):
        deck_id = 0
    deck = Deck.objects.filter(pk=deck_id, owner=player).first()
    if deck is None:
        raise ValidationError({"deck": ["Give the id of one of the player's decks."]})
    reg = _call(services.late_entry, t, request.user, player, deck)
    return Response(RegistrationSerializer(reg).data, status=status.HTTP_201_CREATED)


@extend_schema(request=None, responses=TournamentSerializer)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def start(request, pk):
    t = _call(services.start, _tournament(pk), request.user)
    return Response(TournamentSerializer(t).data)


@extend_schema(methods=["GET"], responses=RoundSerializer(many=True))
@extend_schema(
    methods=["POST"], request=None, responses={200: RoundSerializer, 201: RoundSerializer}
)
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticatedOrReadOnly])
def rounds(request, pk):
    """GET: rounds you may see; POST (staff): pair the next round as a draft (idempotent)."""
    t = _tournament(pk)
    if request.method == "GET":
        visible = selectors.visible_rounds(t, request.user).prefetch_related(
            "matches__player_a__player", "matches__player_b__player"
        )
        return Response(RoundSerializer(visible, many=True).data)
    # The newest round before the lock: a draft of the next round already there is the
    # idempotent 200. One paired by another request while this one waited for the lock is
    # a 409 (issue 35: ten requests at once made one round and told 5-8 callers 201).
    newest = t.rounds.order_by("-number").values_list("number", flat=True).first()
    rnd, created = _call(services.pair_round, t, request.user)
    if created:
        return Response(RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)
    if rnd.number != newest:
        detail = articles(
            _(
                "Round %(n)s was paired by another request at the same moment; this request "
                "paired nothing. Its draft is on the staff dashboard."
            )
            % {"n": rnd.number}
        )
        return Response({"detail": detail, "round": rnd.number}, status=status.HTTP_409_CONFLICT)
    return Response(RoundSerializer(rnd).data, status=status.HTTP_200_OK)


@extend_schema(responses=RoundSerializer)
@api_view(["GET"])
def round_detail(request, pk, number):
    t = _tournament(pk)
    rnd = get_object_or_404(selectors.visible_rounds(t, request.user), number=number)
    return Response(RoundSerializer(rnd).data)


@extend_schema(request=None, responses=RoundSerializer)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def publish(request, pk, number):
    t = _tournament(pk)
    _staff(request, t)
    rnd = get_object_or_404(t.rounds, number=number)
    rnd = _call(services.publish_round, rnd, request.user)
    return Response(RoundSerializer(rnd).data)


@extend_schema(request=None, responses=RoundSerializer)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def repair(request, pk, number):
    """Staff: discard the draft pairing of round `number` and pair it again (drafts only).

    Idempotent: with nothing changed since the draft was paired, the draft is kept
    ("changed": false). 409 once the round is published.
    """
    t = _tournament(pk)
    _staff(request, t)
    rnd = get_object_or_404(t.rounds, number=number)
    rnd, changed = _call(services.repair_round, rnd, request.user)
    rnd = Round.objects.prefetch_related(
        "matches__player_a__player", "matches__player_b__player"
    ).get(pk=rnd.pk)
    return Response({**RoundSerializer(rnd).data, "changed": changed})


def _forbidden_pair_list(t):
    pairs = t.forbidden_pairs.select_related("player_a__player", "player_b__player", "created_by")
    return ForbiddenPairSerializer(pairs, many=True).data


@extend_schema(methods=["GET"], responses=ForbiddenPairSerializer(many=True))
@extend_schema(
    methods=["POST"],
    request=ForbiddenPairInput,
    responses={200: ForbiddenPairSerializer, 201: ForbiddenPairSerializer},
)
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticated])
def forbidden_pairs(request, pk):
    """Staff: the pairs that must not meet in the Swiss rounds; POST {"player_a": user
    name, "player_b": user name, "reason": text} adds one (201; 200 if already there)."""
    t = _tournament(pk)
    _staff(request, t)
    if request.method == "GET":
        return Response(_forbidden_pair_list(t))
    data = _data(ForbiddenPairInput, request)
    regs = {}
    for field in ("player_a", "player_b"):
        regs[field] = t.registrations.filter(player__username=data[field]).first()
        if regs[field] is None:
            raise ValidationError(
                {
                    field: [
                        _("%(name)s is not registered for this tournament.") % {"name": data[field]}
                    ]
                }
            )
    pair, created = _call(
        services.forbid_pair, t, request.user, regs["player_a"], regs["player_b"], data["reason"]
    )
    pair = ForbiddenPair.objects.select_related(
        "player_a__player", "player_b__player", "created_by"
    ).get(pk=pair.pk)
    return Response(
        ForbiddenPairSerializer(pair).data,
        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
    )


@extend_schema(request=None, responses=None)
@api_view(["DELETE"])
@permission_classes([permissions.IsAuthenticated])
def forbidden_pair_detail(request, pk, pair_id):
    """Staff: remove a forbidden pair (204)."""
    t = _tournament(pk)
    _staff(request, t)
    pair = get_object_or_404(t.forbidden_pairs, pk=pair_id)
    _call(services.allow_pair, pair, request.user)
    return Response(status=status.HTTP_204_NO_CONTENT)


def _penalty_list(t):
    rows = t.penalties.select_related("registration__player", "given_by").order_by("id")
    return PenaltySerializer(rows, many=True).data


@extend_schema(methods=["GET"], responses=PenaltySerializer(many=True))
@extend_schema(methods=["POST"], request=PenaltyInput, responses={201: PenaltySerializer})
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticated])
def penalties_view(request, pk):
    """Staff: the event's penalties; POST {"player": user name, "penalty": warning |
    game_loss | match_loss | disqualification, "infraction": tardiness | slow_play |
    decklist | unsporting | procedure | other, "note": text} gives one (201). A game or
    match loss changes the player's current match, else their next one; a
    disqualification drops the player for good (docs/rulings.md, "Penalties")."""
    t = _tournament(pk)
    _staff(request, t)
    if request.method == "GET":
        return Response(_penalty_list(t))
    data = _data(PenaltyInput, request)
    reg = t.registrations.filter(player__username=data["player"]).first()
    if reg is None:
        raise ValidationError(
            {
                "player": [
                    _("%(name)s is not registered for this tournament.") % {"name": data["player"]}
                ]
            }
        )
    penalty = _call(
        penalties.give_penalty,
        reg,
        request.user,
        data["penalty"],
        data["infraction"],
        data["note"],
    )
    penalty = Penalty.objects.select_related("registration__player", "given_by").get(pk=penalty.pk)
    return Response(PenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)


@extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}})
@api_view(["GET"])
def standings(request, pk):
    return Response(selectors.standings_rows(_tournament(pk)))


@extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}})
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def audit(request, pk):
    t = _tournament(pk)
    _staff(request, t)
    entries = AuditEntry.objects.filter(tournament=t).select_related("actor")
    return Response(
        [
            {
                "id": e.id,
                "actor": e.actor.username,
                "action": e.action,
                "match": e.match_id,
                "data": e.data,
                "created": e.created.isoformat(),
            }
            for e in entries
        ]
    )


@extend_schema(responses=MatchSerializer)
@api_view(["GET"])
def match_detail(request, pk):
    match = get_object_or_404(selectors.visible_matches(request.user), pk=pk)
    return Response(MatchSerializer(match).data)


def _judge_game(request, match):
    data = _data(JudgeGameInput, request)
    og = match.online_games.filter(number=data["game"]).select_related("game").first()
    if og is None:
        raise ValidationError(
            {"game": [_("This match has no game %(n)s on the site.") % {"n": data["game"]}]}
        )
    winner = next(
        (r for r in (match.player_a, match.player_b) if r and r.name == data["winner"]), None
    )
    if winner is None:
        raise ValidationError({"winner": [_("The winner must be one of the two players.")]})
    _call(online.judge_game, og, request.user, winner, data["reason"])
    return match


@extend_schema(request=JudgeInput, responses=MatchSerializer)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_action(request, pk, action):
    """report {games_a, games_b, timed_out}, confirm, dispute, choose {choice}; staff:
    result {games_a, games_b} (a plain result from the slip), judge {games_a, games_b,
    reason} (a ruling); judge-game {game, winner, reason}: a judge decides a game played
    on the site (R 18.4)."""
    if action not in ("report", "confirm", "dispute", "choose", "judge", "judge-game", "result"):
        raise Http404("No such action.")
    match = get_object_or_404(selectors.visible_matches(request.user), pk=pk)
    if action == "report":
        data = _data(ResultInput, request)
        match = _call(
            services.report,
            match,
            request.user,
            data["games_a"],
            data["games_b"],
            timed_out=data["timed_out"],
        )
    elif action == "confirm":
        match = _call(services.confirm, match, request.user)
    elif action == "dispute":
        match = _call(services.dispute, match, request.user)
    elif action == "choose":
        choice = request.data.get("choice") if isinstance(request.data, dict) else None
        match = _call(services.choose_first, match, request.user, choice)
    elif action == "judge-game":
        _staff(request, match.tournament)
        match = _judge_game(request, match)
    elif action == "result":
        _staff(request, match.tournament)
        data = _data(ResultInput, request)
        match = _call(services.enter_result, match, request.user, data["games_a"], data["games_b"])
    else:  # judge
        _staff(request, match.tournament)
        data = _data(JudgeInput, request)
        match = _call(
            services.judge_result,
            match,
            request.user,
            data["games_a"],
            data["games_b"],
            data["reason"],
        )
    match = TableSet.objects.select_related("round", "player_a__player", "player_b__player").get(
        pk=match.pk
    )
    return Response(MatchSerializer(match).data)


@extend_schema(request=None, responses={201: MatchSerializer(many=True)})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def playoff(request, pk):
    t = _tournament(pk)
    semis = _call(services.start_playoff, t, request.user)
    return Response(MatchSerializer(semis, many=True).data, status=status.HTTP_201_CREATED)


@extend_schema(request=None, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def finish(request, pk):
    """Staff: end the event after the Swiss rounds, without a playoff."""
    t = _call(services.finish_swiss, _tournament(pk), request.user)
    return Response({"status": t.status, "placings": [r.name for r in services.placings(t)]})


@extend_schema(responses=MatchSerializer(many=True))
@api_view(["GET"])
def bracket(request, pk):
    t = _tournament(pk)
    matches = t.matches.filter(round__isnull=True).select_related(
        "player_a__player", "player_b__player"
    )
    return Response(MatchSerializer(matches, many=True).data)


@extend_schema(request=PrizesInput, responses={201: {"type": "array", "items": {"type": "object"}}})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def prizes(request, pk):
    """Staff: {"cards": {"1": code, "2": code, "3": code}} ultra-rare cards (R 18.6)."""
    t = _tournament(pk)
    _staff(request, t)
    cards = request.data.get("cards") if isinstance(request.data, dict) else None
    if not isinstance(cards, dict):
        raise ValidationError({"cards": ["Give a card code for places 1, 2 and 3."]})
    try:
        by_place = {int(k): v for k, v in cards.items()}
    except (TypeError, ValueError) as error:
        raise ValidationError({"cards": ["Places are 1, 2 and 3."]}) from error
    codes = [str(code).upper() for code in by_place.values()]
    if len(set(codes)) < len(codes) and request.data.get("identical") is not True:
        # a warning before identical prizes (issue 35), as the dashboard's form gives
        raise ValidationError(
            {
                "cards": [
                    _(
                        "Two or more places get the same card. Choose different cards, or "
                        'send "identical": true to award identical prizes on purpose.'
                    )
                ]
            }
        )
    awarded = _call(services.award_prizes, t, request.user, by_place)
    return Response(
        [{"place": p.place, "card": p.card.code, "player": p.awarded_to.name} for p in awarded],
        status=status.HTTP_201_CREATED,
    )
