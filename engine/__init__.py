"""The KGK rules engine: pure Python, no Django, no I/O, no clock (DESIGN.md).

The rule modules may run compiled (mypyc, built by `make setup`): engine/_build.py picks the
build at this first import; ``KGK_ENGINE_PURE=1`` runs these .py files."""

from . import _build

_build.select(__path__)
