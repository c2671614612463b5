"""The players' cut in the browser's own code, with no server (static/js/fairness.js,
static/js/cut.js): the replayer's check agrees with the engine's on cut hands, and the
table page commits, reveals and marks a hand's cut as docs/protocol.md says."""

from __future__ import annotations

import hashlib
from random import Random
from typing import Any

from playwright.sync_api import Browser, Page, expect

from engine.cards import DECK
from engine.cut import contribution_commitment, cut_deck, make_cut
from engine.deal import new_hand
from engine.fairness import seal_deck
from tests.engine.cut_hands import CutHand, api_hand, cut_hand
from tests.support.chromium import BROWSER_TEST
from tests.support.fairness_checks import answer_problems

pytestmark = BROWSER_TEST

# docs/fairness.md's worked example, "The cut"
EXAMPLE_SEAL = "2bceb3a4d2cb1432d1eed3ba66882ad18571d9892cca6f8441dd91809fb6fc5c"
EXAMPLE_SEED = "deacbd8247c8d4731d9bcffbf878b907f620547826af7a7eb61c51237b5d0333"
EXAMPLE_DIGEST = "0daee77615b627217b68d2cf9f80e1de9a7ba3f34a92465cf64fd7cc4e147ae3"
ALICE, BOB = "11" * 32, "22" * 32
OPEN, NEXT, LATER = "a" * 32, "b" * 32, "c" * 32  # hands' refs


def list_digest(commitments: list[str]) -> str:
    """static/js/fairness.js's note of a closed list of commitments."""
    return hashlib.sha256(f"felt-cut-list:{','.join(sorted(commitments))}".encode()).hexdigest()


def blank_page(static_url: str, browser: Browser) -> Page:
    page = browser.new_page()
    page.goto(f"{static_url}/healthz")  # any page: the modules load from its /static/
    return page


def engine_check(hand: dict[str, Any]) -> list[str]:
    """What ``python -m engine verify`` finds in a hand as the replayer has it."""
    return answer_problems(hand)


def browser_checks(page: Page, hands: list[dict[str, Any]]) -> list[list[str]]:
    return page.evaluate(
        """async (hands) => {
          const { verifyHand } = await import("/static/js/fairness.js");
          const problems = [];
          for (const hand of hands) problems.push(await verifyHand(hand));
          return problems;
        }""",
        hands,
    )


def two_value_hand(values_used: tuple[bool, bool] = (True, True)) -> CutHand:
    """A heads-up hand just dealt from the worked example's deck, cut by alice and bob
    (either left out when told): seat 0 has seen their two cards."""
    salts = [f"{i:032x}" for i in range(52)]
    seal = seal_deck(DECK, salts)
    contributions = [
        (contribution_commitment("7:42", value), value if used else None)
        for value, used in zip((ALICE, BOB), values_used, strict=True)
    ]
    cut = make_cut("7:42", seal.commitment, contributions)
    state = new_hand([200, 200], 0, 1, 2, deck=cut_deck(DECK, cut.permutation))
    return CutHand(state, seal, cut, (ALICE, BOB))


def test_the_browser_makes_the_worked_examples_seed_and_permutation(
    static_url: str, browser: Browser
) -> None:
    page = blank_page(static_url, browser)
    made = page.evaluate(
        """async ([seal, values]) => {
          const cut = await import("/static/js/fairness.js");
          const seed = await cut.cutSeed(seal, values);
          const permutation = await cut.cutPermutation(seed);
          return {
            seed: Array.from(seed, (b) => b.toString(16).padStart(2, "0")).join(""),
            digest: await cut.permutationDigest(permutation),
            commitment: await cut.cutCommitment("7:42", values[1]),
          };
        }""",
        [EXAMPLE_SEAL, [BOB, ALICE]],
    )
    assert made == {
        "seed": EXAMPLE_SEED,
        "digest": EXAMPLE_DIGEST,
        "commitment": contribution_commitment("7:42", ALICE),
    }


def test_every_viewer_of_a_cut_hand_verifies_in_the_browser_as_in_the_engine(
    static_url: str, browser: Browser
) -> None:
    hands = []
    for seed in range(40):
        hand = cut_hand(Random(seed))
        hands.extend(api_hand(hand, viewer) for viewer in (*hand.state.players, None))
    assert all(engine_check(hand) == [] for hand in hands)
    assert browser_checks(blank_page(static_url, browser), hands) == [[] for _ in hands]


