"""What the table page shows, in a real browser: the raise box, the pot and the chat."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.support.chromium import BROWSER_TEST
from tests.support.table_pages import facing_a_bet

pytestmark = BROWSER_TEST

CONTROLS = """
<div data-controls>
  <div data-raise-box>
    <button data-preset="min">Min</button><button data-preset="max">All-in</button>
    <input type="range" data-raise-slider><input type="number" data-raise-amount>
    <p data-raise-note hidden></p>
  </div>
  <button data-act="fold">Fold</button><button data-act="call">Call</button>
  <button data-act="raise">Raise</button>
</div>"""


def to_act(table: dict) -> dict:
    table = {**table, "your_seat": 1, "to_act": 1, "hand_number": 3, "decision": "3.9"}
    table["seats"] = [dict(seat) for seat in table["seats"]]
    table["seats"][1]["stack"] = 1440
    return table


def controls_page(static_url: str, browser: Browser, table: dict) -> Page:
    """A page holding only the action bar, drawn for ``table``; what it sends is kept
    in ``window.sent``."""
    page = browser.new_page()
    page.goto(f"{static_url}/healthz")  # any page: the modules load from its /static/
    page.evaluate(
        """async ([markup, table]) => {
          document.body.innerHTML = markup;
          const { Controls } = await import("/static/js/controls.js");
          window.sent = [];
          window.controls = new Controls(document.querySelector("[data-controls]"),
                                         (message) => window.sent.push(message));
          window.controls.update(table);
        }""",
        [CONTROLS, table],
    )
    return page


def test_the_raise_box_slider_and_button_agree_inside_the_legal_range(
    static_url: str, browser: Browser
) -> None:
    page = controls_page(static_url, browser, to_act(facing_a_bet()))
    box, slider, button = "[data-raise-amount]", "[data-raise-slider]", '[data-act="raise"]'

    def shown() -> tuple[str, str, str]:
        return page.input_value(box), page.input_value(slider), page.inner_text(button).strip()

    assert shown() == ("240", "240", "Raise to 240 R")
    page.fill(box, "99999")  # as typed: the box shows the most there is at once
    assert shown() == ("1440", "1440", "All-in 1440 R")
    page.fill(box, "500")
    assert shown() == ("500", "500", "Raise to 500 R")
    page.fill(box, "3")  # on its way to "300": left alone while typing, the rest at the minimum
    assert shown() == ("3", "240", "Raise to 240 R")
    page.locator(box).blur()
    assert shown() == ("240", "240", "Raise to 240 R")
    page.locator(slider).fill("1000")
    assert shown() == ("1000", "1000", "Raise to 1000 R")


def test_an_amount_the_rules_refuse_is_explained_and_never_sent_unseen(
    static_url: str, browser: Browser
) -> None:
    page = controls_page(static_url, browser, to_act(facing_a_bet()))
    box, note, raise_button = "[data-raise-amount]", "[data-raise-note]", '[data-act="raise"]'

    def sent() -> list:
        return page.evaluate("window.sent")

    page.fill(box, "3")
    assert page.inner_text(note) == "The smallest raise is to 240"
    page.locator(box).press("Enter")  # confirms the raise: corrected in the box, not sent
    assert sent() == []
    assert page.input_value(box) == "240"
    assert page.inner_text(note) == "The smallest raise is to 240"
    assert page.get_attribute(box, "aria-invalid") == "true"
    page.click(raise_button)  # now the player has seen 240
    assert sent() == [{"type": "act", "action": "raise", "decision": "3.9", "amount": 240}]

    page.evaluate("(table) => window.controls.update(table)", to_act(facing_a_bet()))
    page.fill(box, "99999")  # more than there is: all of it, and why
    assert page.input_value(box) == "1440"
    assert page.inner_text(note) == "You have 1,440: all-in is 1,440"
    page.fill(box, "500")
    assert not page.locator(note).is_visible()
    page.click(raise_button)
    assert sent()[-1]["amount"] == 500


def test_the_pot_shown_counts_the_bets_in_front(static_url: str, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{static_url}/healthz")  # any page: the modules load from its /static/
    texts = page.evaluate(
        """async (table) => {
          const { potText } = await import("/static/js/render.js");
          const sides = structuredClone(table);
          sides.hand.pots = [{ amount: 150, seats: [0, 1] }, { amount: 30, seats: [1] }];
          const none = { ...table, hand: { pots: [], current_bet: 0 },
                         seats: [{ occupied: true, bet: 0 }] };
          return [potText(table), potText(sides), potText(none), potText({ ...table, hand: null })];
        }""",
        facing_a_bet(),
    )
    # 180 gathered and 120 bet in front: 300 in the middle.
    assert texts == ["Pot 300", "Pot 300 · Main pot 150 · Side pot 1 30", "", ""]


def test_chat_lines_show_as_text_never_as_html(static_url: str, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{static_url}/healthz")  # any page: the modules load from its /static/
    shown = page.evaluate(
        """async () => {
          const { addChat } = await import("/static/js/chat.js");
          const list = document.createElement("ol");
          document.body.append(list);
          addChat(list, [{ name: "<i>eve</i>", text: "<img src=x onerror=alert(1)>", at: null }]);
          return [list.querySelectorAll("img, i").length, list.innerText];
        }"""
    )
    assert shown == [0, "<i>eve</i>: <img src=x onerror=alert(1)>"]
