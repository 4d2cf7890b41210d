"""Deck, validation, import/export and collection endpoints (thin: services do the work)."""

import secrets

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action, api_view, permission_classes, throttle_classes
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from cardgame.limits import ImportThrottle, SearchThrottle
from cardgame.params import whole_number
from cards_data.definitions import card_dicts

from . import services
from .boosters import open_booster
from .models import CollectionEntry
from .selectors import card_index, search_decks, visible_decks
from .serializers import (
    DeckInputSerializer,
    DeckSerializer,
    DeckVersionSerializer,
    ValidateInputSerializer,
)
from .textformat import (
    DecklistError,
    decode_share_code,
    decode_upload,
    encode_share_code,
    export_json,
    export_text,
    parse_decklist,
    parse_json,
)


def _drf(error: DjangoValidationError) -> ValidationError:
    return ValidationError({"cards": error.messages})


def _line_errors(result) -> list[dict]:
    return [
        {
            "line": e.line_no,
            "text": e.line,
            "message": e.message,
            "problem": e.problem or e.message,
            "suggestions": list(e.suggestions),
        }
        for e in result.errors
    ]


class IsOwnerOrReadOnly(permissions.BasePermission):
    def has_object_permission(self, request, view, obj):
        return request.method in permissions.SAFE_METHODS or obj.owner_id == request.user.id


class DeckViewSet(viewsets.ModelViewSet):
    """Decks: anyone reads public decks; owners create, change and delete their own.

    Every save that changes a deck adds an immutable version (`versions/`).
    Search public decks with `q`: `has:"Cobra Flash" race:zarg author:alice legal:yes`.
    """

    serializer_class = DeckSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]

    def get_throttles(self):
        return [SearchThrottle()] if self.action == "list" else super().get_throttles()

    def get_queryset(self):
        decks = visible_decks(self.request.user)
        if self.action == "list":
            if self.request.query_params.get("mine") and self.request.user.is_authenticated:
                decks = decks.filter(owner=self.request.user)
            decks, error = search_decks(decks, self.request.query_params.get("q", ""))
            if error:
                raise ValidationError({"q": [error]})
        return decks

    @extend_schema(request=DeckInputSerializer, responses=DeckSerializer)
    def create(self, request, *args, **kwargs):
        return self._save(request, deck=None, status_code=status.HTTP_201_CREATED)

    @extend_schema(request=DeckInputSerializer, responses=DeckSerializer)
    def update(self, request, *args, **kwargs):
        return self._save(request, deck=self.get_object(), status_code=status.HTTP_200_OK)

    def partial_update(self, request, *args, **kwargs):
        deck = self.get_object()
        if not isinstance(request.data, dict):
            raise ValidationError(
                {"non_field_errors": ["Send a JSON object of the fields to change."]}
            )
        current = DeckSerializer(deck).data
        merged = {key: current[key] for key in ("name", "description", "ruleset", "is_public")}
        merged["cards"] = [{"code": c["code"], "count": c["count"]} for c in current["cards"]]
        merged.update(request.data)
        return self._save(request, deck=deck, status_code=status.HTTP_200_OK, data=merged)

    def _save(self, request, deck, status_code, data=None):
        payload = DeckInputSerializer(data=request.data if data is None else data)
        payload.is_valid(raise_exception=True)
        fields = dict(payload.validated_data)
        fields["cards"] = [(e["code"], e["count"]) for e in fields["cards"]]
        try:
            deck = services.save_deck(request.user, deck=deck, **fields)
        except DjangoValidationError as error:
            raise _drf(error) from error
        deck = visible_decks(request.user).get(pk=deck.pk)
        body = DeckSerializer(deck).data | {
            "problems": services.validate_entries(_entries(deck), deck.ruleset)
        }
        return Response(body, status=status_code)

    def retrieve(self, request, *args, **kwargs):
        deck = self.get_object()
        body = DeckSerializer(deck).data | {
            "problems": services.validate_entries(_entries(deck), deck.ruleset)
        }
        return Response(body)

    @extend_schema(responses=DeckVersionSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)  # every version, unpaged
    def versions(self, request, pk=None):
        deck = self.get_object()
        return Response(DeckVersionSerializer(deck.versions.order_by("-number"), many=True).data)

    @extend_schema(
        parameters=[OpenApiParameter("from", int), OpenApiParameter("to", int)],
        responses=inline_serializer(
            "DeckDiff",
            {
                "from": serializers.IntegerField(),
                "to": serializers.IntegerField(),
                "changes": serializers.ListField(child=serializers.DictField()),
            },
        ),
    )
    @action(detail=True, methods=["get"])
    def diff(self, request, pk=None):
        """Card changes between two versions of this deck (default: previous → latest)."""
        deck = self.get_object()
        versions = {v.number: v for v in deck.versions.all()}
        latest = max(versions, default=0)
        try:
            after = whole_number(request.query_params.get("to", latest), "to")
            raw_before = request.query_params.get("from")
            before = after - 1 if raw_before is None else whole_number(raw_before, "from")
        except ValueError as error:  # cardgame.params.BadNumber
            raise ValidationError({"from": ["Version numbers are whole numbers."]}) from error
        known_before = before == 0 or before in versions  # 0: the empty deck before version 1
        missing = [
            n for n, known in ((before, known_before), (after, after in versions)) if not known
        ]
        if missing:
            raise ValidationError(
                {
                    "versions": [
                        f"This deck has no version {n} (it has 1–{latest})." for n in missing
                    ]
                }
            )
        old = versions[before].cards if before else []
        return Response(
            {
                "from": before,
                "to": after,
                "changes": services.diff_entries(old, versions[after].cards),
            }
        )

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=["text", "json", "share"]),
            OpenApiParameter("lang", str, enum=["hu", "en"]),
        ],
        responses={
            (200, "text/plain"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
        },
    )
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        deck = self.get_object()
        fmt = request.query_params.get("format", "text")
        lang = "en" if request.query_params.get("lang") == "en" else "hu"
        entries = _card_entries(_entries(deck))
        if fmt == "text":
            return HttpResponse(
                export_text(entries, lang), content_type="text/plain; charset=utf-8"
            )
        if fmt == "json":
            meta = {"name": deck.name, "ruleset": deck.ruleset}
            return HttpResponse(
                export_json(entries, meta), content_type="application/json; charset=utf-8"
            )
        if fmt == "share":
            return Response({"code": encode_share_code(entries)})
        raise ValidationError({"format": [f"Unknown format '{fmt}'. Use text, json or share."]})


