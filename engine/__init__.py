"""The KGK rules engine: pure Python, no Django, no I/O, no clock (DESIGN.md)."""
