"""Django's Redis cache client against Felt's (config/adapters/redis_cache.py):
``python scripts/bench_cache.py [--reads 5000] [--rounds 5]``.

Reads one key through each, turn about, on the Redis that ``REDIS_URL`` names
(the machine's own on 127.0.0.1 by default, database 5, clear of ``make run``'s
and the tests'), and prints the median time of a read over the rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-cache-only")

import django  # noqa: E402

django.setup()

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache  # noqa: E402

from config.adapters.redis_cache import RedisCache  # noqa: E402

KEY = "bench-cache"


def microseconds_per_read(cache: Any, reads: int) -> float:
    started = time.perf_counter()
    for _ in range(reads):
        cache.get(KEY)
    return (time.perf_counter() - started) / reads * 1e6


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/5"))
    options = parser.parse_args(argv)
    params = {"KEY_PREFIX": "bench"}
    sides = {
        "Django's client": DjangoRedisCache(options.url, params),
        "Felt's": RedisCache(options.url, params),
    }
    next(iter(sides.values())).set(KEY, ("a token", 1.0), 60)  # a wake note's shape
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(options.rounds):
        for name, cache in sides.items():
            times[name].append(microseconds_per_read(cache, options.reads))
    for name, found in times.items():
        print(f"{name}: {statistics.median(found):.1f} µs per read (median of {options.rounds})")
    next(iter(sides.values())).delete(KEY)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