def _entries(deck) -> list[tuple[str, int]]:
    return [(e.card.code, e.count) for e in deck.entries.all()]


def _card_entries(entries: list[tuple[str, int]]) -> list[tuple[dict, int]]:
    cards = card_dicts(code for code, _ in entries)
    return [(cards[code], count) for code, count in entries if code in cards]


@extend_schema(request=ValidateInputSerializer)
@api_view(["POST"])
@permission_classes([permissions.AllowAny])
def validate(request):
    """Check a colony against R 9 without an account: every problem at once (R 9.7)."""
    payload = ValidateInputSerializer(data=request.data)
    payload.is_valid(raise_exception=True)
    data = payload.validated_data
    import_errors = []
    if "cards" in data:
        try:
            entries = services.clean_entries((e["code"], e["count"]) for e in data["cards"])
        except DjangoValidationError as error:
            raise _drf(error) from error
    else:
        result = parse_decklist(data["text"], card_index())
        entries, import_errors = result.entries, _line_errors(result)
    problems = services.validate_entries(entries, data["ruleset"])
    return Response(
        {
            "legal": not problems and not import_errors,
            "count": sum(count for _, count in entries),
            "cards": [{"code": code, "count": count} for code, count in entries],
            "problems": problems,
            "import_errors": import_errors,
        }
    )


