"""PostgreSQL whose pool never hands out a connection a server restart ended (base.py)."""
