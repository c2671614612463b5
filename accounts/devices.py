"""A browser's user agent as a member reads it on their profile: "Firefox on Windows".

The parsing is ua-parser's (the regular expressions of the uap-core project, shipped
by ua-parser-builtins and kept up to date with new browsers and systems), not rules
of Felt's own: user agents lie in layers (every browser claims to be Mozilla, Edge
claims Chrome and Safari, Chrome on iOS calls itself CriOS), and a list of a few
rules here would name the wrong browser as soon as one of them changes its string.
"""

from __future__ import annotations

from functools import lru_cache

import ua_parser

UNKNOWN = "Unknown browser"


@lru_cache(maxsize=512)  # a member's list repeats a few strings; the first parse costs most
def device_name(user_agent: str) -> str:
    """The browser and system, with the phone or tablet where the string names one
    ("Mobile Safari on iOS (iPhone)"); ``UNKNOWN`` for an empty or unknown string."""
    if not user_agent:
        return UNKNOWN
    found = ua_parser.parse(user_agent)
    browser = found.user_agent.family if found.user_agent else ""
    system = found.os.family if found.os else ""
    device = found.device.family if found.device else ""
    if browser in ("", "Other"):
        return UNKNOWN
    name = browser if system in ("", "Other") else f"{browser} on {system}"
    if device and device not in ("Other", "Generic Smartphone", "Spider", "Mac", "K"):
        name += f" ({device})"
    return name
