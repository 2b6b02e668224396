"""The referee's page in headless Chromium: the third verifier gives the other two's verdict.

A real server (gunicorn, tests/serving_helpers.py) signs with the fixture logs' test-only
keys, so the page's default key set (the same origin's /.well-known/jwks.json) is the one
the fixtures were signed with. Each fixture log is dropped on the page; the verdict and the
problem codes it shows, and its whole report, must equal those of POST /v1/receipts/verify
and of tools/verify_dice.py (tests/test_verifiers_agree.py). Screenshots of a valid and of
a tampered log go to test-artifacts/referee/ (git-ignored); FIRECONTROL_UPDATE_SCREENSHOT=1
also writes the valid one to docs/referee.png.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient

from service import MAX_BODY_BYTES, create_app
from service.receipts.keys import signing_keys
from service.receipts.signing import Signer, unsigned
from tests.browser_helpers import chromium
from tests.fixtures.logs.make_logs import app_config
from tests.receipts_helpers import SOLO
from tests.salvo_solo_helpers import AJAX, SPEE
from tests.serving_helpers import Server, running
from tests.test_receipts_checkpoints import (
    EXPECTED,
    PARTS,
    in_parts,
    play_long_game,
    wrong_checkpoints,
)
from tests.test_verifiers_agree import (
    LOGS,
    MANIFEST,
    VERIFIER,
    normal,
    service_verdict,
    tool_verdict,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "referee"
SCREENSHOT = ROOT / "docs" / "referee.png"
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {
        "FIRECONTROL_SIGNING_KEYS_FILE": str(LOGS / "signing-keys.json"),
        "FIRECONTROL_SEAL_KEYS_FILE": str(LOGS / "seal-keys.json"),
    }
    with running(tmp_path_factory.mktemp("referee-server"), workers=1, env=env) as found:
        yield found


@pytest.fixture(scope="module")
def browser(server: Server) -> Iterator[Any]:
    with chromium() as context:
        yield context


class Page:
    """The referee's page, as a test drives it; remembers every URL the page asked for."""

    def __init__(self, context: Any, server: Server) -> None:
        self.origin = f"http://127.0.0.1:{server.port}"
        self.page = context.new_page()
        self.requested: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda request: self.requested.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(f"{self.origin}/referee")
        self.page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)

    def until(self, predicate: str) -> None:
        """Poll a JavaScript predicate (a function, not a string to evaluate: the page's
        Content-Security-Policy forbids eval, and the tests keep it on)."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while not self.page.evaluate(predicate):
            assert time.monotonic() < deadline, f"still false: {predicate}"
            time.sleep(0.02)

    def runs(self) -> int:
        return int(self.page.evaluate("window.referee.runs"))

    def wait(self, before: int) -> dict[str, Any]:
        """Wait for the checks started after ``before`` to finish; the page's state."""
        self.until(
            f"() => window.referee.done > {before} && window.referee.done === window.referee.runs"
        )
        state: dict[str, Any] = self.page.evaluate(
            "({report: window.referee.report, verdict: window.referee.verdict,"
            " error: window.referee.error})"
        )
        return state

    def clear(self) -> None:
        before = self.runs()
        self.page.click("#clear")
        self.wait(before)

    def drop(self, name: str) -> dict[str, Any]:
        """Check a fixture log as a referee would: its reveal answer and its referee's
        choice first, then the log file itself."""
        self.clear()
        spec = MANIFEST[name]
        if spec.get("accept_supplied"):
            before = self.runs()
            self.page.check("#accept-supplied")
            self.wait(before)
        if spec.get("revealed"):
            self.page.set_input_files("#reveal-file", str(LOGS / spec["revealed"]))
            self.until("() => document.getElementById('reveal-text').value.length > 0")
        before = self.runs()
        self.page.set_input_files("#log-file", str(LOGS / f"{name}.json"))
        return self.wait(before)

    def wait_for_luck(self) -> None:
        self.until(
            "() => window.referee.luckPending === 0"
            " && !document.querySelector('[data-luck=pending]')"
        )

    def shown(self) -> dict[str, Any]:
        """What the page shows: the verdict, each entry's codes, the log's codes."""
        shown: dict[str, Any] = self.page.evaluate(
            """() => ({
              verdict: document.getElementById('verdict').dataset.verdict,
              entries: [...document.querySelectorAll('#entries > li')].map((li) => ({
                index: Number(li.dataset.index),
                codes: [...li.querySelectorAll('.problems > li')].map((p) => p.dataset.code),
              })),
              log: [...document.querySelectorAll('#log-problems > li')].map((p) => p.dataset.code),
              refused: [...document.querySelectorAll('#verdict [data-code]')]
                .map((p) => p.dataset.code),
              headline: document.querySelector('#verdict .big').textContent,
            })"""
        )
        return shown


