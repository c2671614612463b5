"""The engine's one speed trick: building frozen values without their ``__init__``.

A frozen dataclass's ``__init__`` writes each field through
``object.__setattr__``, and for ``HandState`` (25 fields) that cost more than
the rest of a decision. The builders here write the same fields directly. They
are used only on values built moments before, which nobody else holds yet, so
immutability holds for everyone who can see a value.
``tests/engine/test_construction.py`` checks that each builder produces exactly
what normal construction does.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Point:
...     x: int
...     y: int
>>> frozen_from_dict(Point, {"x": 1, "y": 2}) == Point(1, 2)
True
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

new_instance = object.__new__
"""An instance of a class, with no field set yet."""

write_fresh = object.__setattr__
"""Set one field of a value built moments ago, which nobody else holds yet."""


def frozen_from_dict(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of the (non-slotted) frozen dataclass ``cls`` holding ``fields``
    (every field, by name). ``fields`` becomes the instance's own ``__dict__``."""
    new = new_instance(cls)
    write_fresh(new, "__dict__", fields)
    return new


def slot_setters(cls: type) -> tuple[Any, ...]:
    """The ``__set__`` of each field's slot of the slotted dataclass ``cls``, in field order.

    Writing the slots through their descriptors is what ``object.__setattr__``
    ends up doing, in about half the time: for values built by the million
    (``PlayerActed``, ``HoleCardsDealt``, ``LegalActions``).
    """
    return tuple(vars(cls)[field.name].__set__ for field in dataclasses.fields(cls))
