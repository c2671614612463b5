"""Argument types of the load-test commands: a bad value stops argparse with its message."""


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def non_negative_int(text: str) -> int:
    """A count of flooding clients: 0 to 6 (one table's seats)."""
    value = int(text)
    if not 0 <= value <= 6:
        raise ValueError(text)
    return value


def positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise ValueError(text)
    return value


def non_negative_float(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise ValueError(text)
    return value