IMPORT_RESULT = {
    "type": "object",
    "properties": {
        "cards": {"type": "array", "items": {"type": "object"}},
        "errors": {},
        "meta": {"type": "object"},
        "detail": {"type": "string"},
    },
}


@extend_schema(
    request={
        "multipart/form-data": {
            "type": "object",
            "properties": {
                "file": {"type": "string", "format": "binary"},
                "format": {"type": "string"},
                "text": {"type": "string"},
            },
        }
    },
    # the cards read and the line errors; a 400 when a line could not be read (or the
    # request was malformed: then `detail` says why)
    responses={
        200: IMPORT_RESULT,
        400: OpenApiResponse(IMPORT_RESULT, description="Lines that could not be read."),
    },
)
@api_view(["POST"])
@throttle_classes([ImportThrottle])
@permission_classes([permissions.AllowAny])
def import_deck(request):
    """Read a decklist (text, JSON or share code; pasted or uploaded) into cards and line errors.

    Nothing is stored; the builder (or a POST to /api/decks/) saves the result.
    """
    if not isinstance(request.data, dict):
        raise ValidationError({"non_field_errors": ["Send 'text' or 'file', and 'format'."]})
    fmt = request.data.get("format", "text")
    readers = {"text": parse_decklist, "json": parse_json, "share": decode_share_code}
    if not isinstance(fmt, str) or fmt not in readers:
        raise ValidationError({"format": [f"Unknown format '{fmt}'. Use text, json or share."]})
    upload = request.FILES.get("file")
    if upload is not None:
        try:
            text = decode_upload(upload.read())
        except DecklistError as error:
            raise ValidationError({"file": [error.message]}) from error
    else:
        text = request.data.get("text", "")
    if not isinstance(text, str) or not text.strip():
        raise ValidationError({"text": ["Paste a decklist or upload a file."]})
    result = readers[fmt](text.strip() if fmt == "share" else text, card_index())
    body = {
        "cards": [{"code": code, "count": count} for code, count in result.entries],
        "errors": _line_errors(result),
        "meta": result.meta,
    }
    return Response(body, status=status.HTTP_200_OK if result.ok else status.HTTP_400_BAD_REQUEST)


@api_view(["GET", "PUT", "PATCH"])
@permission_classes([permissions.IsAuthenticated])
def collection(request):
    """The cards you own. PUT replaces the collection, PATCH changes counts (0 removes)."""
    if request.method != "GET":
        cards = request.data.get("cards") if isinstance(request.data, dict) else None
        if not isinstance(cards, list):
            raise ValidationError({"cards": ["Send 'cards': a list of {code, count}."]})
        bad = [n for n, c in enumerate(cards, 1) if not isinstance(c, dict)]
        if bad:
            raise ValidationError(
                {"cards": [f"entry {n}: expected an object with 'code' and 'count'" for n in bad]}
            )
        try:
            services.set_collection(
                request.user,
                ((c.get("code"), c.get("count")) for c in cards),
                replace=request.method == "PUT",
            )
        except DjangoValidationError as error:
            raise _drf(error) from error
    rows = CollectionEntry.objects.filter(owner=request.user).select_related("card")
    return Response(
        {"cards": [{"code": e.card.code, "count": e.count, "name": e.card.name} for e in rows]}
    )


@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def open_booster_view(request):
    """Open a simulated 15-card booster (R 8.1 frequencies) and add it to your collection."""
    seed = secrets.token_hex(8)
    cards = list(card_dicts().values())
    pack = open_booster(cards, seed)
    try:
        services.add_to_collection(request.user, [card["code"] for card in pack])
    except DjangoValidationError as error:
        raise _drf(error) from error
    return Response(
        {
            "seed": seed,
            "cards": [{"code": c["code"], "name": c["name"], "rarity": c["rarity"]} for c in pack],
        }
    )


def get_visible_deck_or_404(user, pk):
    try:
        return get_object_or_404(visible_decks(user), pk=int(pk))
    except (TypeError, ValueError) as error:
        raise Http404 from error