def test_an_altered_cut_fails_with_the_engines_sentences(static_url: str, browser: Browser) -> None:
    honest = api_hand(two_value_hand(), 0)
    altered = []
    for change in ("value", "seed", "digest", "uncut", "unreadable", "without"):
        hand = api_hand(two_value_hand(), 0)
        record = hand["fairness"]["cut"]
        if change == "value":
            record["contributions"][0]["value"] = "33" * 32
        elif change == "seed":
            record["seed"] = "00" * 32
        elif change == "digest":
            record["permutation_digest"] = honest["fairness"]["cut"]["seed"]
        elif change == "uncut":
            record["uncut"] = True
        elif change == "unreadable":
            record["contributions"][1]["commitment"] = "ab"
        else:
            del hand["fairness"]["cut"]  # the dealt positions read as sealed ones
        altered.append(hand)
    problems = browser_checks(blank_page(static_url, browser), altered)
    for hand, found in zip(altered, problems, strict=True):
        assert found and found == engine_check(hand)


def show_verification(page: Page, hand: dict[str, Any], own: dict[str, Any] | None):
    page.evaluate(
        """async ([hand, own]) => {
          document.body.innerHTML = '<p class="fairness" data-fairness></p>';
          const { showVerification } = await import("/static/js/fairness.js");
          await showVerification(document.querySelector("[data-fairness]"), hand, own);
        }""",
        [hand, own],
    )
    return page.locator("[data-fairness]")


def test_the_replayer_says_how_the_hand_was_cut_and_whether_yours_was_in(
    static_url: str, browser: Browser
) -> None:
    page = blank_page(static_url, browser)
    hand = api_hand(two_value_hand(), 0)
    seal = hand["fairness"]["commitment"]
    verdict = show_verification(page, hand, {"value": ALICE, "seal": seal})
    expect(verdict).to_have_attribute("data-verified", "yes")
    expect(verdict).to_have_text(
        "Deck verified: the 2 cards you saw are the ones sealed before the deal, "
        "cut by 2 players, yours included."
    )
    verdict = show_verification(page, hand, None)
    expect(verdict).to_contain_text("cut by 2 players.")

    left_out = api_hand(two_value_hand((False, True)), 0)
    verdict = show_verification(page, left_out, {"value": ALICE, "seal": seal})
    expect(verdict).to_have_attribute("data-verified", "disputed")
    expect(verdict).to_have_text(
        "Disputed: your cut value was left out, though the server took it in time. "
        "Deck verified: the 2 cards you saw are the ones sealed before the deal, "
        "cut by 1 player."
    )

    uncut = api_hand(two_value_hand((False, False)), 0)
    verdict = show_verification(page, uncut, None)
    expect(verdict).to_contain_text("uncut: no player's value went into the order of the deal")

    verdict = show_verification(page, hand, {"value": ALICE, "seal": "ef" * 32})
    expect(verdict).to_have_attribute("data-verified", "no")
    expect(verdict).to_contain_text("not the seal shown before you revealed your cut value")


# --- The table page's part (static/js/cut.js) --------------------------------------


def cut_page(static_url: str, browser: Browser) -> Page:
    """A page holding only the cut's mark; what it sends is kept in ``window.sent``, and
    the socket is open while ``window.connected`` is true."""
    return install_cut(blank_page(static_url, browser))


def install_cut(page: Page) -> Page:
    page.evaluate(
        """async () => {
          document.body.innerHTML = '<p class="table-facts"><button data-cut hidden></button></p>';
          window.sent = [];
          window.connected = true;
          const { TableCut } = await import("/static/js/cut.js");
          window.cut = new TableCut(document.querySelector("[data-cut]"), (message) => {
            if (window.connected) window.sent.push(message);
            return window.connected;
          });
        }"""
    )
    return page


def snapshot(page: Page, cut: dict[str, Any] | None, seat: int | None = 0, **table: Any) -> None:
    """The page's TableCut is given a table, and has done what it does with it."""
    page.evaluate(
        "async (table) => { window.cut.update(table); await window.cut.work; }",
        {"your_seat": seat, "cut": cut, "commitment": None, **table},
    )


