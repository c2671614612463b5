"""Adapters over dependencies' internals: each reaches past a public API
(channels-redis' layer, Daphne's websocket protocol, Django's SQLite and
PostgreSQL backends, Redis cache client and database sessions, Celery's worker
consumer),
so each is pinned to the releases it was written against
(tests/config/test_adapter_pins.py). Platform pieces: they know no app.
"""
