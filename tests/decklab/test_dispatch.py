"""One home for sending the lab's games away (a review of issue 39): a lab run's chunks and
deck advice's tasks both go through decklab.background.dispatch, to the Celery workers
(advice at the lowest priority), the embedded default's thread, or the test's thread."""

import pytest

from decklab import advice_queue, background, services, tasks
from decklab.chunks import play_chunk


@pytest.fixture
def sent(monkeypatch):
    calls = []
    monkeypatch.setattr(
        background, "dispatch", lambda task, ids, **options: calls.append((task, ids, options))
    )
    return calls


def test_the_lab_and_the_advice_send_through_the_same_dispatch(sent):
    advice_queue.send("play_advice_chunk", [101, 102])
    services._queue_chunks([201])
    services._queue_chunks([202], long=True)
    assert sent == [
        (tasks.play_advice_chunk, [101, 102], {"priority": advice_queue.ADVICE_PRIORITY}),
        (tasks.play_lab_chunk, [201], {"local": play_chunk}),
        (tasks.play_long_lab_chunk, [202], {"local": play_chunk}),
    ]


class Task:
    """A Celery task's surface that dispatch uses: its app's eagerness, apply_async, run."""

    def __init__(self, eager):
        self.app = type("App", (), {"conf": type("Conf", (), {"task_always_eager": eager})})()
        self.published, self.ran = [], []

    def apply_async(self, args, **options):
        self.published.append((args, options))

    def run(self, pk):
        self.ran.append(pk)


def test_to_the_workers_at_the_priority_asked_and_at_the_default_without(settings):
    task = Task(eager=False)
    background.dispatch(task, [1, 2], priority=9)
    background.dispatch(task, [3])
    assert task.published == [((1,), {"priority": 9}), ((2,), {"priority": 9}), ((3,), {})]
    assert task.ran == []


def test_eager_to_the_thread_or_in_the_logic_tests_here(settings, monkeypatch):
    task, local = Task(eager=True), []
    background.dispatch(task, [1])  # DECKLAB_PLAY_IN_REQUEST (decklab's conftest): here
    background.dispatch(task, [2], local=local.append)
    assert (task.ran, local) == ([1], [2])
    submitted = []
    monkeypatch.setattr(background, "submit", lambda ids, play: submitted.append((ids, play)))
    settings.DECKLAB_PLAY_IN_REQUEST = False
    background.dispatch(task, iter([3, 4]), local=local.append)
    assert submitted == [([3, 4], local.append)] and task.published == []
