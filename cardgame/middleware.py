"""Keep Django's whole middleware chain in one thread under ASGI.

Under ASGI, Django runs an async-capable middleware (every MiddlewareMixin) in async mode
whenever the handler inside it is async, and then hands each of its process_request /
process_response calls to a thread and back: about two hand-offs per middleware per
request, each waiting for the busy event loop and the GIL. WhiteNoise, which is sync-only,
also split the chain in two. Measured under 50 concurrent games, those hand-offs were most
of a move's POST time (bench/RESULTS.md, "Online matches").

This middleware is sync-only and goes LAST in MIDDLEWARE: Django adapts the inner handler
to it once, and every middleware outside it then runs in sync mode in the request's thread.
A request crosses between the loop and its thread three times in all, whatever the number
of middleware.
"""


class SyncMiddlewareChain:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)
