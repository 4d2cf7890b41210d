"""The search API's pager: an exact count of hits for the sizes a person pages through, the
planner's estimate beyond them.

Counting every hit of a broad query over a large catalogue (all 100,000 cards of the bench)
drove the slow tail of search (issue 40); no one pages through ten thousand cards. So the
count is exact up to EXACT_UP_TO hits, found by counting at most EXACT_UP_TO + 1 rows;
beyond that, on PostgreSQL, it is the planner's estimate of the query's rows, and never less
than EXACT_UP_TO + 1 (other databases count exactly).
"""

import json

from django.core.paginator import Paginator
from django.db import connections
from django.utils.functional import cached_property
from rest_framework.pagination import PageNumberPagination

EXACT_UP_TO = 10_000


class EstimatingPaginator(Paginator):
    @cached_property
    def count(self) -> int:
        # Only the ids: a page's annotations (its cards' keyword slugs) would otherwise be
        # computed for every row counted.
        queryset = self.object_list.order_by().values("pk")
        hits = queryset[: EXACT_UP_TO + 1].count()
        database = connections[queryset.db]
        if hits <= EXACT_UP_TO or database.vendor != "postgresql":
            return hits if hits <= EXACT_UP_TO else queryset.count()
        return max(planned_rows(queryset), EXACT_UP_TO + 1)


def planned_rows(queryset) -> int:
    """The PostgreSQL planner's estimate of the rows `queryset` gives (EXPLAIN, not run)."""
    sql, params = queryset.query.sql_with_params()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return int(plan[0]["Plan"]["Plan Rows"])


class CardPagination(PageNumberPagination):
    """DRF's page-number pager (the settings' PAGE_SIZE) with an estimating count."""

    django_paginator_class = EstimatingPaginator
