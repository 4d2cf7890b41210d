"""Issue 18: the dev server's autoreload restarts on an edit of engine/*.py even when the
engine runs compiled (its modules then load from build/engine-mypyc, engine/_build.py)."""

from pathlib import Path

from django.utils.autoreload import StatReloader, autoreload_started

import engine


def test_autoreload_watches_the_engine_sources():
    reloader = StatReloader()
    autoreload_started.send(sender=reloader)  # as runserver does when it starts watching
    engine_dir = Path(engine.__file__).resolve().parent
    assert "*.py" in reloader.directory_globs[engine_dir]
    watched = set(reloader.watched_files(include_globs=True))
    assert engine_dir / "game.py" in watched
