"""Django's PostgreSQL backend with a pool that replaces all its dead connections at once
(see base.py). Settings select it with DATABASE_POOL=1."""
