"""The fault drill's machinery (``scripts/fault_drill.py``): its own Redis and
PostgreSQL (``servers.py``), its nodes (``nodes.py``) and the balancer in front of
them (``proxy.py``, ``tcp_proxy.py``). What the players saw is judged by
``tables/loadtest/faults.py``."""
