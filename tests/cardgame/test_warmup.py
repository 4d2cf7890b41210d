"""The web process freezes again after its first requests (cardgame/warmup.py, issue 40)."""

import gc
from pathlib import Path

from django.core.signals import request_finished

from cardgame.warmup import freeze_after_warmup


def test_freezes_once_after_the_given_number_of_requests():
    gc.unfreeze()
    try:
        freeze_after_warmup(3)
        request_finished.send(sender=None)
        request_finished.send(sender=None)
        assert gc.get_freeze_count() == 0  # not yet: two requests of three
        request_finished.send(sender=None)
        frozen = gc.get_freeze_count()
        assert frozen > 0
        kept = [object() for _ in range(10)]  # noqa: F841 (new objects the next freeze would take)
        for _ in range(5):
            request_finished.send(sender=None)
        assert gc.get_freeze_count() == frozen  # once only: the receiver is gone
    finally:
        gc.unfreeze()


def test_the_site_process_arms_it_after_its_start_up_freeze():
    """cardgame/asgi.py (read, not imported: importing it starts the embedded clock)."""
    text = (Path(__file__).resolve().parents[2] / "cardgame" / "asgi.py").read_text()
    assert text.index("gc.freeze()") < text.index("freeze_after_warmup()")
