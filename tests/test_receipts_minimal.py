"""Minimal answers: a caller that keeps its requests sends ``Prefer: return=minimal`` and the
answer pins its request by a digest instead of echoing it whole.

What a caller sees: the same result, rolls, modifiers, dice and readings; a provenance whose
request keeps ``prev``, ``dice``, ``rules`` and ``player_action`` as they were sent and names
the SHA-256 of the rest's RFC 8785 JSON, which the caller recomputes from what it sent (here
with the ``rfc8785`` package, not the service's code); a receipt a JOSE library checks; and
logs of such answers that every verifier checks as it checks the others.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from flask.testing import FlaskClient

from service import create_app
from tests.fixtures.logs.make_logs import (
    OPENING,
    app_config,
    finished,
    pending_turn,
    whole_games,
)
from tests.receipts_helpers import (
    SOLO,
    minimal_client,
    receipt_hash,
    third_party_check,
    verify,
    verify_dice,
)

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
KEPT = ("prev", "dice", "rules", "player_action")
MINIMAL = {"Prefer": "return=minimal"}


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app(app_config()).test_client()


def digest_of_rest(body: dict[str, Any]) -> str:
    """What a caller computes from its own request: the SHA-256 of the RFC 8785 JSON of the
    body without the members the answer keeps as sent."""
    rest = {name: value for name, value in body.items() if name not in KEPT}
    return hashlib.sha256(rfc8785.dumps(rest)).hexdigest()


def compact(value: Any) -> str:
    """JSON as the service writes it (no spaces): what an answer costs on the wire."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def salvo_of_the_battle() -> tuple[str, dict[str, Any]]:
    """A salvo-grid salvo of the fixture battle: both oceans, both salvos, dice and prev."""
    battle = json.loads((LOGS / "whole-salvo-grid.json").read_text())
    entry = next(e for e in battle if e["step"] == "salvo")
    return entry["provenance"]["request"]["path"], entry["provenance"]["request"]["body"]


def but_provenance(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in ("provenance", "receipt")}


def test_a_salvo_asked_minimal_pins_both_oceans_by_digest(client: FlaskClient) -> None:
    path, body = salvo_of_the_battle()
    whole = client.post(path, json=body)
    brief = client.post(path, json=body, headers=MINIMAL)
    assert whole.status_code == brief.status_code == 200
    assert brief.headers["Preference-Applied"] == "return=minimal"
    answer = brief.get_json()
    request = answer["provenance"]["request"]
    assert "body" not in request
    assert request["path"] == path
    assert request["sent"] == {"dice": body["dice"], "prev": body["prev"]}
    assert request["rest_sha256"] == digest_of_rest(body)
    assert but_provenance(answer) == but_provenance(whole.get_json())
    third_party_check(client.get("/.well-known/jwks.json").get_json(), answer)
    # the two oceans and salvos are what the digest stands for: the answer is that much smaller
    rest = len(compact({k: v for k, v in body.items() if k not in KEPT}))
    assert len(whole.data) - len(brief.data) > rest - 100


def test_a_turn_keeps_the_players_action_and_readings_as_sent(client: FlaskClient) -> None:
    body = {
        "state": OPENING,
        "player_action": "W",
        "rules": {"straddle-21-plus": "no-effect"},
        "dice": {"seed": "minimal-turn", "nonce": 1},
    }
    answer = client.post(f"{SOLO}/turn", json=body, headers=MINIMAL).get_json()
    request = answer["provenance"]["request"]
    assert request["sent"] == {k: body[k] for k in ("player_action", "rules", "dice")}
    assert request["rest_sha256"] == digest_of_rest(body)
    assert answer["rules"]["straddle-21-plus"] == "no-effect"  # every reading in force, still


@pytest.mark.parametrize(
    "prefer",
    ["", "return=representation", "respond-async", "return=representation, return=minimal"],
)
def test_without_the_preference_the_request_is_echoed_whole(
    client: FlaskClient, prefer: str
) -> None:
    path, body = salvo_of_the_battle()
    response = client.post(path, json=body, headers={"Prefer": prefer} if prefer else {})
    assert response.get_json()["provenance"]["request"] == {"path": path, "body": body}
    assert "Preference-Applied" not in response.headers


@pytest.mark.parametrize(
    "prefer", ["return=minimal", "RETURN=minimal", 'return="minimal"', "wait=5, return=minimal"]
)
def test_the_preference_is_read_as_rfc_7240_writes_it(client: FlaskClient, prefer: str) -> None:
    path, body = salvo_of_the_battle()
    response = client.post(path, json=body, headers={"Prefer": prefer})
    assert "rest_sha256" in response.get_json()["provenance"]["request"]
    assert response.headers["Preference-Applied"] == "return=minimal"


def test_a_request_of_a_few_small_members_is_its_own_shortest_pin(client: FlaskClient) -> None:
    """A plain roll's notation is shorter than a digest of it: the body stays whole, and the
    answer does not say the preference was applied."""
    body = {"notation": "2d6", "dice": {"seed": "short", "nonce": 1}}
    response = client.post("/v1/dice/roll", json=body, headers=MINIMAL)
    assert response.get_json()["provenance"]["request"]["body"] == body
    assert "Preference-Applied" not in response.headers


