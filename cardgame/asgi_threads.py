"""Django's ASGI handler, with the request's synchronous work in one reused thread.

Two costs of Django's own handler, both measured under load (bench/RESULTS.md):

- **Hand-offs.** It runs the middleware in async mode: each async-capable middleware hands
  its process_request / process_response to a thread and back, a sync-only one splits the
  chain, and the view, process_view and the error log are each one more hand-off, every one
  waiting for the busy event loop and the GIL. Under 50 concurrent games those hand-offs
  were most of a move's POST time ("Online matches"); under 20 search clients a request
  thread spent 28 % of its time waiting at one (issue 40). Here the chain is loaded in sync
  mode and the whole of it, with the view, runs in the request's thread in ONE hand-off.
  The request_started signal before it and, for an answer already in memory (not a
  streamed file), the response's close and its request_finished signal after it run in
  the same hand-off: a request crosses from the loop to its thread once, whatever the
  middleware (tests/cardgame/test_asgi_middleware.py counts it). A streamed answer is
  closed after it is sent, in a second hand-off, as Django does.
- **Tasks.** Django runs the view in a task beside one that listens for the client's
  disconnect, to cancel the view's task; a thread cannot be cancelled, so for the request's
  synchronous work that only stopped the wait. Here the answer to a client that has gone is
  sent anyway, and the server drops it.
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
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.db import connections
from django.http import FileResponse
from django.urls import set_script_prefix


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

    async def handle(self, scope, receive, send):
        """Django's ASGIHandler.handle with the request's synchronous work in one hand-off."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            try:
                await self.send_response(response, send)
            finally:  # even when the send fails: request_finished closes the thread's connection
                if response.streaming:  # its file or iterator was read by the send
                    await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope, body_file):
        """In the request's thread: request_started, the chain with the view, and the close
        of an answer that is all in memory (request_finished: connections and caches)."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):  # the server chunks it: bigger reads
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response

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
