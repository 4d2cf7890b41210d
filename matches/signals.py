"""`match_finished` is sent after the commit that finished a match (kwargs: match).

Receivers (tournaments) run in whichever process finished the game: a worker, or the web
process in the embedded default.
"""

from django.dispatch import Signal

match_finished = Signal()
