"""The companion page in headless Chromium: whole games played by tapping, as a person would.

A real server (gunicorn, tests/serving_helpers.py) serves the page and the API. A phone
(390x844) plays a whole seeded Salvo! game and part of a SALVO battle; a desktop (1280x900)
plays a whole SALVO battle and a whole sealed Salvo! game, revealed at the end. Each game's
log is saved as a file, handed to the referee's page in one tap, and verified there. No
console error, no element wider than the screen. Screenshots go to test-artifacts/play/
(git-ignored).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import chromium
from tests.serving_helpers import Server, running

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "play"
TIMEOUT_S = 20.0
PHONE = (390, 844)
DESKTOP = (1280, 900)
MOST_TURNS = 60
MOST_ROUNDS = 110


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("play-server"), workers=1) as found:
        yield found


@pytest.fixture(scope="module")
def browser(server: Server) -> Iterator[Any]:
    with chromium() as context:
        yield context


class Player:
    """The companion page on a screen of the given size, with a fresh browser storage."""

    def __init__(self, context: Any, server: Server, size: tuple[int, int]) -> None:
        self.width = size[0]
        self.page = context.new_page()
        self.page.set_viewport_size({"width": size[0], "height": size[1]})
        # The rolls land one by one; with reduced motion, at once.
        self.page.emulate_media(reduced_motion="reduce")
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(f"http://127.0.0.1:{server.port}/play")
        self.page.evaluate("() => localStorage.clear()")
        self.reload()

    def _console(self, message: Any) -> None:
        if message.type == "error":  # a failed request too: the page expects none
            self.errors.append(message.text)

    def reload(self) -> None:
        self.page.reload()
        self.page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_S * 1000)
        self.settle()

    def until(self, predicate: str, timeout: float = TIMEOUT_S) -> None:
        """Poll a JavaScript function (the page's policy forbids evaluating strings)."""
        deadline = time.monotonic() + timeout
        while not self.page.evaluate(predicate):
            assert time.monotonic() < deadline, f"still false: {predicate}"
            time.sleep(0.02)

    def settle(self) -> None:
        self.until("() => document.body.dataset.busy !== 'true'")
        problem = self.page.locator("#problem")
        assert problem.is_hidden(), problem.inner_text()

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.settle()

    def stored(self, kind: str) -> dict[str, Any]:
        game: dict[str, Any] = self.page.evaluate(
            f"() => JSON.parse(localStorage.getItem('fire-control:play:{kind}'))"
        )
        return game

    def wider_than_the_screen(self) -> list[str]:
        wide: list[str] = self.page.evaluate(
            """(width) => [...document.querySelectorAll('body *')]
                .filter((e) => e.getClientRects().length)
                .filter((e) => e.getBoundingClientRect().right > width + 0.5)
                .map((e) => `${e.tagName}#${e.id}.${e.className}`)""",
            self.width,
        )
        if self.page.evaluate("() => document.documentElement.scrollWidth") > self.width:
            wide.append("the page scrolls sideways")
        return wide

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}-{self.width}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 1000

    def saved_log(self, kind: str) -> list[dict[str, Any]]:
        """Save the log as a file, as the player does; the file's content."""
        with self.page.expect_download() as download:
            self.page.click(f".log-tools[data-game={kind}] .save-log")
        saved: list[dict[str, Any]] = json.loads(Path(download.value.path()).read_text())
        return saved

    def verified_on_the_referees_page(self, kind: str) -> dict[str, Any]:
        """One tap hands the log to the referee's page, which checks it; its verdict."""
        self.page.click(f".log-tools[data-game={kind}] .to-referee")
        self.page.wait_for_url("**/referee", timeout=TIMEOUT_S * 1000)
        self.page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_S * 1000)
        self.until(
            "() => window.referee.done >= 1 && window.referee.done === window.referee.runs", 30
        )
        verdict: dict[str, Any] = self.page.evaluate(
            "() => ({verdict: window.referee.verdict,"
            " entries: window.referee.report.entries.length,"
            " shown: document.getElementById('verdict').dataset.verdict})"
        )
        return verdict

    def close(self) -> None:
        self.page.close()


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Player]:
    player = Player(browser, server, PHONE)
    yield player
    player.close()