@pytest.fixture(scope="module")
def page(browser: Any, server: Server) -> Page:
    return Page(browser, server)


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app(app_config()).test_client()


def page_verdict(report: dict[str, Any]) -> dict[str, Any]:
    """The page's report in the shape tests/test_verifiers_agree.py compares."""
    if report["refused"]:
        refused = report["refused"]
        return {"valid": False, "refused": (refused["code"], refused["field"], refused["message"])}
    return normal(report)


def expected_verdict(name: str) -> str:
    if name == "sealed-before-reveal":
        return "pending"
    return "valid" if MANIFEST[name]["valid"] else "invalid"


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_the_page_gives_the_verdict_and_codes_of_the_other_two_verifiers(
    page: Page, client: FlaskClient, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = page.drop(name)
    assert state["error"] is None
    report = state["report"]
    from_tool = tool_verdict(name)
    assert page_verdict(report) == from_tool
    assert page_verdict(report) == service_verdict(client, name, monkeypatch)
    assert report["signatures_checked"] is True
    # What the page shows, not only what it computed.
    shown = page.shown()
    assert shown["verdict"] == state["verdict"] == expected_verdict(name)
    if report["refused"]:
        assert shown["refused"] == [report["refused"]["code"]]
        assert shown["entries"] == []
        return
    assert [entry["codes"] for entry in shown["entries"]] == [
        entry["codes"] for entry in report["entries"]
    ]
    assert shown["log"] == report["log"]["codes"]
    assert page.errors == []


def _cards(page: Page) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = page.page.evaluate(
        """() => [...document.querySelectorAll('#entries > li')].map((li) => ({
             index: Number(li.dataset.index),
             state: li.dataset.state,
             fault: li.classList.contains('fault'),
             number: li.querySelector('.number').textContent,
             heading: li.querySelector('h3').innerText,
             faults: [...li.querySelectorAll('.faults > li')].map((f) => ({
               code: f.dataset.code, text: f.innerText})),
           }))"""
    )
    return cards


@pytest.mark.parametrize("name", sorted(n for n in MANIFEST if n != "duplicate-members"))
def test_the_card_where_the_log_fails_is_marked_with_the_problem(page: Page, name: str) -> None:
    """A broken chain, a nonce that jumps, another seed: the card of the entry the problem
    names ("entry 3" is the card labelled Entry 3) says so, in red, with the problem's text;
    every other card is left as its own checks leave it."""
    report = page.drop(name)["report"]
    expected: dict[int, list[tuple[str, str]]] = {}
    for code, text in zip(report["log"]["codes"], report["log"]["problems"], strict=True):
        named = re.match(r"entry (\d+)\b", text)
        assert named, f"a log problem that names no entry: {text}"
        expected.setdefault(int(named.group(1)) - 1, []).append((code, text))
    cards = _cards(page)
    for card in cards:
        faults = expected.get(card["index"], [])
        assert [f["code"] for f in card["faults"]] == [code for code, _ in faults]
        assert card["fault"] is bool(faults)
        for (_, text), shown in zip(faults, card["faults"], strict=True):
            assert text in shown["text"]
            assert card["number"] == "Entry " + text.split()[1].split("'")[0].rstrip(":")
        if faults:
            assert card["state"] in ("fault", "bad") and "the log fails here" in card["heading"]
        entry = report["entries"][card["index"]]
        if entry["signature_valid"] is False or entry["dice_valid"] is False:
            assert card["state"] == "bad" and "MISMATCH" in card["heading"]
    if MANIFEST[name]["valid"]:
        assert not expected and all(card["state"] != "fault" for card in cards)


def test_a_log_cut_in_the_middle_marks_the_card_after_the_cut(page: Page) -> None:
    page.drop("middle-removed")
    marked = [card for card in _cards(page) if card["fault"]]
    assert [card["number"] for card in marked] == ["Entry 3"]
    assert [fault["code"] for fault in marked[0]["faults"]] == ["chain-broken", "nonce-gap"]
    assert "entry 3's prev is not the hash of entry 2's receipt" in marked[0]["faults"][0]["text"]
    # The verdict's summary links the problem to its card.
    link = page.page.locator("#verdict ul.summary a").first
    assert link.get_attribute("href") == "#card-3"
    assert page.page.locator("#card-3").get_attribute("data-index") == "2"


def test_a_valid_game_is_explained_entry_by_entry_with_its_luck(page: Page) -> None:
    state = page.drop("valid-game")
    assert state["verdict"] == "valid"
    page.wait_for_luck()
    fire = page.page.locator("#entries > li[data-index='3']")
    text = fire.inner_text()
    assert "salvo-solo/fire" in text and "ok, 1 rolls match" in text
    assert "2d6 shows 3 + 1 = 4" in text  # each die's face
    assert "Fire table at Long: 8+ straddles" in text and "miss" in text  # the table row
    straddle = page.page.locator("#entries > li[data-index='4']").inner_text()
    assert "13 -2 target armor 2 -2 range Long = 9" in straddle  # each modifier, its source
    # Each result in words, not a run of field names.
    results = page.page.evaluate(
        "[...document.querySelectorAll('#entries .result')].map((p) => p.textContent)"
    )
    assert results == [
        "Result: weather Misty, initial range modifier -4",
        "Result: enemy acts first",
        "Result: action OB, reason rolled",
        "Result: miss, shots per turn 1",
        "Result: NE, no hits",
        "Result: Turret, 1 turret hit",
    ]
    # Luck from each step's /odds: the share of rolls that give a more common outcome.
    percentiles = page.page.evaluate(
        "[...document.querySelectorAll('#entries .luck')].map((p) => p.dataset.percentile)"
    )
    # weather Misty (1/3; Fair 1/2 is commoner), enemy first (2/3), OB rolled (1/3, C as
    # common: not commoner), a miss (7/12), NE (181/216), Turret (5/36 after 1/6).
    assert percentiles == ["50", "0", "0", "0", "0", "17"]
    line = page.page.locator("#entries > li[data-index='5'] input.forum").input_value()
    assert line.startswith("Entry 6, salvo-solo/special-damage | 2d6 [5, 1] = 6")
    assert "luck: 5/36, percentile 17" in line and "signature OK" in line
    assert "ok, 1 rolls match" in line
    log_line = page.page.locator("#log-line").input_value()
    assert log_line.startswith("Fire Control log, 6 entries: VALID;")
    _screenshot(page, "valid-game")
    if os.environ.get("FIRECONTROL_UPDATE_SCREENSHOT"):
        shutil.copyfile(ARTIFACTS / "valid-game.png", SCREENSHOT)


def test_turns_left_pending_by_either_side_are_said_in_words(page: Page) -> None:
    state = page.drop("pending-both-kinds")
    assert state["verdict"] == "valid"
    results = page.page.evaluate(
        "[...document.querySelectorAll('#entries .result')].map((p) => p.textContent)"
    )
    assert results[0] == (
        "Result: 1 event; waits for the player's Action (the player has the initiative)"
    )
    assert results[2].startswith("Result: 2 events; waits for the player's Action (the enemy's is")
    assert page.errors == []


def test_a_rich_roll_is_explained_die_by_die(page: Page) -> None:
    """The game of rich rolls: its first roll drew 2, 3, 1, 5 for 4d6r1!kh3, then 1 for the
    reroll of the third die (a 1 again: rerolled once more) and 2 for that; the highest
    three of 2, 3, 5, 2 are kept, the earlier 2 before the later."""
    state = page.drop("rich-rolls")
    assert state["verdict"] == "valid"
    first = page.page.locator("#entries > li[data-index='0'] .terms").inner_text()
    assert first == (
        "4d6r1!kh3: die 1 shows 2, kept; die 2 shows 3, kept; die 3 shows 1, rerolled; "
        "die 4 shows 5, kept; die 5 (reroll of die 3) shows 1, rerolled; die 6 (reroll of "
        "die 5) shows 2, dropped; kept dice sum to 10"
    )
    result = page.page.locator("#entries > li[data-index='0'] .result").inner_text()
    assert result == "Result: 4d6r1!kh3 totals 10"
    # 6d6!!: the fourth die showed a 6 and compounded the 2 drawn after the six dice
    compounded = page.page.locator("#entries > li[data-index='2'] .terms").inner_text()
    assert "die 4 shows 6, counts 8, kept, exploded" in compounded
    assert "die 7 (explosion of die 4) shows 2, compounded" in compounded
    # success counting: each kept die a success, a failure or neither
    pool = page.page.locator("#entries > li[data-index='1'] .terms").inner_text()
    assert "a success" in pool and "successes less failures" in pool
    # a plain term (1d20-1d4+2) says nothing more than its rolls
    assert page.page.locator("#entries > li[data-index='8'] .terms").count() == 0


def test_a_tampered_log_names_what_was_altered(page: Page) -> None:
    state = page.drop("edited-result")
    assert state["verdict"] == "invalid"
    entry = page.page.locator("#entries > li[data-index='3']")
    assert entry.get_attribute("data-state") == "bad"
    assert "The answer was changed after the service signed it." in entry.inner_text()
    assert "[altered]" in entry.locator("input.forum").input_value()
    page.wait_for_luck()
    _screenshot(page, "edited-result")


def test_the_page_works_without_the_service_from_a_pasted_key_set(
    browser: Any, server: Server
) -> None:
    """Offline: the key set is pasted, the service's key set and /odds cannot be reached."""
    page = Page(browser, server)
    page.page.route("**/.well-known/jwks.json", lambda route: route.abort())
    page.page.route("**/odds", lambda route: route.abort())
    try:
        unreached = page.drop("valid-game")
        assert unreached["verdict"] == "unchecked"  # the dice check out, the keys are missing
        assert "signatures NOT checked" in page.page.locator("#notes").inner_text()
        before = page.runs()
        page.page.check("input[name=keys][value=pasted]")
        page.page.fill("#jwks-text", (LOGS / "jwks.json").read_text())
        page.page.dispatch_event("#jwks-text", "change")
        state = page.wait(before)
        assert state["verdict"] == "valid" and state["report"]["signatures_checked"] is True
        page.wait_for_luck()
        luck = page.page.locator("#entries > li[data-index='3'] .luck")
        assert luck.get_attribute("data-luck") == "unavailable"
        assert "the service cannot be reached" in luck.inner_text()
        assert page.errors == []
    finally:
        page.page.close()


def test_a_game_asked_minimal_verifies_and_says_why_it_has_no_luck(page: Page) -> None:
    """Every answer pins its request by digest: the log is valid, and the page, which holds
    no inputs to ask the odds of, says so instead of asking."""
    state = page.drop("whole-salvo-solo-minimal")
    assert state["verdict"] == "valid"
    page.wait_for_luck()
    lucks = page.page.locator("#entries .luck[data-luck=unavailable]")
    assert lucks.count() > 0
    assert "pins its request by digest" in lucks.first.inner_text()
    assert page.errors == []


def test_odds_refused_past_a_limit_say_the_luck_is_not_available(
    browser: Any, server: Server
) -> None:
    page = Page(browser, server)
    refusal = {"type": "/problems#limit", "title": "Limit", "status": 422, "detail": "too many"}
    page.page.route(
        "**/odds",
        lambda route: route.fulfill(
            status=422, content_type="application/problem+json", body=json.dumps(refusal)
        ),
    )
    try:
        page.drop("a-step-that-rolls-nothing")
        page.wait_for_luck()
        luck = page.page.locator("#entries > li[data-index='4'] .luck")
        assert luck.get_attribute("data-luck") == "unavailable"
        assert "does not work out these odds (422: too many)" in luck.inner_text()
        # The manoeuvre rolled nothing: no luck to tell.
        moved = page.page.locator("#entries > li[data-index='3'] .luck")
        assert moved.get_attribute("data-luck") == "none"
    finally:
        page.page.close()


def _raider(name: str) -> dict[str, Any]:
    card = {"name": name, "type": "CA", "guns": 11, "broadside": 2, "stern": 1, "bow": 1}
    card |= {"flotation": 4, "turret": 3, "speed": 9, "armor": 2, "nation": "Germany"}
    return {"target": {"card": card, "state": {}}, "range": "Long"}


def _signed(server: Server, step: str, inputs: dict[str, Any], nonce: int) -> dict[str, Any]:
    answer = server.request(
        "POST", f"{SOLO}/{step}", {**inputs, "dice": {"seed": "o", "nonce": nonce}}
    )
    assert answer.status == 200, answer.body
    found: dict[str, Any] = answer.json()
    return found


def _odds_in_access_log(server: Server) -> list[str]:
    """The /odds requests the server logged (its access log: one JSON line a request)."""
    lines = [json.loads(line) for line in server.stdout.read_text().splitlines() if line]
    return [
        line["path"]
        for line in lines
        if line.get("type") == "access" and line["path"].endswith("/odds")
    ]


def _logged_since(server: Server, before: int, wanted: int) -> list[str]:
    """The /odds lines logged after the first ``before``, once ``wanted`` are there (the
    server writes a line just after its answer) or the page's timeout has passed."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while len(found := _odds_in_access_log(server)[before:]) < wanted:
        if time.monotonic() > deadline:
            break
        time.sleep(0.05)
    return found


def test_the_page_asks_the_odds_of_signed_entries_once_a_request_and_at_most_its_limit(
    page: Page, server: Server, tmp_path: Path
) -> None:
    """A log of signed critical hits on distinct ships (two past the page's limit), the same
    request signed twice over, two entries not signed, one signed entry whose request is
    past the service's body limit and a signed turn (a step with no /odds)."""
    limit = int(page.page.evaluate("window.referee.oddsLimit"))
    distinct = limit + 2
    twice = _signed(server, "critical", _raider("Raider 0"), 1)
    no_receipt = unsigned(_signed(server, "critical", _raider("Unsigned 1"), 2))
    altered = _signed(server, "critical", _raider("Unsigned 2"), 3)
    altered["result"] = {"name": "No effect", "hits": ""}
    keys = signing_keys(json.loads((LOGS / "signing-keys.json").read_text()))
    huge = _signed(server, "critical", _raider("Huge"), 4)
    del huge["receipt"]
    # Signed here with the fixture key: the service itself would refuse such a request.
    huge["provenance"]["request"]["body"]["note"] = "x" * MAX_BODY_BYTES
    huge = Signer(keys, "fire-control").sign(huge)
    turn = {"state": {"turn": 1, "weather": "Fair", "range": "Long", "player": AJAX, "enemy": SPEE}}
    log = [twice, _signed(server, "critical", _raider("Raider 0"), 5), no_receipt, altered, huge]
    log.append(_signed(server, "turn", {**turn, "player_action": "C"}, 6))
    log += [_signed(server, "critical", _raider(f"Raider {i}"), 10 + i) for i in range(1, distinct)]
    log.append(_signed(server, "critical", _raider("Raider 0"), 7))  # past the limit: shared
    assert len(log) <= 100, "the page checks logs of at most 100 entries"
    path = tmp_path / "odds-log.json"
    path.write_text(json.dumps(log))
    odds: list[tuple[str, str]] = []

    def seen(request: Any) -> None:
        if urlsplit(request.url).path.endswith("/odds"):
            odds.append((urlsplit(request.url).path, request.post_data or ""))

    page.clear()
    before_log = len(_odds_in_access_log(server))
    page.page.on("request", seen)
    try:
        before = page.runs()
        page.page.set_input_files("#log-file", str(path))
        state = page.wait(before)
        page.wait_for_luck()
        # Re-checked under another choice: the answers of this log are not asked again.
        before = page.runs()
        page.page.check("#accept-supplied")
        page.wait(before)
        page.wait_for_luck()
    finally:
        page.page.remove_listener("request", seen)
    signatures = [entry["signature_valid"] for entry in state["report"]["entries"]]
    assert signatures[:6] == [True, True, False, False, True, True]
    # One request per distinct request of a signed entry, up to the limit, and no other.
    assert len(odds) == len(set(odds)) == limit
    assert {path for path, _ in odds} == {f"{SOLO}/critical/odds"}
    assert len(_logged_since(server, before_log, limit)) == limit  # what the service saw
    sent = [json.loads(body) for _, body in odds]
    names = [body["target"]["card"]["name"] for body in sent]
    assert names == [f"Raider {i}" for i in range(limit)]
    assert max(len(body.encode()) for _, body in odds) < MAX_BODY_BYTES
    luck = page.page.evaluate(
        """() => [...document.querySelectorAll('#entries .luck')].map((p) => ({
             luck: p.dataset.luck, why: p.dataset.leftOut ?? null, text: p.textContent}))"""
    )
    assert [line["luck"] for line in luck[:2]] == ["available", "available"]
    assert luck[-1]["luck"] == "available"  # the request of the first entries, shared
    assert [line["why"] for line in luck[2:5]] == ["unsigned", "unsigned", "size"]
    assert "carries no signature" in luck[2]["text"]
    assert "signature does not hold" in luck[3]["text"]
    assert "larger than the 64 KiB the service takes" in luck[4]["text"]
    assert luck[5] == {
        "luck": "unavailable",
        "why": None,
        "text": "Luck not available: this step has no /odds.",
    }
    assert [line["why"] for line in luck[-3:-1]] == ["limit", "limit"]
    assert all(line["text"].startswith("Luck left out: ") for line in luck[2:5] + luck[-3:-1])
    assert f"at most {limit} odds for one log" in luck[-2]["text"]
    assert all(line["luck"] == "available" for line in luck[6:-3])
    note = page.page.locator("#luck-left-out").inner_text()
    assert note == (
        "Luck left out for 5 entries: 2 without a signature that holds (the page asks the "
        f"odds of signed entries only); 2 past the limit of {limit} odds requests for one "
        "log; 1 whose request is larger than the service takes."
    )
    assert page.errors == []


AJAX_HIT: dict[str, Any] = {"flotation_hits": 1, "speed_hits": 1}
ATTACK: dict[str, Any] = {
    "firer": {"ship": "Graf Spee"},
    "target": {"ship": "Ajax", "state": AJAX_HIT},
    "weather": "Fair",
    "guns_bearing": "broadside",
}


def test_an_attack_has_its_luck_and_its_result_in_words(
    page: Page, server: Server, tmp_path: Path
) -> None:
    """An attack's /odds outcomes are summaries of what it did to the target: the page
    finds the entry's summary among them, as the service makes it (odds.attack_summary)."""
    from service.rulesets.salvo_solo.odds import attack_summary
    from service.rulesets.salvo_solo.ships import CATALOG, Ship, ShipState

    # Hits and the target afloat; the target sunk after one shot; a miss at Long range.
    asked = [("Short", 1), ("Short", 28), ("Long", 2)]
    log = [_signed(server, "attack", {**ATTACK, "range": r}, nonce) for r, nonce in asked]
    expected = []
    for entry in log:
        result, inputs = entry["result"], entry["provenance"]["request"]["body"]
        before = Ship(CATALOG["Ajax"], ShipState(**AJAX_HIT))
        after = Ship(CATALOG["Ajax"], ShipState(**result["target"]["state"]))
        hits = "".join(shot.get("hits", "") for shot in result["shots"])
        dealt = (hits.count("F"), hits.count("T"), hits.count("S"))
        summary = attack_summary(before, after, dealt, result["straddled"])
        odds = server.request("POST", f"{SOLO}/attack/odds", {**ATTACK, "range": inputs["range"]})
        assert odds.status == 200, odds.body
        matching = [o for o in odds.json()["outcomes"] if o["result"] == summary]
        assert len(matching) == 1
        expected.append(matching[0]["probability"])
    assert [len(e["result"]["shots"]) for e in log] == [2, 1, 1]
    path = tmp_path / "attacks.json"
    path.write_text(json.dumps(log))
    page.clear()
    before_run = page.runs()
    page.page.set_input_files("#log-file", str(path))
    page.wait(before_run)
    page.wait_for_luck()
    luck = page.page.evaluate(
        """() => [...document.querySelectorAll('#entries .luck')].map((p) => ({
             luck: p.dataset.luck, text: p.textContent}))"""
    )
    assert [line["luck"] for line in luck] == ["available"] * 3
    for line, probability in zip(luck, expected, strict=True):
        assert line["text"].startswith(f"Luck: a {probability} chance")
    words = page.page.evaluate(
        "[...document.querySelectorAll('#entries .result')].map((p) => p.textContent)"
    )
    assert words[0] == (
        "Result: 2 shots, straddled; 1 flotation hit, 2 turret hits, 1 speed hit; Ajax not sunk"
    )
    assert "sunk" in words[1] and "not sunk" not in words[1]
    assert words[2].startswith("Result: 1 shot, no straddle")
    assert page.errors == []


def test_a_phone_shows_the_page_without_scrolling_sideways(page: Page) -> None:
    """At 390 px, the width of a phone, nothing widens the page (a receipt hash once did)."""
    page.page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.drop("valid-game")
        page.wait_for_luck()
        assert page.page.evaluate("() => document.documentElement.scrollWidth") <= 390
    finally:
        page.page.set_viewport_size({"width": 1000, "height": 900})


@pytest.mark.parametrize("name", sorted(n for n in MANIFEST if n.startswith("whole-")))
def test_no_kind_of_entry_widens_a_phones_page(page: Page, name: str) -> None:
    """Every step of every ruleset (a dreadnought turn's modifiers table once ran off the
    screen), at 390 px: nothing wider than the screen, the page's or any card's."""
    page.page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.drop(name)
        page.wait_for_luck()
        wide = page.page.evaluate(
            """() => [...document.querySelectorAll('#entries > li, #entries table')]
                .filter((e) => e.getBoundingClientRect().right > 390)
                .map((e) => e.tagName + ' ' + (e.dataset.index ?? ''))"""
        )
        assert wide == []
        assert page.page.evaluate("() => document.documentElement.scrollWidth") <= 390
    finally:
        page.page.set_viewport_size({"width": 1000, "height": 900})


def test_a_sealed_log_with_an_edit_says_what_is_wrong_apart_from_what_waits(
    page: Page, tmp_path: Path
) -> None:
    """Before the reveal, one entry edited: one entry has a problem; the sealed rolls of the
    others only wait for the reveal and are not counted among the problems."""
    game = json.loads((LOGS / "sealed-before-reveal.json").read_text())
    edited = next(i for i, e in enumerate(game) if isinstance(e.get("result"), dict))
    game[edited]["result"]["edited by hand"] = True
    state = _drop_text(page, json.dumps(game), tmp_path)
    assert state["verdict"] == "invalid"
    waiting = state["report"]["not_yet_checkable"]
    assert waiting > 1
    summary = page.page.locator("#verdict p").nth(1).inner_text()
    assert f"{len(game)} entries; 1 with problems" in summary, summary
    assert f"{waiting} sealed rolls wait for the reveal" in summary, summary


def test_a_log_dropped_on_the_page_or_pasted_is_checked(page: Page) -> None:
    page.clear()
    before = page.runs()
    text = (LOGS / "replayed-entry.json").read_text()
    page.page.evaluate(
        """(text) => {
          const data = new DataTransfer();
          data.items.add(new File([text], 'game.json', {type: 'application/json'}));
          const zone = document.getElementById('log-drop');
          zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true,
                                                        cancelable: true}));
          zone.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true,
                                                    cancelable: true}));
        }""",
        text,
    )
    dropped = page.wait(before)
    assert sorted(dropped["report"]["log"]["codes"]) == ["chain-broken", "nonce-repeat"]
    page.clear()
    before = page.runs()
    page.page.fill("#log-text", (LOGS / "mixed-seeds.json").read_text())
    page.page.dispatch_event("#log-text", "change")
    pasted = page.wait(before)
    assert pasted["report"]["log"]["codes"] == ["another-seed"]


def test_what_is_not_json_is_said_plainly(page: Page) -> None:
    page.clear()
    before = page.runs()
    page.page.fill("#log-text", '[{"ruleset": "salvo-solo",')
    page.page.dispatch_event("#log-text", "change")
    state = page.wait(before)
    assert state["verdict"] == "unreadable"
    assert "The log is not JSON" in page.page.locator("#verdict").inner_text()


def test_the_page_asked_only_its_own_origin(page: Page) -> None:
    """No CDN, no fonts from elsewhere: every request the page made stayed on the server."""
    assert page.requested, "the page made no request at all?"
    origins = {f"{urlsplit(url).scheme}://{urlsplit(url).netloc}" for url in page.requested}
    assert origins == {page.origin}
    assert page.errors == []


def _screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # The verdict at the top of the picture, and the entries below it.
    page.page.locator("#verdict").scroll_into_view_if_needed()
    page.page.evaluate("() => document.getElementById('verdict').scrollIntoView()")
    page.page.screenshot(
        path=str(ARTIFACTS / f"{name}.png"), clip={"x": 0, "y": 0, "width": 1000, "height": 640}
    )
    assert (ARTIFACTS / f"{name}.png").stat().st_size > 1000


def _odd_logs() -> dict[str, str]:
    """Hand-made documents that no service answered: where JSON.parse would read numbers,
    text and names differently from Python's json module."""
    game = (LOGS / "valid-game.json").read_text()
    entries = json.loads(game)
    first = json.dumps(entries[0])
    return {
        "float-nonce": game.replace('"nonce": 4', '"nonce": 4.0', 1),
        "big-integer": game.replace('"natural": 4', '"natural": 9007199254740993', 1),
        "nan-total": game.replace('"total": 4', '"total": NaN', 1),
        "true-for-one": game.replace('"values": [\n     3,\n     1\n    ]', '"values": [3, true]'),
        "lone-surrogate-seed": first.replace('"river-plate-1939"', '"river\\ud800"', 1),
        "zero-sided": first.replace('"notation": "2d6"', '"notation": "2d1"'),
        "not-objects": "[1, 2]",
        "nested-duplicate": first.replace('"natural": 5', '"natural": 5, "natural": 6'),
        "unicode-key": first.replace('"result": {', '"result": {"\\u00e9t\\u00e9": 1.5e-7, ', 1),
    }


@pytest.mark.parametrize("name", sorted(_odd_logs()))
def test_odd_documents_get_the_standalone_verifiers_verdict(
    page: Page, name: str, tmp_path: Path
) -> None:
    text = _odd_logs()[name]
    assert text != (LOGS / "valid-game.json").read_text()  # the edit took
    path = tmp_path / "odd.json"
    path.write_text(text)
    command = [sys.executable, "-I", str(VERIFIER), "--json", "--jwks", str(LOGS / "jwks.json")]
    done = subprocess.run([*command, str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    expected = {k: v for k, v in json.loads(done.stdout).items() if k != "_entries"}
    page.clear()
    before = page.runs()
    page.page.set_input_files("#log-file", str(path))
    report = page.wait(before)["report"]
    assert report == expected


# --- a game longer than one log holds -----------------------------------------------------


@pytest.fixture(scope="module")
def long_game(client: FlaskClient) -> list[dict[str, Any]]:
    return play_long_game(client)


def _drop_text(page: Page, text: str, tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "part.json"
    path.write_text(text)
    page.clear()
    before = page.runs()
    page.page.set_input_files("#log-file", str(path))
    return page.wait(before)


def test_parts_of_a_long_game_chosen_together_are_checked_in_order(
    page: Page, long_game: list[dict[str, Any]], tmp_path: Path
) -> None:
    files = []
    for number, part in enumerate(PARTS, 1):
        files.append(tmp_path / f"game-part-{number}.json")
        files[-1].write_text(json.dumps(long_game[part]))
    page.clear()
    before = page.runs()
    page.page.set_input_files("#log-file", [str(path) for path in reversed(files)])  # by name
    state = page.wait(before)
    assert state["verdict"] == "valid", state["report"]["log"]
    report = state["report"]
    assert report["log"]["continues_from"]["entries"] == PARTS[-1].start
    assert report["log"]["ends_with"]["index"] == len(long_game) - 1
    assert "3 parts checked in order" in page.page.locator("#notes").inner_text()
    # The game is counted whole, not as its last part.
    summary = page.page.locator("#verdict p").nth(1).inner_text()
    assert summary.startswith(f"{len(long_game)} entries in 3 parts"), summary
    command = [sys.executable, "-I", str(VERIFIER), "--json", "--jwks", str(LOGS / "jwks.json")]
    command += [str(files[0]), "--part", str(files[1]), "--part", str(files[2])]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout
    assert page_verdict(report) == normal(json.loads(done.stdout))
    assert page.shown()["entries"][0]["index"] == PARTS[-1].start  # cards counted in the game
    assert page.errors == []


def test_the_page_takes_the_services_checkpoint_and_agrees_on_each_part(
    page: Page, client: FlaskClient, long_game: list[dict[str, Any]], tmp_path: Path
) -> None:
    answers = in_parts(client, long_game)
    body = {"checkpoint": answers[0]["checkpoint"], "entries": long_game[PARTS[1]]}
    state = _drop_text(page, json.dumps(body), tmp_path)
    assert state["verdict"] == "valid"
    assert page_verdict(state["report"]) == normal(answers[1])


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_a_wrong_checkpoint_is_the_same_named_problem_on_the_page(
    page: Page, client: FlaskClient, long_game: list[dict[str, Any]], tmp_path: Path, case: str
) -> None:
    body = wrong_checkpoints(client, long_game)[case]
    answer = client.post("/v1/receipts/verify", json=body).get_json()
    state = _drop_text(page, json.dumps(body), tmp_path)
    assert state["verdict"] == "invalid"
    assert page_verdict(state["report"]) == normal(answer)
    assert page.shown()["log"] == EXPECTED[case]
    assert page.errors == []
