"""The engine tests' Hypothesis profile.

Hypothesis times each example (``deadline``) and the drawing of inputs
(``HealthCheck.too_slow``) by the wall clock. ``make test`` shares two cores
between three runs, with this one at a lower priority, so those clocks judge the
machine's load, not the code: both are off. The properties and the number of
examples stay as each test sets them.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("felt", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("felt")