@pytest.fixture
def desktop(browser: Any, server: Server) -> Iterator[Player]:
    player = Player(browser, server, DESKTOP)
    yield player
    player.close()


# --- Salvo! ----------------------------------------------------------------------------------


def offered(player: Player) -> list[str]:
    actions: list[str] = player.page.eval_on_selector_all(
        "#solo-choices button", "(buttons) => buttons.map((b) => b.dataset.action)"
    )
    return actions


def play_salvo(player: Player, prefer: str | None = None, reload_after: int = 0) -> list[str]:
    """Tap through a Salvo! game to its end: each turn, the Action ``prefer`` when the page
    offers it, else the one the advice marks. The page must offer exactly the Actions
    the rules allow: the pending turn's ``choices``, whoever has the initiative. Returns
    who had it, turn by turn."""
    firsts: list[str] = []
    for turn in range(1, MOST_TURNS + 1):
        if player.page.is_visible("#solo-over"):
            return firsts
        stored = player.stored("solo")
        pending = stored["ui"]["turn"]["pending"]
        asked = stored["log"][stored["ui"]["turn"]["pendingAt"]]
        actions = offered(player)
        assert actions == pending["choices"] == asked["result"]["actions"]["player"]
        assert asked["result"]["pending"] == pending
        firsts.append(pending["first"])
        said = player.page.locator("#solo-pending").inner_text()
        assert ("You have the initiative" in said) == (pending["first"] == "player")
        # The ship cards draw what the answer says of each ship (result.ships).
        for side, status in asked["result"]["ships"].items():
            card = player.page.locator(f"#solo-card-{side}").inner_text()
            speed = player.page.locator(f"#solo-card-{side} dt:text-is('Speed') + dd")
            assert speed.inner_text().startswith(f"{status['speed']} of ")
            assert ("(sunk)" in card) == status["sunk"]
            assert ("cannot fire" in card) == (not status["can_fire"])
        if turn == reload_after:
            # A reload resumes the game where it stood: the same turn, the same choices.
            count = len(player.stored("solo")["log"])
            player.reload()
            assert offered(player) == actions
            assert len(player.stored("solo")["log"]) == count
            assert player.page.locator(".log-tools[data-game=solo] .log-line").get_attribute(
                "data-count"
            ) == str(count)
        if prefer in actions:
            player.tap(f"#solo-choices button[data-action={prefer}]")
        else:
            player.tap("#solo-choices button.primary")
    raise AssertionError(f"no end after {MOST_TURNS} turns")


def test_a_phone_plays_a_whole_salvo_game_and_the_referee_finds_its_log_valid(
    phone: Player,
) -> None:
    page = phone.page
    page.select_option("#solo-player", "Ajax")
    page.select_option("#solo-enemy", "Graf Spee")
    page.fill("#solo-seed", "companion-river-plate")
    phone.tap("#solo-setup button[type=submit]")
    assert page.locator("#solo-conditions").inner_text().startswith("Turn 1 · ")
    # The advice weighs each Action the player may take, with its odds.
    assert page.locator("#solo-advice tbody tr").count() == len(offered(phone))
    phone.screenshot("salvo-turn")
    firsts = play_salvo(phone, reload_after=2)
    assert set(firsts) == {"player", "enemy"}  # both kinds of turn, and no console error

    game = phone.stored("solo")
    end = game["ui"]["end"]
    over = page.locator("#solo-over").inner_text()
    assert over.startswith("Game over: ")
    assert ("A draw" in over) == end["draw"]
    # Both ship cards keep their damage: the last state's F hits.
    for side in ("player", "enemy"):
        hits = game["ui"]["state"][side]["state"]["flotation_hits"]
        assert f"{hits} of " in page.locator(f"#solo-card-{side}").inner_text()
    # The last turn, roll by roll, each with its modifiers.
    assert page.locator("#solo-rolls li[data-roll] .mods").count() >= 1
    steps = [entry["step"] for entry in game["log"]]
    assert steps[:2] == ["weather", "range"] and set(steps[2:]) == {"turn"}
    # The attack odds, as a picture, on demand.
    page.click("#solo-odds summary")
    phone.tap("#solo-odds-form button[type=submit]")
    assert "Attack" in (page.locator("#solo-odds-picture img").get_attribute("alt") or "")
    assert phone.wider_than_the_screen() == []
    phone.screenshot("salvo-over")

    assert phone.saved_log("solo") == game["log"]
    verdict = phone.verified_on_the_referees_page("solo")
    assert verdict == {"verdict": "valid", "entries": len(game["log"]), "shown": "valid"}
    assert phone.errors == []


