"""Django's ASGI handler, with the request's synchronous work in one reused thread.

Two costs of Django's own handler, both measured under load (bench/RESULTS.md):

- **Hand-offs.** It runs the middleware in async mode: each async-capable middleware hands
  its process_request / process_response to a thread and back, a sync-only one splits the
  chain, and the view, process_view and the error log are each one more hand-off, every one
  waiting for the busy event loop and the GIL. Under 50 concurrent games those hand-offs
  were most of a move's POST time ("Online matches"); under 20 search clients a request
  thread spent 28 % of its time waiting at one (issue 40). Here the chain is loaded in sync
  mode and the whole of it, with the view, runs in the request's thread in ONE hand-off
  (`get_response_async`). With the request_started signal before it and the response's
  close after it, a request crosses from the loop to its thread three times in all,
  whatever the middleware (tests/cardgame/test_asgi_middleware.py counts them).
- **Threads.** Django runs each request's synchronous code in a thread of its own, created
  for that request and dropped after it (`ThreadSensitiveContext()` per request). Under 50
  concurrent games, starting those threads was ~5 % of the web process's samples and another
  ~5 % went to setting up their contexts, and each new thread's database connection was new
  to it as well. Here a request borrows an idle single-thread executor, the way a threaded
  WSGI server reuses its threads: requests still never share a thread at the same time, so
  nothing changes for the code that runs in them.
"""

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections


class ReusedThreadsASGIHandler(ASGIHandler):
    """A request's chain and view in one hand-off to an idle request thread; as many
    threads as requests ran at once."""

    def __init__(self):
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []
        self.threads_started = 0

    def _borrow(self) -> ThreadPoolExecutor:
        if self._idle:
            return self._idle.pop()
        self.threads_started += 1
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="django-request")

    def load_middleware(self, is_async=False):
        """The chain in sync mode, always: it runs in the request's thread (see above)."""
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        """The middleware chain and the view, in the request's thread, in one hand-off."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self._borrow()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            # Only the event loop touches the list (no lock needed).
            self._idle.append(executor)

    def close(self) -> None:
        """Close each idle thread's database connections and stop it (tests, shutdown)."""
        while self._idle:
            executor = self._idle.pop()
            executor.submit(connections.close_all).result()
            executor.shutdown()
