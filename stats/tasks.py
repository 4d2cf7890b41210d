"""Thin Celery tasks (an id in, nothing out): a finished game's figures (recording.py),
a finished event's archetypes and report (archetypes.py, reports.py)."""

from celery import shared_task

from tournaments.models import Tournament

from . import archetypes, beside, recording, reports


@shared_task(ignore_result=True, acks_late=True)
def record_game(match_id):
    recording.record_game(match_id)


@shared_task(ignore_result=True, acks_late=True)
def event_finished(tournament_id):
    """The event's lists change the archetypes: find them again, then store its report
    (which names its lists' archetypes)."""
    event = Tournament.objects.filter(pk=tournament_id).first()
    if event is not None and event.status == Tournament.FINISHED:
        archetypes.refresh()
        beside.refresh_beside()
        reports.store_event_report(event)