def sent(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("window.sent.splice(0)")


def stored(page: Page) -> dict[str, Any]:
    return page.evaluate('JSON.parse(localStorage.getItem("felt-cut-values") || "{}")')


def answer(page: Page, message: dict[str, Any]) -> bool | None:
    """A frame from the server to the cut: ``cut_accepted``, or an error (whether the
    cut took it)."""
    if message["type"] == "cut_accepted":
        return page.evaluate("(message) => window.cut.accepted(message)", message)
    return page.evaluate("(message) => window.cut.tookError(message)", message)


def test_a_seated_page_commits_then_reveals_in_one_message_each_hand(
    static_url: str, browser: Browser
) -> None:
    page = cut_page(static_url, browser)
    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None}, seat=None)
    assert sent(page) == [], "a spectator takes no part"

    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None})
    value = stored(page)[OPEN]["value"]
    commitment = contribution_commitment(OPEN, value)
    assert sent(page) == [{"type": "cut", "commit": {"hand": OPEN, "commitment": commitment}}]
    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None})
    assert sent(page) == [], "sent once"
    answer(page, {"type": "cut_accepted", "commit": OPEN, "reveal": None})

    # The next snapshot seals OPEN's deck, with bob's commitment and ours, and opens NEXT.
    sealed = {"hand": OPEN, "seal": EXAMPLE_SEAL, "commitments": sorted(["ab" * 32, commitment])}
    snapshot(page, {"open": NEXT, "sealed": sealed, "dealt": None})
    (message,) = sent(page)
    assert message["reveal"] == {"hand": OPEN, "value": value}
    assert message["commit"]["hand"] == NEXT
    assert message["commit"]["commitment"] == contribution_commitment(
        NEXT, stored(page)[NEXT]["value"]
    )
    answer(page, {"type": "cut_accepted", "commit": NEXT, "reveal": OPEN})
    assert stored(page)[OPEN] == {
        "value": value,
        "commitAccepted": True,
        "seal": EXAMPLE_SEAL,
        "listDigest": list_digest(sealed["commitments"]),
        "revealAccepted": True,
    }
    snapshot(page, {"open": NEXT, "sealed": sealed, "dealt": None})
    assert sent(page) == []


def test_a_value_is_revealed_only_if_its_commitment_is_in_the_closed_list(
    static_url: str, browser: Browser
) -> None:
    page = cut_page(static_url, browser)
    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None})
    sent(page)
    answer(page, {"type": "cut_accepted", "commit": OPEN, "reveal": None})
    # Another page of this player committed after this one: the list holds its commitment.
    sealed = {"hand": OPEN, "seal": EXAMPLE_SEAL, "commitments": ["ab" * 32]}
    snapshot(page, {"open": NEXT, "sealed": sealed, "dealt": None})
    (message,) = sent(page)
    assert "reveal" not in message and message["commit"]["hand"] == NEXT


def test_a_reloaded_page_reveals_the_value_its_browser_kept(
    static_url: str, browser: Browser
) -> None:
    page = cut_page(static_url, browser)
    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None})
    commitment = sent(page)[0]["commit"]["commitment"]
    page.reload()
    install_cut(page)
    # Not accepted before the reload: the same commitment again, then the reveal.
    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None})
    assert sent(page) == [{"type": "cut", "commit": {"hand": OPEN, "commitment": commitment}}]
    sealed = {"hand": OPEN, "seal": EXAMPLE_SEAL, "commitments": [commitment]}
    snapshot(page, {"open": NEXT, "sealed": sealed, "dealt": None})
    assert sent(page)[0]["reveal"]["value"] == stored(page)[OPEN]["value"]


def test_refusals_are_taken_quietly_and_a_stale_part_is_sent_again_while_due(
    static_url: str, browser: Browser
) -> None:
    page = cut_page(static_url, browser)
    assert answer(page, {"type": "error", "code": "not_seated"}) is False, "not the cut's"
    assert answer(page, {"type": "error", "code": "stale_decision"}) is False
    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None})
    first = sent(page)
    assert answer(page, {"type": "error", "code": "stale_cut"}) is True
    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None})
    assert sent(page) == first, "still open: sent again"
    assert answer(page, {"type": "error", "code": "bad_cut"}) is True
    snapshot(page, {"open": OPEN, "sealed": None, "dealt": None})
    assert sent(page) == [], "refused as bad: not sent again"
    snapshot(page, {"open": NEXT, "sealed": None, "dealt": None})
    assert [message["commit"]["hand"] for message in sent(page)] == [NEXT]
    assert answer(page, {"type": "error", "code": "not_seated"}) is True

    page.evaluate("window.connected = false")  # the socket is down: nothing is marked sent
    snapshot(page, {"open": LATER, "sealed": None, "dealt": None})
    page.evaluate("window.connected = true")
    snapshot(page, {"open": LATER, "sealed": None, "dealt": None})
    assert [message["commit"]["hand"] for message in sent(page)] == [LATER]


