"""ASGI entry point: HTTP through Django, WebSockets (/ws/matches/<id>/) through Channels.

Serve with `daphne cardgame.asgi:application` (or `manage.py runserver`, daphne's).
"""

import gc
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")
# The event loop and the request threads share one GIL. With the default 5 ms switch
# interval a thread back from a database round trip can wait up to 5 ms for it, once per
# query; a move's POST makes about ten. A shorter interval keeps that wait small.
sys.setswitchinterval(float(os.environ.get("KGK_SWITCH_INTERVAL", "0.0005")))
django.setup(set_prefix=False)  # as get_asgi_application(), before importing consumers

from cardgame.asgi_threads import ReusedThreadsASGIHandler  # noqa: E402

django_asgi_app = ReusedThreadsASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from matches.routing import websocket_urlpatterns as match_sockets  # noqa: E402
from notifications.routing import websocket_urlpatterns as personal_sockets  # noqa: E402
from quickplay.routing import websocket_urlpatterns as queue_sockets  # noqa: E402

websocket_urlpatterns = match_sockets + personal_sockets + queue_sockets

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            # Cookies only: the match consumer reads the session itself, off Channels'
            # shared database thread (matches/consumers.py).
            CookieMiddleware(URLRouter(websocket_urlpatterns))
        ),
    }
)

# The embedded default has no beat: this process sweeps the clocks itself (matches docs).
from matches.embedded_clock import start_if_wanted  # noqa: E402
from notifications import embedded_beat  # noqa: E402

start_if_wanted()
embedded_beat.start_if_wanted()  # the decklist-deadline warnings, as the beat would

# The ~100k objects of the loaded project never die: keep them out of the collector's full
# passes, which otherwise walk all of them (tens of ms, in the middle of somebody's move).
gc.freeze()
# ... and what the first requests build lazily and keep (resolvers, catalogues, templates)
from cardgame.warmup import freeze_after_warmup  # noqa: E402

freeze_after_warmup()
