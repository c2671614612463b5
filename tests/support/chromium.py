"""Debian's Chromium driven by Playwright for the browser tests, the members they sign
up, and a plain file server for the pages that need only the static files.

The fixtures (``browser``, ``shared_chromium``, ``static_url``) are offered to every
test by tests/conftest.py; the live server the pages talk to is
tests/support/live.py's.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from accounts.forms import SignUpForm
from accounts.members import member_sign_up
from tests.support import PASSWORD
from tests.support.live import ROOT

Result = TypeVar("Result")

# Chromium, driven by Playwright.

# Debian's headless shell of Chromium (package chromium-headless-shell): the same
# build, Blink and V8 as /usr/bin/chromium, without the browser's own windows. The
# full browser opened a window per browser context, each with two preloaded
# chrome://omnibox-popup.top-chrome pages in renderers of their own: two browser
# modules cost 32 s of Chromium's processor time with it and 14 s with the shell.
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path("/tmp")

# `pytestmark = BROWSER_TEST` in every module that drives the browser.
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"Debian's chromium-headless-shell is not installed at {CHROMIUM}",
    ),
]


class SharedChromium:
    """One Chromium, and one Playwright driver, per test process.

    Playwright's sync API drives the browser from an event loop that it leaves
    marked as running on the test's thread after every call, and Django refuses
    ORM calls while a loop runs there. A browser kept for the whole session would
    leave that mark on the tests that come after a browser test, so the mark is
    set for each browser test and taken off when it ends; between tests the loop
    only waits (nothing switches to it), and every context a test opened is closed.
    Launching a browser and its driver per test cost about 0.45 s of processor
    time each on the 2-core VM.
    """

    def __init__(self) -> None:
        self.playwright: Playwright | None = None
        self.browser: Browser | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def for_a_test(self) -> Browser:
        if self.browser is not None and self.browser.is_connected():
            asyncio._set_running_loop(self.loop)  # as the last Playwright call left it
            return self.browser
        self.close()
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        self.loop = asyncio.get_running_loop()
        return self.browser

    def after_a_test(self) -> None:
        try:
            if self.browser is not None and self.browser.is_connected():
                for context in self.browser.contexts:
                    context.close()
        finally:
            asyncio._set_running_loop(None)

    def close(self) -> None:
        if self.playwright is None:
            return
        asyncio._set_running_loop(self.loop)
        try:
            if self.browser is not None and self.browser.is_connected():
                self.browser.close()
            self.playwright.stop()
        finally:
            asyncio._set_running_loop(None)
            self.playwright = self.browser = self.loop = None


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[SharedChromium]:
    chromium = SharedChromium()
    yield chromium
    chromium.close()


@pytest.fixture
def browser(shared_chromium: SharedChromium) -> Iterator[Browser]:
    """The test process's Chromium, with no context open; the test's contexts are
    closed when it ends."""
    try:
        yield shared_chromium.for_a_test()
    finally:
        shared_chromium.after_a_test()


class StaticFiles(SimpleHTTPRequestHandler):
    """/static/... from the source folder, and an empty page at any other path."""

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        if self.path.startswith("/static/"):
            self.path = self.path.removeprefix("/static")
            super().do_GET()
            return
        body = b"<!doctype html><title>Felt test page</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """A plain file server of static/, for the pages that test browser code alone
    (the modules load from its /static/): no database, Daphne or worker to start."""
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(StaticFiles, directory=str(ROOT / "static"))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def outside_the_browser_loop(call: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
    """Run ``call`` (ORM work) on a thread of its own: the test's thread has
    Playwright's event loop, where Django refuses to run queries. The thread's
    connection is closed after it: on PostgreSQL that gives it back to the pool,
    which a test polling the database would otherwise empty (20 calls)."""

    def then_close() -> Result:
        try:
            return call(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(then_close).result()


def new_member_session(username: str) -> str:
    """A member made as the sign-up page makes one (``accounts/members.py``), logged
    in; their session's key."""
    form = SignUpForm(
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
    )
    if not form.is_valid():
        raise ValueError(f"cannot sign {username} up: {form.errors.as_text()}")
    user = member_sign_up(form)
    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def sign_up(
    browser: Browser,
    server_url: str,
    username: str,
    viewport: dict[str, int],
    **context_options: Any,
) -> Page:
    """A new member, logged in, on the lobby, in a browser context of their own
    (``context_options``: Playwright's, such as ``timezone_id``).

    They are signed up as the sign-up page would and handed its session cookie:
    ``sign_up_on_the_page`` fills the page's form, two page loads more, for the
    tests of signing up in a browser."""
    session_key = outside_the_browser_loop(new_member_session, username)
    context = browser.new_context(viewport=viewport, **context_options)
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session_key, "url": server_url}]
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server_url}/")
    # Signed in (on a narrow screen the button is in the closed menu).
    expect(
        page.get_by_role("button", name="Log out", exact=True, include_hidden=True)
    ).to_be_attached()
    return page


def sign_up_on_the_page(
    browser: Browser, server_url: str, username: str, viewport: dict[str, int]
) -> Page:
    """A new member who has filled in the sign-up page, in a browser context of their
    own, on the lobby with its welcome."""
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text(f"Welcome to Felt, {username}.")).to_be_visible()
    return page