def test_a_sealed_game_is_revealed_at_its_end_and_verifies(desktop: Player) -> None:
    page = desktop.page
    page.check("input[name=solo-mode][value=sealed]")
    page.fill("#solo-reveal", "0.15")  # 9 seconds: past this short game's end
    desktop.tap("#solo-setup button[type=submit]")
    play_salvo(desktop, prefer="W")  # withdrawing ends a game soonest
    game = desktop.stored("solo")
    assert game["log"][0]["commitment"] and game["log"][1]["dice"]["mode"] == "sealed"
    # The seed is revealed once the game is over and its time has come.
    desktop.until(
        "() => !document.querySelector('.log-tools[data-game=solo] .reveal').disabled", 15
    )
    desktop.tap(".log-tools[data-game=solo] .reveal")
    revealed = desktop.stored("solo")["reveal"]
    assert revealed["commitment"] == game["log"][0]["commitment"]
    assert revealed["seed"] in page.locator(".log-tools[data-game=solo] .revealed").inner_text()
    assert desktop.wider_than_the_screen() == []
    desktop.screenshot("salvo-sealed-over")
    verdict = desktop.verified_on_the_referees_page("solo")
    assert verdict == {"verdict": "valid", "entries": len(game["log"]), "shown": "valid"}
    # The hand-over is read once: opened again, the referee's page has nothing to check.
    page.goto(page.url + "#from-play")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#log-text").input_value() == ""
    assert desktop.errors == []


@pytest.mark.parametrize(
    ("nonce", "first"), [(0, "player"), (3, "enemy")], ids=["player-first", "enemy-first"]
)
def test_a_ship_at_speed_zero_is_offered_only_offer_broadside(
    desktop: Player, nonce: int, first: str
) -> None:
    """Ajax with five S hits (speed 10, 2 a hit) may only Offer Broadside, whoever has the
    initiative (seed speed-zero: nonce 1 the player, nonce 4 the enemy)."""
    state = {
        "turn": 3,
        "weather": "Fair",
        "range": "Long",
        "player": {"ship": "Ajax", "state": {"speed_hits": 5}},
        "enemy": {"ship": "Graf Spee"},
        "enemy_last_action": "OB",
        "player_has_straddled": False,
        "enemy_has_straddled": False,
    }
    game = {
        "kind": "solo",
        "ruleset": "salvo-solo",
        "mode": "seeded",
        "seed": "speed-zero",
        "nonce": nonce,
        "log": [],
        "reveal": None,
        "over": False,
        "ui": {"ships": {"player": "Ajax", "enemy": "Graf Spee"}, "state": state, "turn": None},
    }
    desktop.page.evaluate(
        "(game) => localStorage.setItem('fire-control:play:solo', JSON.stringify(game))", game
    )
    desktop.reload()
    assert offered(desktop) == ["OB"]
    pending = desktop.stored("solo")["ui"]["turn"]["pending"]
    assert pending["first"] == first and pending["choices"] == ["OB"]
    assert (pending["enemy_action"] is None) == (first == "player")
    card = desktop.page.locator("#solo-card-player").inner_text()
    assert "0 of 10 (5 S hits): only Offer Broadside" in card
    at = desktop.stored("solo")["ui"]["turn"]["pendingAt"]
    desktop.tap("#solo-choices button[data-action=OB]")
    finished = desktop.stored("solo")["log"][at + 1]  # then the next turn, asked
    assert finished["provenance"]["request"]["body"]["player_action"] == "OB"
    assert "Your Action: Offer Broadside (OB)." in desktop.page.locator("#solo-rolls").inner_text()
    assert desktop.errors == []


# --- SALVO -----------------------------------------------------------------------------------


def deploy(player: Player, seed: str) -> None:
    player.page.click("#tab-grid")
    player.page.fill("#grid-seed", seed)
    player.tap("#grid-setup button[type=submit]")
    assert player.page.is_visible("#grid-deploy")


