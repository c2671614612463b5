"""What the browser tests share: Debian's Chromium driven by Playwright, and a live
Felt to point it at (Daphne and a Celery worker as child processes on the test
database and the test session's Redis: tests/tables/live_server.py).

The fixtures are offered to every test by tests/conftest.py. A module whose server
needs other settings overrides ``live_server_options``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.tables.live_server import live_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "correct-horse-battery-staple"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path("/tmp")

# `pytestmark = BROWSER_TEST` in every module that drives the browser.
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"Debian's chromium is not installed at {CHROMIUM}"
    ),
]

Result = TypeVar("Result")


@pytest.fixture
def browser() -> Iterator[Browser]:
    # One per test: Playwright's sync API keeps an event loop on the test's thread
    # while it runs, and Django refuses ORM calls from a thread with a running loop.
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def live_server_options() -> dict[str, Any]:
    """Keyword arguments for ``live_server``: a pause between hands long enough to see
    a finished hand (the first hand waits for it too)."""
    return {"next_hand_seconds": 3.0}


@pytest.fixture
def server_url(
    transactional_db: None, tmp_path: Path, live_server_options: dict[str, Any]
) -> Iterator[str]:
    with live_server(
        database_name=str(connection.settings_dict["NAME"]),
        workdir=tmp_path,
        host="localhost",
        **live_server_options,
    ) as url:
        yield url


def outside_the_browser_loop(call: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
    """Run ``call`` (ORM work) on a thread of its own: the test's thread has
    Playwright's event loop, where Django refuses to run queries."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call, *args, **kwargs).result()


def sign_up(
    browser: Browser,
    server_url: str,
    username: str,
    viewport: dict[str, int],
    **context_options: Any,
) -> Page:
    """A new member signed up in a browser context of their own (``context_options``:
    Playwright's, such as ``timezone_id``)."""
    page = browser.new_context(viewport=viewport, **context_options).new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text(f"Welcome to Felt, {username}.")).to_be_visible()
    return page
