"""In Chromium: the create form's game and options, drawn like the site's other
fields; the invite page of an Omaha table, naming the game, blinds and options, on
a phone and a laptop; and a table appearing in another member's open lobby when
its host lists it, and leaving it when the host takes it off."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.support.chromium import BROWSER_TEST, DESKTOP, PHONE, SCREENSHOTS, sign_up
from tests.support.table_pages import TABLE_LINK, show_panel_tab, table_id_of

pytestmark = BROWSER_TEST

LAPTOP = {"width": 1280, "height": 720}
TAP = 44  # px: the least a finger can hit


def open_omaha_table(page: Page, server_url: str, *, shots: str | None = None) -> str:
    """Opens an Omaha table with every option through /tables/new/; its link."""
    page.goto(f"{server_url}/tables/new/")
    page.fill("#id_name", "Omaha night")
    page.get_by_label("Game").select_option(label="Pot-Limit Omaha")
    page.get_by_label("Straddles").check()
    page.get_by_label("Run it twice").check()
    page.fill("#id_bomb_pot_ante", "40")
    page.fill("#id_bomb_pot_every", "5")
    if shots:
        page.screenshot(path=SCREENSHOTS / f"{shots}.png", full_page=True)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(TABLE_LINK)
    return page.url


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def middle(rect: dict[str, float]) -> float:
    return rect["y"] + rect["height"] / 2


def fits_the_width(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_the_create_form_draws_the_game_and_its_checkboxes_like_its_text_boxes(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hazel", PHONE)
    for size, viewport in (("390", PHONE), ("1280", LAPTOP)):
        host.set_viewport_size(viewport)
        host.goto(f"{server_url}/tables/new/")
        assert fits_the_width(host)
        game, name = box(host, "#id_game"), box(host, "#id_name")
        assert game["height"] == name["height"] and game["width"] == name["width"]
        border = "el => getComputedStyle(el).borderTopColor"
        assert host.eval_on_selector("#id_game", border) == host.eval_on_selector(
            "#id_name", border
        )
        for field in ("allows_straddle", "offers_run_it_twice", "is_listed"):
            tick = box(host, f"#id_{field}")
            words = box(host, f"label[for=id_{field}] span")
            line = box(host, f"label[for=id_{field}]")
            assert tick["x"] + tick["width"] <= words["x"], f"{field}: the box before its words"
            assert abs(middle(tick) - middle(words)) <= 3, f"{field}: box and words aligned"
            assert line["height"] >= TAP and tick["width"] >= 20, f"{field}: big enough to tap"
        host.screenshot(path=SCREENSHOTS / f"felt-table-new-{size}.png", full_page=True)
    expect(host.get_by_label("List this table in the lobby")).not_to_be_checked()
    host.get_by_text("List this table in the lobby").click()  # the words tick it too
    expect(host.get_by_label("List this table in the lobby")).to_be_checked()


def test_the_invite_page_of_an_omaha_table_names_its_game_blinds_and_options(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hazel", DESKTOP)
    link = open_omaha_table(host, server_url, shots="felt-table-new-omaha-1280")

    friend = browser.new_context(viewport=PHONE).new_page()
    friend.goto(link)
    lead = friend.locator("main p").filter(has_text="invited you")
    options = friend.get_by_role("list", name="Also in play")
    for size, viewport in (("390", PHONE), ("1280", LAPTOP)):
        friend.set_viewport_size(viewport)
        expect(friend.get_by_role("heading", name="Join Omaha night")).to_be_visible()
        expect(lead).to_contain_text("hazel invited you to a game of Pot-Limit Omaha")
        expect(lead).to_contain_text("blinds 10/20, 1500 chips to start, 6 seats")
        expect(lead).not_to_contain_text("Hold'em")
        expect(options.get_by_role("listitem")).to_have_text(
            ["Straddles", "Run it twice", "Bomb pot 40 every 5 hands"]
        )
        assert fits_the_width(friend)
        friend.screenshot(path=SCREENSHOTS / f"felt-invite-omaha-{size}.png", full_page=True)


def test_a_table_comes_and_goes_in_an_open_lobby_as_its_host_lists_it(
    server_url: str, browser: Browser
) -> None:
    host = sign_up(browser, server_url, "hazel", DESKTOP)
    link = open_omaha_table(host, server_url)
    path = f"/tables/{table_id_of(link)}/"  # the lobby's own link: the table is listed

    other = sign_up(browser, server_url, "ivan", PHONE)  # on the lobby
    expect(other.locator("[data-connection-status]")).to_have_text("Live")
    lobby = other.locator("#open-tables")
    expect(lobby).to_contain_text("No table has a free seat right now.")

    show_panel_tab(host, "Host")
    listing = host.get_by_role("region", name="Host controls").get_by_label(
        "List this table in the lobby"
    )
    expect(listing).not_to_be_checked()
    listing.check()
    line = lobby.locator(f'[data-table-id="{table_id_of(link)}"]')
    expect(line).to_have_text(
        "Omaha night · Pot-Limit Omaha · blinds 10/20 · Straddles · Run it twice"
        " · Bomb pot 40 every 5 hands · 0/6 seated"
    )
    expect(line.get_by_role("link", name="Omaha night")).to_have_attribute("href", path)
    expect(lobby.get_by_text("No table has a free seat right now.")).to_be_hidden()
    other.screenshot(path=SCREENSHOTS / "felt-lobby-listed-390.png", full_page=True)
    host.screenshot(path=SCREENSHOTS / "felt-host-panel-listed-1280.png")

    listing.uncheck()
    expect(line).to_have_count(0)
    expect(lobby).to_contain_text("No table has a free seat right now.")
    other.reload()
    expect(lobby).not_to_contain_text("Omaha night")
    host.goto(f"{server_url}/")
    expect(host.locator("#open-tables")).to_contain_text("by link only")
