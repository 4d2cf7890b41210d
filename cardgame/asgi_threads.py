"""Django's ASGI handler, with request threads that are used again.

Django runs each ASGI request's synchronous code (middleware, view, ORM) in a thread of
its own, created for that request and dropped after it (`ThreadSensitiveContext()` per
request). Under 50 concurrent games, starting those threads was ~5 % of the web process's
samples and another ~5 % went to setting up their contexts (py-spy, bench/RESULTS.md), and
each new thread's database connection was new to it as well. Here a request borrows an idle
single-thread executor, the way a threaded WSGI server reuses its threads: requests still
never share a thread at the same time, so nothing changes for the code that runs in them.
"""

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler
from django.db import connections


class ReusedThreadsASGIHandler(ASGIHandler):
    """One idle request thread per request; as many threads as requests ran at once."""

    def __init__(self):
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []
        self.threads_started = 0

    def _borrow(self) -> ThreadPoolExecutor:
        if self._idle:
            return self._idle.pop()
        self.threads_started += 1
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="django-request")

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
