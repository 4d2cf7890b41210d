"""The second gc.freeze(): after a web process's first requests (issue 40).

cardgame/asgi.py freezes the objects of the loaded project at start-up, so the collector's
full passes do not walk them. But much of what a request needs is built lazily, by the
first requests that need it: the URL resolver's tables, the translation catalogues, the
compiled templates, the query shapes of the card search (cards_data/filters.py), DRF's
and django-filters' per-class caches. Those objects also live as long as the process, and
until they are frozen every full collection walks them again (the tens-of-ms maxima of the
search bench). So once the process has answered FREEZE_AFTER requests, it collects and
freezes once more; later requests build little that lives on.
"""

import gc
import threading

from django.core.signals import request_finished

FREEZE_AFTER = 200  # requests: enough for the usual pages, languages and query shapes

_lock = threading.Lock()
_answered = 0


def freeze_after_warmup(count: int = FREEZE_AFTER) -> None:
    """Freeze again once `count` requests have finished in this process (once)."""
    global _answered
    _answered = 0

    def finished(**_kwargs) -> None:
        global _answered
        with _lock:
            _answered += 1
            if _answered != count:
                return
        request_finished.disconnect(finished, dispatch_uid=__name__)
        gc.collect()
        gc.freeze()

    # a second call re-arms with its own count (a dispatch_uid already connected is ignored)
    request_finished.disconnect(dispatch_uid=__name__)
    request_finished.connect(finished, weak=False, dispatch_uid=__name__)