@pytest.mark.parametrize(
    "edit",
    [
        lambda request: request["sent"].update(prev="0" * 64),
        lambda request: request.update(rest_sha256=hashlib.sha256(b"{}").hexdigest()),
        lambda request: request.update(body={}),
    ],
    ids=["prev", "rest_sha256", "a body added"],
)
def test_an_edited_pin_fails_its_signature(client: FlaskClient, edit: Any) -> None:
    path, body = salvo_of_the_battle()
    answer = client.post(path, json=body, headers=MINIMAL).get_json()
    edited = copy.deepcopy(answer)
    edit(edited["provenance"]["request"])
    report = verify(client, edited)
    assert report["entries"][0]["codes"] == ["altered"]
    assert verify(client, answer)["valid"] is True


def test_a_whole_minimal_game_of_every_ruleset_verifies_in_the_service_and_the_tool(
    client: FlaskClient,
) -> None:
    """Played afresh, every call chained and asked minimal: valid in the service and in the
    standalone verifier (the referee's page checks the fixture copies of these games), and
    the salvo-grid battle, whose every request sends both oceans, is much the smaller."""
    keys = verify_dice.load_keys(client.get("/.well-known/jwks.json").get_json())
    games = whole_games(minimal_client(client))
    for name, game in games.items():
        report = verify(client, game)
        assert (report["valid"], report["verdict"]) == (True, "valid"), (name, report["log"])
        standalone = verify_dice.check(json.loads(json.dumps(game)), keys)
        assert (standalone["valid"], standalone["verdict"]) == (True, "valid"), name
        assert all("body" not in e["provenance"]["request"] for e in game if _big(e)), name
    full = whole_games(client)["whole-salvo-grid"]  # the same battle, every body echoed
    saved = sum(_rest(e) - 100 for e in full)
    assert len(compact(full)) - len(compact(games["whole-salvo-grid"])) > saved


def _rest(entry: dict[str, Any]) -> int:
    body = entry["provenance"]["request"]["body"]
    return len(compact({k: v for k, v in body.items() if k not in KEPT}))


def _big(entry: dict[str, Any]) -> bool:
    """An entry whose request's other members are far longer than a digest."""
    request = entry["provenance"]["request"]
    return "rest_sha256" in request or len(json.dumps(request.get("body"))) > 400


def test_a_pending_turn_asked_minimal_finishes_minimal_as_one_turn(client: FlaskClient) -> None:
    brief = minimal_client(client)
    for attempt in range(1, 60):
        body = {"state": OPENING, "dice": {"seed": f"minimal-pending-{attempt}", "nonce": 1}}
        asked = brief.post(f"{SOLO}/turn", json=body)  # a 422 when the player acts first
        pending = asked.get_json()
        if asked.status_code == 200 and "pending" in pending["result"]:
            break
    else:
        raise AssertionError("no turn left pending")
    finish = {**body, "player_action": "C", "prev": receipt_hash(pending)}
    finish["dice"] = pending["result"]["pending"]["dice"]
    done = brief.post(f"{SOLO}/turn", json=finish).get_json()
    pins = [answer["provenance"]["request"]["rest_sha256"] for answer in (pending, done)]
    assert pins[0] == pins[1] == digest_of_rest(body)
    report = verify(client, [pending, done])
    assert report["valid"] is True, report["log"]
    # the same finishing call with another state is another question: the turn was not finished
    other = {**finish, "state": {**OPENING, "range": "Medium"}}
    changed = brief.post(f"{SOLO}/turn", json=other).get_json()
    assert "pending-unfinished" in verify(client, [pending, changed])["log"]["codes"]


def test_a_minimal_pending_turn_is_finished_across_a_checkpoint(client: FlaskClient) -> None:
    """The pending answer alone earns a checkpoint that carries it; the finishing call, sent
    after that checkpoint, is the same turn by the same digest, in the service and the
    standalone verifier alike."""
    brief = minimal_client(client)
    asked, waiting = pending_turn(brief, lambda n: {"seed": f"minimal-cut-{n}", "nonce": 1})
    done = finished(brief, asked, waiting, waiting)
    first = verify(client, [waiting])
    assert first["checkpoint"]["state"]["pending"]["answer"] == waiting
    keys = verify_dice.load_keys(client.get("/.well-known/jwks.json").get_json())
    part = {"checkpoint": first["checkpoint"], "entries": [done]}
    for report in (verify(client, part), verify_dice.check(json.loads(json.dumps(part)), keys)):
        assert (report["verdict"], report["log"]["codes"]) == ("valid", [])
    other = finished(brief, {**asked, "state": {**OPENING, "weather": "Misty"}}, waiting, waiting)
    moved = verify(client, {"checkpoint": first["checkpoint"], "entries": [other]})
    assert "pending-unfinished" in moved["log"]["codes"]
