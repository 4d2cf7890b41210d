import hashlib
import json

from django.db.models import Count
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.decorators import api_view
from rest_framework.response import Response

from cardgame.limits import SearchThrottle
from engine import catalog

from .filters import CardFilter, ShapeCachedFilterBackend
from .models import Card, Edition
from .pagination import CardPagination
from .serializers import CardSerializer, EditionSerializer


@extend_schema(
    parameters=[
        OpenApiParameter(
            "q",
            str,
            description="Query in the search language (see /help/search/), e.g. `t:ship r:zarg cost<=3`",
        ),
    ]
)
class CardViewSet(viewsets.ReadOnlyModelViewSet):
    """The catalogue. `q` takes the same search language as the site's search box.

    A list's `count` is exact up to 10,000 hits; past that it is an estimate."""

    queryset = Card.objects.with_related()
    serializer_class = CardSerializer
    filter_backends = [ShapeCachedFilterBackend]
    pagination_class = CardPagination
    filterset_class = CardFilter
    lookup_field = "code"
    throttle_classes = [SearchThrottle]


def _named(table, fields_of=None):
    return [
        {"id": key, "hu": names["hu"], "en": names["en"], **(fields_of(key) if fields_of else {})}
        for key, names in table.items()
    ]


@extend_schema(
    responses={200: OpenApiResponse(description="The eight races with their opposing race (R 7.1)")}
)
@api_view(["GET"])
def races(request):
    return Response(
        _named(catalog.RACES, lambda key: {"opposing_race": catalog.OPPOSING_RACE[key]})
    )


@extend_schema(
    responses={
        200: OpenApiResponse(description="The six types, each with its four subtypes (R 4.1)")
    }
)
@api_view(["GET"])
def types(request):
    def subtypes(key):
        extra = lambda sub: {"size": catalog.SHIP_SIZE[sub]} if sub in catalog.SHIP_SIZE else {}  # noqa: E731
        return {"subtypes": _named(catalog.SUBTYPES[key], extra)}

    return Response(_named(catalog.TYPES, subtypes))


@extend_schema(responses={200: OpenApiResponse(description="The four rarities (R 8.1)")})
@api_view(["GET"])
def rarities(request):
    return Response(
        _named(catalog.RARITIES, lambda key: {"symbol": catalog.RARITIES[key]["symbol"]})
    )


@extend_schema(responses={200: OpenApiResponse(description="The three clans (R 8.2)")})
@api_view(["GET"])
def clans(request):
    return Response(_named(catalog.CLANS))


@extend_schema(responses={200: OpenApiResponse(description="The eight ship abilities (R 13)")})
@api_view(["GET"])
def keywords(request):
    return Response(_named(catalog.KEYWORDS))


class EditionViewSet(viewsets.ReadOnlyModelViewSet):
    """Card sets (editions, R 8.3)."""

    queryset = Edition.objects.annotate(card_count=Count("cards"))
    serializer_class = EditionSerializer
    lookup_field = "code"
    pagination_class = None


def export_document() -> bytes:
    cards = CardSerializer(Card.objects.with_related().order_by("code"), many=True).data
    document = {
        "editions": EditionSerializer(
            Edition.objects.annotate(card_count=Count("cards")), many=True
        ).data,
        "cards": cards,
    }
    return json.dumps(document, ensure_ascii=False, sort_keys=True).encode("utf-8")


@extend_schema(
    responses={
        200: OpenApiResponse(description="The whole catalogue as one JSON document, with an ETag")
    }
)
@api_view(["GET"])
def bulk_export(request):
    body = export_document()
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = 'inline; filename="kgk-cards.json"'
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=300)
    return response