def aim(player: Player, shots: int) -> list[str]:
    """Tap the first squares the page lets the player fire at."""
    squares: list[str] = player.page.eval_on_selector_all(
        "#grid-enemy-board button:not([disabled])", "(b) => b.map((x) => x.dataset.square)"
    )
    for square in squares[:shots]:
        player.page.click(f"#grid-enemy-board [data-square={square}]")
    return squares[:shots]


def fired_on(view: dict[str, Any]) -> set[str]:
    sunk = {sq for ship in view.get("sunk", []) for sq in ship["squares"]}
    return set(view.get("misses", [])) | set(view.get("hits", [])) | sunk


def test_a_desktop_plays_a_whole_salvo_battle_and_the_referee_finds_its_log_valid(
    desktop: Player,
) -> None:
    page = desktop.page
    deploy(desktop, "companion-battle")
    # Place the destroyer by tapping: down, on the first two free squares of a column.
    fleet = desktop.stored("grid")["ui"]["fleet"]
    taken = {sq for ship in fleet if ship["ship"] != "destroyer" for sq in ship["squares"]}
    bow = next(
        f"{c}{r}"
        for c in "ABCDEFGHIJ"
        for r in range(1, 10)
        if not {f"{c}{r}", f"{c}{r + 1}"} & taken
    )
    page.select_option("#grid-ship", "destroyer")
    page.click("#grid-rotate")
    assert page.get_attribute("#grid-rotate", "aria-pressed") == "true"
    page.click(f"#grid-deploy-board [data-square={bow}]")
    desktop.tap("#grid-ready")
    assert page.is_visible("#grid-game")
    ocean = desktop.stored("grid")["ui"]["oceans"]["a"]
    destroyer = next(ship for ship in ocean["fleet"] if ship["ship"] == "destroyer")
    assert destroyer["squares"] == [bow, f"{bow[0]}{int(bow[1:]) + 1}"]

    for round_ in range(1, MOST_ROUNDS + 1):
        if page.is_visible("#grid-over"):
            break
        ui = desktop.stored("grid")["ui"]
        allowed = ui["sizes"]["a"]
        if round_ == 1:
            # The cruiser's sonar sweep, once a game: the count comes back as told.
            page.click("#grid-special-box summary")
            page.select_option("#grid-special-ship", "cruiser")
            page.select_option("#grid-special-line", "row:5")
            page.click("#grid-special button:text('Add to this salvo')")
            allowed = int(page.get_attribute("#grid-status", "data-allowed") or 0)
        offered_squares = set(
            page.eval_on_selector_all(
                "#grid-enemy-board button:not([disabled])", "(b) => b.map((x) => x.dataset.square)"
            )
        )
        aimed = aim(desktop, allowed)
        # Every square offered is one the rules let the player fire at: the last salvo
        # answer's may_fire_at (before the first salvo, the whole board).
        view = ui["views"]["a"]
        assert not set(aimed) & (fired_on(view) - set(view.get("contacts", [])))
        salvos = [e for e in desktop.stored("grid")["log"] if e["step"] == "salvo"]
        if salvos:
            assert offered_squares == set(salvos[-1]["result"]["a"]["may_fire_at"])
        else:
            assert len(offered_squares) == 100
        if round_ == 1:
            # A shot more than the salvo allows is not taken.
            extra = page.eval_on_selector(
                "#grid-enemy-board button:not([disabled]):not([data-aimed])",
                "(b) => b.dataset.square",
            )
            page.click(f"#grid-enemy-board [data-square={extra}]")
            assert page.get_attribute("#grid-status", "data-aimed") == str(allowed)
        desktop.tap("#grid-fire")
        if round_ == 2:
            # A reload resumes the battle: the same marks, the same salvo to aim.
            marks = page.eval_on_selector_all(
                "#grid-enemy-board [data-mark]", "(b) => b.map((x) => x.dataset.mark)"
            )
            status = page.locator("#grid-status").inner_text()
            desktop.reload()
            assert page.is_visible("#grid-game")
            assert status == page.locator("#grid-status").inner_text()
            assert marks == page.eval_on_selector_all(
                "#grid-enemy-board [data-mark]", "(b) => b.map((x) => x.dataset.mark)"
            )
        if round_ == 1:
            told = page.locator("#grid-told-mine").inner_text()
            assert "sonar sweep" in told and "enemy ship squares not yet hit" in told
            desktop.screenshot("salvo-battle-round")
    else:
        raise AssertionError(f"no end after {MOST_ROUNDS} rounds")

    game = desktop.stored("grid")
    over = page.locator("#grid-over").inner_text()
    winner = game["ui"]["end"]["winner"]
    assert over.startswith("Game over.")
    assert ("You win" in over) == (winner == "a")
    assert ("computer wins" in over) == (winner == "b")
    # Every enemy square the player was told of is marked on the board.
    view = game["ui"]["views"]["a"]
    marked = page.eval_on_selector_all(
        "#grid-enemy-board [data-mark]", "(b) => b.map((x) => x.dataset.square)"
    )
    assert set(marked) == fired_on(view) | set(view.get("contacts", []))
    desktop.tap("#grid-heat")
    assert page.locator("#grid-heatmap img").count() == 1
    assert desktop.wider_than_the_screen() == []
    desktop.screenshot("salvo-battle-over")

    steps = [entry["step"] for entry in game["log"]]
    assert steps[:5] == ["layout", "layout", "loot", "layout", "loot"]
    assert desktop.saved_log("grid") == game["log"]
    verdict = desktop.verified_on_the_referees_page("grid")
    assert verdict == {"verdict": "valid", "entries": len(game["log"]), "shown": "valid"}
    assert desktop.errors == []


