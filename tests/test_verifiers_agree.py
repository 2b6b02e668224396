"""One verdict: POST /v1/receipts/verify and tools/verify_dice.py agree on every fixture log.

The fixture logs (tests/fixtures/logs/, made by the real service with test-only keys, see
make_logs.py there) cover a valid game; its head, a middle entry and its tail removed; an
edited result; a replayed entry; entries reordered; mixed seeds; dice supplied in a seeded
game (refused, then accepted by the referee); a step that rolls nothing; duplicate member
names; a sealed game before and after its reveal; a re-spelled receipt; a game that changes
its ruleset or its readings, with and without a game header that fixes them; and whole games
whose every request was pinned by its digest (``Prefer: return=minimal``), with a pending
turn finished so, and one whose finishing call asked otherwise than its pending call; turns
left pending by the player's initiative and by the enemy's, finished or thrown away. Both verifiers
must give the same verdict, the same problem codes for each entry and the log, and the
same words (except where only the wording of what to do next differs: a sealed roll the
service can open at the reveal time, the standalone verifier with the reveal answer).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from service import create_app
from tests.fixtures.logs.make_logs import app_config, whole_games

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "fixtures" / "logs"
VERIFIER = ROOT / "tools" / "verify_dice.py"
MANIFEST = json.loads((LOGS / "manifest.json").read_text())
OWN_WORDS = {"sealed-not-yet-checkable"}

_spec = importlib.util.spec_from_file_location("verify_dice", VERIFIER)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app(app_config()).test_client()


def service_verdict(
    client: FlaskClient, name: str, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    spec = MANIFEST[name]
    monkeypatch.setattr("time.time", lambda: float(spec["checked_at"]))
    query = "?accept_supplied=true" if spec.get("accept_supplied") else ""
    answer = client.post(
        f"/v1/receipts/verify{query}",
        data=(LOGS / f"{name}.json").read_bytes(),
        content_type="application/json",
    )
    body = answer.get_json()
    if answer.status_code == 400:
        error = body["errors"][0]
        return {"valid": False, "refused": ("duplicate-member", error["field"], error["message"])}
    assert answer.status_code == 200, body
    return normal(body)


def tool_verdict(name: str) -> dict[str, Any]:
    spec = MANIFEST[name]
    command = [sys.executable, "-I", str(VERIFIER), "--json", "--jwks", str(LOGS / "jwks.json")]
    if spec.get("accept_supplied"):
        command.append("--accept-supplied")
    command.append(str(LOGS / f"{name}.json"))
    if spec.get("revealed"):
        command.append(str(LOGS / spec["revealed"]))
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode in (0, 1, 4), done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["signatures_checked"] is True
    assert done.returncode == {"valid": 0, "invalid": 1, "not-yet-checkable": 4}[verdict["verdict"]]
    assert verdict["valid"] is (verdict["verdict"] == "valid")
    if verdict["refused"]:
        refused = verdict["refused"]
        return {"valid": False, "refused": (refused["code"], refused["field"], refused["message"])}
    return normal(verdict)


def normal(report: dict[str, Any]) -> dict[str, Any]:
    entries = []
    for entry in report["entries"]:
        words = [
            message if code not in OWN_WORDS else code
            for code, message in zip(entry["codes"], entry["problems"], strict=True)
        ]
        entries.append(
            {
                "index": entry["index"],
                "signature_valid": entry["signature_valid"],
                "dice_valid": entry["dice_valid"],
                "receipt_hash": entry["receipt_hash"],
                "codes": entry["codes"],
                "problems": words,
            }
        )
    return {
        "valid": report["valid"],
        "verdict": report["verdict"],
        "not_yet_checkable": report["not_yet_checkable"],
        "entries": entries,
        "log": report["log"],
    }


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_both_verifiers_give_the_same_verdict(
    client: FlaskClient, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from_service = service_verdict(client, name, monkeypatch)
    assert from_service == tool_verdict(name)
    assert from_service["valid"] is MANIFEST[name]["valid"]


EXPECTED_CODES = {
    "head-removed": ["cut-head", "cut-head"],
    "middle-removed": ["chain-broken", "nonce-gap"],
    "replayed-entry": ["chain-broken", "nonce-repeat"],
    "reordered": [
        "chain-broken",
        "chain-broken",
        "nonce-gap",
        "nonce-back",
        "chain-broken",
        "nonce-gap",
    ],
    "mixed-seeds": ["another-seed"],
    "supplied-in-seeded": ["supplied-dice"],
    "ruleset-changed": ["ruleset-changed"],
    "readings-changed": ["readings-changed"],
    "game-header-readings-changed": ["readings-changed"],
    "pending-thrown-away": ["pending-unfinished"],
    "pending-seeded": [],
    "pending-fresh": [],
    "pending-sealed": [],
    "pending-minimal-sealed": [],
    "pending-echoed-unlike": ["pending-unfinished", "nonce-repeat"],
    "pending-rules-spelled-out": [],
    "pending-advised": [],
    "pending-both-kinds": [],
    "pending-player-first-thrown-away": ["pending-unfinished"],
    "readings-spelled-out": [],
    "plain-roll-joins": [],
    "rich-rolls": [],
    "game-header": [],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_CODES))
def test_each_broken_log_names_what_broke(
    client: FlaskClient, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = service_verdict(client, name, monkeypatch)["log"]
    assert sorted(log["codes"]) == sorted(EXPECTED_CODES[name])


def test_an_edited_result_fails_its_signature_in_both(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = service_verdict(client, "edited-result", monkeypatch)
    assert verdict["entries"][3]["codes"] == ["altered"]
    assert verdict["log"]["codes"] == []  # its receipt is the genuine one: the chain links


def test_the_forgery_with_duplicate_members_is_refused_naming_the_member(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = service_verdict(client, "duplicate-members", monkeypatch)
    assert verdict["refused"][:2] == ("duplicate-member", "result")


def test_a_cut_tail_verifies_but_the_answer_says_where_the_log_ends(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = service_verdict(client, "valid-game", monkeypatch)["log"]["ends_with"]
    cut = service_verdict(client, "tail-removed", monkeypatch)["log"]["ends_with"]
    assert (whole["index"], whole["nonce"]) == (5, 6)
    assert (cut["index"], cut["nonce"]) == (3, 4)
    game = json.loads((LOGS / "valid-game.json").read_text())
    assert cut["receipt_hash"] == game[4]["provenance"]["request"]["body"]["prev"]


def test_sealed_rolls_before_the_reveal_are_not_yet_checkable_not_a_mismatch(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = service_verdict(client, "sealed-before-reveal", monkeypatch)
    assert [e["dice_valid"] for e in verdict["entries"]] == [None] * 5
    assert [e["codes"] for e in verdict["entries"][1:]] == [["sealed-not-yet-checkable"]] * 4
    done = subprocess.run(
        [
            sys.executable,
            str(VERIFIER),
            "--jwks",
            str(LOGS / "jwks.json"),
            str(LOGS / "sealed-before-reveal.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert "MISMATCH" not in done.stdout and done.stdout.count(": not yet checkable") == 4
    assert "verdict: NOT YET CHECKABLE" in done.stdout and done.returncode == 4


def run_tool(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", str(VERIFIER), *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_without_keys_the_verifier_says_what_it_did_not_check_and_fails() -> None:
    # The results of edited-result.json were invented: only a signature shows it.
    done = run_tool(str(LOGS / "edited-result.json"))
    assert "signatures NOT checked" in done.stdout
    assert "verdict: VALID" not in done.stdout and "verdict: NOT CHECKED" in done.stdout
    assert done.returncode == 3
    as_json = run_tool("--json", str(LOGS / "edited-result.json"))
    verdict = json.loads(as_json.stdout)
    assert as_json.returncode == 3
    assert (verdict["valid"], verdict["verdict"]) == (False, "signatures-not-checked")
    with_keys = run_tool("--jwks", str(LOGS / "jwks.json"), str(LOGS / "edited-result.json"))
    assert with_keys.returncode == 1 and "[altered]" in with_keys.stdout


def test_a_dice_only_check_is_asked_for_and_says_so() -> None:
    done = run_tool("--dice-only", "--json", str(LOGS / "edited-result.json"))
    verdict = json.loads(done.stdout)
    assert done.returncode == 0
    assert (verdict["valid"], verdict["verdict"]) == (True, "dice-valid")
    assert verdict["signatures_checked"] is False
    assert "nothing shows these answers are the service's" in done.stderr
    mismatch = run_tool("--dice-only", str(LOGS / "replayed-entry.json"))
    assert mismatch.returncode == 1 and "verdict: INVALID" in mismatch.stdout


def test_a_re_spelled_receipt_is_not_the_receipt_the_service_wrote(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    verdict = service_verdict(client, "re-spelled-receipt", monkeypatch)
    assert verdict["entries"][-1]["codes"] == ["receipt-not-canonical"]
    game = json.loads((LOGS / "re-spelled-receipt.json").read_text())
    genuine = json.loads((LOGS / "valid-game.json").read_text())
    head, _, signature = game[-1]["receipt"].partition("..")
    original = genuine[-1]["receipt"].partition("..")[2]
    assert signature != original
    assert tool._unb64(signature) == tool._unb64(original)  # the same signature bytes


def test_a_sealed_game_before_its_reveal_is_not_yet_checkable_not_valid() -> None:
    done = run_tool(
        "--jwks", str(LOGS / "jwks.json"), "--json", str(LOGS / "sealed-before-reveal.json")
    )
    verdict = json.loads(done.stdout)
    assert done.returncode == 4
    assert (verdict["valid"], verdict["verdict"]) == (False, "not-yet-checkable")


def test_a_whole_game_of_every_ruleset_verifies_in_one_request(tmp_path: Path) -> None:
    """Each game played afresh through the HTTP API, every call chained, goes to the
    service in one request (a salvo-grid battle is past the 64 KiB of other bodies) and to
    the standalone verifier, with one verdict: valid. The referee's page checks the same
    games as fixture logs (tests/test_referee_page.py)."""
    client = create_app(app_config()).test_client()
    for name, game in whole_games(client).items():
        body = json.dumps(game).encode()
        answer = client.post("/v1/receipts/verify", data=body, content_type="application/json")
        assert answer.status_code == 200, (name, len(body))
        report = answer.get_json()
        assert (report["valid"], report["verdict"]) == (True, "valid"), (name, report["log"])
        (tmp_path / f"{name}.json").write_bytes(body)
        done = run_tool("--json", "--jwks", str(LOGS / "jwks.json"), str(tmp_path / f"{name}.json"))
        assert done.returncode == 0, done.stdout[-2000:]
        assert normal(json.loads(done.stdout)) == normal(report), name
    battle = json.dumps(whole_games(client)["whole-salvo-grid"]).encode()
    assert len(battle) > 64 * 1024  # what the route's own limit is for


def test_the_verify_route_has_a_body_limit_of_its_own() -> None:
    client = create_app(app_config()).test_client()
    step = client.post(
        "/v1/dice/roll",
        data=json.dumps({"notation": "1d6", "x": "a" * 70_000}),
        content_type="application/json",
    )
    assert step.status_code == 413  # other routes keep 64 KiB
    over = json.dumps([{"padding": "a" * (1024 * 1024)}]).encode()
    refused = client.post("/v1/receipts/verify", data=over, content_type="application/json")
    assert refused.status_code == 413
    assert refused.get_json()["type"].endswith("#body-too-large")


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_the_standalone_canonical_json_is_rfc_8785(value: Any) -> None:
    assert tool.canonical_json(value) == rfc8785.dumps(value)


@pytest.mark.parametrize(
    "number", [1e21, 1e-7, 123e-20, 5e-324, 1.7976931348623157e308, 0.1, -0.0, 1e16, 12345.678]
)
def test_the_standalone_canonical_numbers(number: float) -> None:
    assert tool.canonical_json(number) == rfc8785.dumps(number)


def test_every_text_counts_entries_from_1_as_the_cards_do(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A problem's "entry N" is the card labelled Entry N: the JSON's index plus one."""
    head = service_verdict(client, "head-removed", monkeypatch)["log"]["problems"]
    assert head[0].startswith("entry 1 carries a prev")  # the first entry, index 0
    middle = service_verdict(client, "middle-removed", monkeypatch)["log"]["problems"]
    # The third entry (index 2) follows the second (index 1) now that one between is gone.
    assert middle[0].startswith("entry 3's prev is not the hash of entry 2's receipt")
    for name in sorted(MANIFEST):
        verdict = service_verdict(client, name, monkeypatch)
        if verdict.get("refused"):
            continue
        count = len(verdict["entries"])
        for text in verdict["log"]["problems"]:
            named = [int(n) for n in re.findall(r"\bentry (\d+)", text)]
            assert named and all(1 <= n <= count for n in named), (name, text)
    done = subprocess.run(
        [sys.executable, str(VERIFIER), str(LOGS / "tail-removed.json")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    game = json.loads((LOGS / "tail-removed.json").read_text())
    assert f"the log ends with entry {len(game)}, " in done.stdout