def dealt_table(cut: CutHand, *, is_over: bool = True) -> dict[str, Any]:
    """The snapshot's ``cut`` for a hand on display: its count, and once the hand is
    over, its record."""
    record = cut.cut.as_json()
    values = [given["value"] for given in record["contributions"]]
    count = {
        "hand": record["hand"],
        "cut_by": sum(1 for value in values if value is not None),
        "left_out": values.count(None),
        "uncut": record["uncut"],
    }
    return {"open": LATER, "sealed": None, "dealt": count, "record": record if is_over else None}


def mark(page: Page):
    return page.locator("[data-cut]")


def test_the_mark_says_how_the_hand_on_display_was_cut(static_url: str, browser: Browser) -> None:
    page = cut_page(static_url, browser)
    page.evaluate(
        """([ref, value, seal]) => localStorage.setItem("felt-cut-values", JSON.stringify(
             {[ref]: {value, seal, commitAccepted: true, revealAccepted: true}}))""",
        ["7:42", ALICE, EXAMPLE_SEAL],
    )
    snapshot(page, {"open": LATER, "sealed": None, "dealt": None}, commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_be_hidden()

    hand = two_value_hand()
    snapshot(page, dealt_table(hand, is_over=False), commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_have_attribute("data-state", "cut")
    expect(mark(page)).to_have_text("Cut by 2")
    snapshot(page, dealt_table(hand), commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_have_attribute("data-state", "yours")
    expect(mark(page)).to_have_text("Cut by 2 · yours in")
    expect(mark(page)).to_have_attribute(
        "aria-label", "Cut by 2 players, yours included, checked by this browser."
    )

    snapshot(page, dealt_table(two_value_hand((False, True))), commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_have_attribute("data-state", "disputed")
    expect(mark(page)).to_have_text("Disputed: your value was left out")

    page.evaluate('localStorage.removeItem("felt-cut-values")')
    snapshot(page, dealt_table(hand), commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_have_attribute("data-state", "cut")
    expect(mark(page)).to_have_text("Cut by 2")

    snapshot(page, dealt_table(two_value_hand((False, False))), commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_have_text("Uncut")

    tampered = dealt_table(hand)
    tampered["dealt"]["hand"] = tampered["record"]["hand"] = "7:43"  # another hand's record
    snapshot(page, tampered, commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_have_attribute("data-state", "failed")
    expect(mark(page)).to_have_text("Cut check failed")
    expect(mark(page)).to_have_attribute(
        "title",
        f"This hand's cut does not check out: cut: the value {ALICE} does not open "
        f"its commitment {contribution_commitment('7:42', ALICE)}; cut: the value {BOB} does "
        f"not open its commitment {contribution_commitment('7:42', BOB)}.",
    )
    mark(page).click()
    expect(mark(page)).to_contain_text("This hand's cut does not check out")


def test_the_mark_fails_a_cut_whose_list_or_seal_is_not_the_one_shown_at_the_reveal(
    static_url: str, browser: Browser
) -> None:
    """The server knows the values once they are revealed: a commitment of its own added
    then, or a deck sealed anew, could steer the deal. This browser noted both."""
    page = cut_page(static_url, browser)
    hand = two_value_hand()
    noted = {
        "value": ALICE,
        "seal": EXAMPLE_SEAL,
        "listDigest": list_digest([contribution_commitment("7:42", ALICE)]),  # alice's alone
        "commitAccepted": True,
        "revealAccepted": True,
    }
    page.evaluate(
        """(record) => localStorage.setItem("felt-cut-values", JSON.stringify({"7:42": record}))""",
        noted,
    )
    snapshot(page, dealt_table(hand), commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_have_attribute("data-state", "failed")
    expect(mark(page)).to_have_attribute(
        "title",
        "This hand's cut does not check out: cut: its commitments are not the list closed "
        "when the deck was sealed.",
    )
    verdict = show_verification(page, api_hand(hand, 0), noted)  # the replayer's check
    expect(verdict).to_have_attribute("data-verified", "no")
    expect(verdict).to_contain_text("its commitments are not the list closed")

    install_cut(page)
    noted["listDigest"] = list_digest(
        [c["commitment"] for c in hand.cut.as_json()["contributions"]]
    )
    noted["seal"] = "ef" * 32
    page.evaluate(
        """(record) => localStorage.setItem("felt-cut-values", JSON.stringify({"7:42": record}))""",
        noted,
    )
    snapshot(page, dealt_table(hand), commitment=EXAMPLE_SEAL)
    expect(mark(page)).to_have_attribute(
        "title",
        "This hand's cut does not check out: commitment: not the seal shown before you "
        f"revealed your cut value, {'ef' * 32}.",
    )