def test_a_phone_aims_a_battle_and_rolls_dice_without_scrolling_sideways(phone: Player) -> None:
    page = phone.page
    deploy(phone, "companion-phone-battle")
    phone.screenshot("salvo-deploy")
    # A ship placed on another: the service names the fault, and the battle waits.
    fleet = phone.stored("grid")["ui"]["fleet"]
    on_another = next(
        square
        for ship in fleet
        if ship["ship"] != "destroyer"
        for square in ship["squares"]
        if square[0] != "J"  # the destroyer lies across from there, on the ocean
    )
    page.select_option("#grid-ship", "destroyer")
    page.click(f"#grid-deploy-board [data-square={on_another}]")
    phone.tap("#grid-ready")
    assert page.locator("#grid-deploy-note").inner_text().startswith("Not yet: ")
    assert page.is_visible("#grid-deploy") and not page.is_visible("#grid-game")
    phone.tap("#grid-shuffle")
    phone.tap("#grid-ready")
    # The keyboard aims as well as a tap: a square's button takes Enter and Space.
    first = page.eval_on_selector(
        "#grid-enemy-board button:not([disabled])", "(b) => b.dataset.square"
    )
    page.focus(f"#grid-enemy-board [data-square={first}]")
    page.keyboard.press("Enter")
    assert page.get_attribute(f"#grid-enemy-board [data-square={first}]", "aria-pressed") == "true"
    # The board is drawn again, and the focus stays on the square.
    assert page.evaluate("() => document.activeElement.dataset.square") == first
    page.keyboard.press("Escape")  # clears the aim, as the rule text says
    assert page.get_attribute("#grid-status", "data-aimed") == "0"
    for _ in range(3):
        aimed = aim(phone, phone.stored("grid")["ui"]["sizes"]["a"])
        phone.tap("#grid-fire")
        # A square fired on is no longer offered, bar a contact.
        for square in aimed:
            button = page.locator(f"#grid-enemy-board [data-square={square}]")
            if button.get_attribute("data-mark") != "contact":
                assert button.is_disabled()
    assert page.locator("#grid-told-theirs li").count() >= 1
    assert phone.wider_than_the_screen() == []
    phone.screenshot("salvo-battle")

    # The tabs follow the arrow keys.
    page.focus("#tab-grid")
    page.keyboard.press("ArrowRight")
    assert page.is_visible("#dice") and page.get_attribute("#tab-dice", "aria-selected") == "true"
    page.fill("#dice-notation", "4d6r1!kh3")
    phone.tap("#dice-form button[type=submit]")
    total = page.locator("#dice-total").inner_text()
    # the notation as the service read it: its modifiers in the order they are applied
    assert total.startswith("4d6!r1kh3 = ")
    assert page.locator("#dice-result li[data-roll]").count() >= 1
    phone.tap("#dice-odds")
    assert page.locator("#dice-picture img").count() == 1
    assert phone.wider_than_the_screen() == []
    phone.screenshot("dice")
    assert phone.errors == []
