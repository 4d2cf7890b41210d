"""The catalogue's API: cards, sets, the reference tables and the bulk export.

Every read answers a conditional GET (issue 40): its ETag and Last-Modified come from the
catalogue's stamp (cards_data.stamp), read before anything else, so a matching
If-None-Match or If-Modified-Since is a 304 without the search, the serialising or the
export. The throttle runs first (DRF's `initial`, before the handler): a 304 still counts.
Only a 200 carries the validators, so no error answer is ever kept and revalidated.

Cache-Control is `public, no-cache`: a cache may keep an answer but asks again each time,
which costs one query of the stamp and sees a set load at once. A max-age would leave a
load unseen for that long and hand a cached page to a reader of the other language (the
language, set by a cookie, is not in Vary; it is in the ETag).
"""

import hashlib
import json
from functools import partial, wraps

from django.db.models import Count
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.decorators import method_decorator
from django.utils.http import http_date
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.decorators import api_view
from rest_framework.response import Response

from cardgame.limits import SearchThrottle
from engine import catalog

from . import answers, stamp
from .filters import CardFilter, ShapeCachedFilterBackend
from .models import Card, Edition
from .pagination import CardPagination
from .serializers import ROW_FIELDS, CardSerializer, EditionSerializer, with_keyword_slugs


def _validators(response, etag, last_modified=None):
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    patch_cache_control(response, public=True, no_cache=True)
    return response


def _json(request) -> bool:
    """Whether the answer is JSON. The browsable API's HTML (DRF's content negotiation, run
    before the handler) differs from it under the same URL and shows the reader's name and
    CSRF token: it gets no validators and is never kept."""
    return getattr(request.accepted_renderer, "format", None) == "json"


def catalogue_read(view, negotiated=True):
    """A view of the catalogue answering conditional GETs from the catalogue's stamp;
    `negotiated=False` for a view whose answer is the same bytes whatever the Accept."""

    @wraps(view)
    def answer(request, *args, **kwargs):
        if negotiated and not _json(request):
            return view(request, *args, **kwargs)
        etag = stamp.etag(request)  # reads the stamp first (see cards_data.stamp)
        changed = stamp.last_modified(request)
        modified = int(changed.timestamp()) if changed else None
        early = get_conditional_response(request, etag=etag, last_modified=modified)
        if early is not None:  # 304 Not Modified, or 412 for a failed If-Match
            return _validators(early, etag, modified) if early.status_code == 304 else early
        response = view(request, *args, **kwargs)
        if response.status_code != 200:
            return response
        return _validators(response, etag, modified)

    return answer


def static_read(request, data):
    """A table of the rules (engine.catalog): its ETag is its content's, as the code has it."""
    if not _json(request):
        return Response(data)
    body = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    early = get_conditional_response(request, etag=etag)
    if early is not None:
        return _validators(early, etag) if early.status_code == 304 else early
    return _validators(Response(data), etag)


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

    queryset = with_keyword_slugs(Card.objects.all())  # a page and its keywords in one query
    serializer_class = CardSerializer
    filter_backends = [ShapeCachedFilterBackend]
    pagination_class = CardPagination
    filterset_class = CardFilter
    lookup_field = "code"
    throttle_classes = [SearchThrottle]

    @method_decorator(catalogue_read)
    def list(self, request, *args, **kwargs):
        """A JSON answer kept per catalogue stamp is given again (cards_data/answers.py)."""
        if not _json(request):
            return super().list(request, *args, **kwargs)
        key = answers.key_of(request)
        body = answers.kept(key)
        if body is None:
            response = super().list(request, *args, **kwargs)
            if response.status_code != 200:
                return response
            body = request.accepted_renderer.render(
                response.data, request.accepted_media_type, self.get_renderer_context()
            )
            answers.keep(key, body)
        return answers.KeptAnswer(body)

    @method_decorator(catalogue_read)
    def retrieve(self, request, *args, **kwargs):
        return super().retrieve(request, *args, **kwargs)

    def filter_queryset(self, queryset):
        """A list's page is read as values, not model instances (serializers.ROW_FIELDS)."""
        queryset = super().filter_queryset(queryset)
        return queryset.values(*ROW_FIELDS) if self.action == "list" else queryset


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
    return static_read(
        request,
        _named(catalog.RACES, lambda key: {"opposing_race": catalog.OPPOSING_RACE[key]}),
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

    return static_read(request, _named(catalog.TYPES, subtypes))


@extend_schema(responses={200: OpenApiResponse(description="The four rarities (R 8.1)")})
@api_view(["GET"])
def rarities(request):
    return static_read(
        request, _named(catalog.RARITIES, lambda key: {"symbol": catalog.RARITIES[key]["symbol"]})
    )


@extend_schema(responses={200: OpenApiResponse(description="The three clans (R 8.2)")})
@api_view(["GET"])
def clans(request):
    return static_read(request, _named(catalog.CLANS))


@extend_schema(responses={200: OpenApiResponse(description="The eight ship abilities (R 13)")})
@api_view(["GET"])
def keywords(request):
    return static_read(request, _named(catalog.KEYWORDS))


class EditionViewSet(viewsets.ReadOnlyModelViewSet):
    """Card sets (editions, R 8.3)."""

    queryset = Edition.objects.annotate(card_count=Count("cards"))
    serializer_class = EditionSerializer
    lookup_field = "code"
    pagination_class = None

    @method_decorator(catalogue_read)
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @method_decorator(catalogue_read)
    def retrieve(self, request, *args, **kwargs):
        return super().retrieve(request, *args, **kwargs)


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
    return _export(request)


@partial(catalogue_read, negotiated=False)  # JSON bytes whatever the Accept
def _export(request):
    response = HttpResponse(export_document(), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="kgk-cards.json"'
    return response
