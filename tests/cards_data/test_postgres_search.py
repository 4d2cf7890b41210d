"""PostgreSQL path of the search: trigram indexes exist and serve the same folded LIKEs.

The search language compiles to the same ORM filters on every backend, so the query
table of test_search_language.py, run in both `make test` passes, proves SQLite and
PostgreSQL give the same answers; these tests prove PostgreSQL answers them via pg_trgm.
"""

import pytest

from cards_data.search import search_cards

pytestmark = pytest.mark.postgres


def test_trigram_indexes_exist(postgres_db):
    with postgres_db.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'cards_data_card' AND indexdef LIKE '%gin_trgm_ops%'"
        )
        names = {row[0] for row in cursor.fetchall()}
    assert names == {"cards_card_search_name_trgm", "cards_card_search_text_trgm"}


def test_word_search_can_use_the_trigram_index(postgres_db, catalogue):
    # Without the ORDER BY: the question is whether the filter can use the trigram index.
    # Ordered by code, the planner may walk the unique code index and filter each row,
    # which it did when this test ran alone (seq scans off do not forbid that).
    queryset = search_cards("halalszarny").order_by()
    with postgres_db.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        plan = queryset.explain()
        cursor.execute("SET enable_seqscan = on")
    assert "trgm" in plan


@pytest.mark.parametrize(
    "query",
    [
        "urcapa",
        "t:ship r:zarg cost<=3",
        '"Cobra Flash"',
        "-r:ember t:base",
        "kw:burst_fire or kw:formation",
    ],
)
def test_postgres_answers_match_a_python_reading_of_the_files(postgres_db, catalogue, query):
    """The same answers as computed from the loaded rows in Python, accent-folded."""
    from cards_data.search.normalize import fold

    cards = list(catalogue.prefetch_related("keywords"))
    predicates = {
        "urcapa": lambda c: "urcapa" in c.search_name or "urcapa" in c.search_text,
        "t:ship r:zarg cost<=3": lambda c: (
            c.type == "ship"
            and c.race == "zarg"
            and c.credit_cost is not None
            and c.credit_cost <= 3
        ),
        '"Cobra Flash"': lambda c: (
            fold("Cobra Flash") in c.search_name or fold("Cobra Flash") in c.search_text
        ),
        "-r:ember t:base": lambda c: c.race != "human" and c.type == "base",
        "kw:burst_fire or kw:formation": lambda c: bool(
            {"burst_fire", "formation"} & {k.slug for k in c.keywords.all()}
        ),
    }
    expected = {c.code for c in cards if predicates[query](c)}
    assert expected
    assert set(search_cards(query).values_list("code", flat=True)) == expected
