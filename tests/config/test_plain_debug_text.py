"""autobahn's per-frame debug text without terminal colours
(config/adapters/plain_debug_text.py): the same words, and nothing changed where
autobahn no longer has the helpers. What it saves is measured, not timed here
(docs/performance.md, session 33)."""

from __future__ import annotations

import re

import pytest
from autobahn import util
from autobahn.twisted import websocket as twisted_websocket
from autobahn.websocket import protocol

from config.adapters import plain_debug_text

COLOURS = re.compile(r"\x1b\[[0-9;]*m")
MODULES = (protocol, twisted_websocket)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in MODULES:  # put back as they were after the test
        for name in plain_debug_text.HELPERS:
            monkeypatch.setattr(module, name, getattr(module, name))
    assert plain_debug_text.install()


def test_a_frame_s_debug_text_has_the_same_words_without_colours(installed: None) -> None:
    sender = protocol.WebSocketProtocol().sendData
    for module in MODULES:
        plain = module.hltype(sender), module.hlval("tcp:127.0.0.1:5000"), module.hlval(4096)
        styled = util.hltype(sender), util.hlval("tcp:127.0.0.1:5000"), util.hlval(4096)
        assert plain == tuple(COLOURS.sub("", text) for text in styled)
        assert plain[0] == "<autobahn.websocket.protocol.WebSocketProtocol.sendData>"
        assert not any(COLOURS.search(text) for text in plain)


def test_nothing_changes_where_autobahn_no_longer_has_the_helpers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(twisted_websocket, "hlval")
    before = protocol.hltype

    assert not plain_debug_text.install()
    assert protocol.hltype is before
