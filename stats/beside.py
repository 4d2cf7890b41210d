"""The cards played beside each card in public decks (models.CardBeside), refreshed with
the archetypes (archetypes.py says when): a private deck's cards never count, as what
sits beside a card is a piece of its list."""

from django.db import connection, transaction

from cards_data.models import Card
from decks.models import Deck, DeckCard

from .models import CardBeside

BESIDE = 10  # the cards most often played beside a card, shown on its page


def refresh_beside() -> None:
    """Every card's BESIDE most frequent neighbours in public decks, in one statement:
    each pair of cards of a public deck counted once per deck (SQLite and PostgreSQL)."""
    q = connection.ops.quote_name
    beside, entry = q(CardBeside._meta.db_table), q(DeckCard._meta.db_table)
    deck, card = q(Deck._meta.db_table), q(Card._meta.db_table)
    # the table names come from the models' metadata, quoted; the values are parameters
    sql = f"""
        INSERT INTO {beside} (code, other, decks, copies)
        SELECT code, other, decks, copies FROM (
            SELECT ca.code AS code, cb.code AS other, COUNT(*) AS decks,
                   AVG(b.count) AS copies,
                   ROW_NUMBER() OVER (
                       PARTITION BY ca.code ORDER BY COUNT(*) DESC, cb.code
                   ) AS place
            FROM {entry} a
            JOIN {deck} d ON d.id = a.deck_id AND d.is_public
            JOIN {entry} b ON b.deck_id = a.deck_id AND b.card_id <> a.card_id
            JOIN {card} ca ON ca.id = a.card_id
            JOIN {card} cb ON cb.id = b.card_id
            GROUP BY ca.code, cb.code
        ) ranked
        WHERE place <= %s
    """  # nosec B608
    with transaction.atomic():
        CardBeside.objects.all().delete()
        with connection.cursor() as cursor:
            cursor.execute(sql, [BESIDE])
