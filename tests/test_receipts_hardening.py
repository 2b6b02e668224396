"""The verifier cannot be fooled and is bounded; request bodies are I-JSON.

Each test is an attack or an input that passed (or answered 500) before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.receipts import checking
from tests.receipts_helpers import GAME_SEED, SOLO, TURN, play, receipt_hash, verify

VERIFY = "/v1/receipts/verify"


@pytest.fixture()
def game_app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(tmp_path / "data")})


@pytest.fixture()
def game_client(game_app: Flask) -> FlaskClient:
    return game_app.test_client()


def post_text(client: FlaskClient, path: str, text: str) -> Any:
    return client.post(path, data=text, content_type="application/json")


# --- I-JSON: a member named twice is refused everywhere ------------------------------------


def post_paths(client: FlaskClient) -> list[str]:
    spec = client.get("/openapi.json").get_json()
    paths = [path for path, item in spec["paths"].items() if "post" in item]
    assert len(paths) > 20
    return paths


def test_every_endpoint_refuses_a_member_named_twice(game_client: FlaskClient) -> None:
    for path in post_paths(game_client):
        path = path.replace("{ruleset}", "salvo-solo")
        answer = post_text(game_client, path, '{"dice": {"seed": "a", "seed": "b"}, "x": 1}')
        body = answer.get_json()
        assert answer.status_code == 400, (path, body)
        assert body["type"] == "/problems#malformed-request"
        assert body["errors"][0]["field"] == "dice.seed", path
        assert "'seed'" in body["errors"][0]["message"]


def test_the_forged_prefix_on_a_genuine_response_is_refused(game_client: FlaskClient) -> None:
    genuine = play(game_client)[3]
    text = json.dumps(genuine)
    forged = '{"result": {"straddle": true}, "rolls": [], ' + text[1:]
    answer = post_text(game_client, VERIFY, forged)
    assert answer.status_code == 400
    assert answer.get_json()["errors"][0]["field"] == "result"
    in_a_log = post_text(game_client, VERIFY, f"[{text}, {forged}]")
    assert in_a_log.get_json()["errors"][0]["field"] == "1.result"


@pytest.mark.parametrize(
    "text",
    # Deep lists: as deep in objects, the body opens more objects than its size allows,
    # refused before it is read (tests/test_refusals.py).
    [
        '{"a":' + "[" * 5000 + "1" + "]" * 5000 + "}",
        '{"a": ' + "9" * 5000 + "}",
        '{"a": 1,}',
        '{"a": "\xff"}',
    ],
    ids=["deep", "huge-integer", "malformed", "not-utf8"],
)
def test_undecodable_bodies_are_a_400_everywhere(game_client: FlaskClient, text: str) -> None:
    for path in (VERIFY, f"{SOLO}/fire", "/v1/seeds", "/v1/dice/roll"):
        data = text.encode("latin-1")
        answer = game_client.post(path, data=data, content_type="application/json")
        assert answer.status_code == 400, (path, answer.get_data(as_text=True))
        assert answer.get_json()["type"] == "/problems#malformed-request"


# --- bounded ------------------------------------------------------------------------------


def test_the_25_kb_attack_is_refused_cheaply_naming_the_limit(game_client: FlaskClient) -> None:
    body = {
        "rolls": [{"notation": "9999d9999"}] * 1000,
        "dice": {"mode": "seeded", "seed": "s", "nonce": 1},
        "receipt": "a..b",
    }
    answer = game_client.post(VERIFY, json=body)
    assert answer.status_code == 422
    assert len(answer.get_data()) < 1000
    detail = answer.get_json()["detail"]
    assert f"at most {checking.MAX_DOCUMENT_DICE} dice in all, not 9999000" in detail


def test_rolls_past_the_services_limits_are_reported_not_rederived(
    game_client: FlaskClient,
) -> None:
    for notation in ("1001d6", "2d1001", "1d1"):
        document = {
            "rolls": [{"notation": notation, "values": [1]}],
            "dice": {"mode": "seeded", "seed": "s", "nonce": 1},
        }
        entry = verify(game_client, document)["entries"][0]
        assert entry["codes"] == ["no-receipt", "limit"], notation
        assert entry["dice_valid"] is False


def test_a_log_has_at_most_so_many_entries(game_client: FlaskClient) -> None:
    answer = game_client.post(VERIFY, json=[{}] * (checking.MAX_LOG_ENTRIES + 1))
    assert answer.status_code == 422
    assert f"at most {checking.MAX_LOG_ENTRIES} entries" in answer.get_json()["detail"]


def test_problem_lists_are_capped_and_the_answer_stays_small(game_client: FlaskClient) -> None:
    values = list(range(7, 207))
    rolls = [{"label": "x" * 500, "notation": "1d6", "values": values}] * 40
    document = {"rolls": rolls, "dice": {"mode": "seeded", "seed": "s", "nonce": 1}}
    entry = verify(game_client, document)["entries"][0]
    assert len(entry["problems"]) == checking.MAX_ENTRY_PROBLEMS + 1
    assert entry["problems"][-1] == "... and 36 more"
    assert entry["codes"][-1] == "more"
    assert max(len(problem) for problem in entry["problems"]) < 300
    log = [{"provenance": {"request": {"body": {"prev": "0" * 64}}}}] * checking.MAX_LOG_ENTRIES
    answer = game_client.post(VERIFY, json=log)
    report = answer.get_json()["log"]
    assert len(report["problems"]) == checking.MAX_LOG_PROBLEMS + 1
    assert report["problems"][-1] == f"... and {checking.MAX_LOG_ENTRIES - 20} more"
    assert len(answer.get_data()) < 64 * 1024


def test_a_log_with_a_lone_surrogate_is_not_text_and_is_refused(game_client: FlaskClient) -> None:
    """I-JSON strings are Unicode text: the verifier is not asked to read what no service
    could have written; the 400 names the first member that holds one."""
    text = '{"rolls": [{"notation": "1d6", "values": [1]}], "ruleset": "\\udc00", '
    text += '"dice": {"mode": "seeded", "seed": "\\ud800", "nonce": 1}, "receipt": "\\ud800"}'
    answer = post_text(game_client, VERIFY, f"[{text}]")
    assert answer.status_code == 400
    assert answer.get_json()["errors"][0]["field"] == "0.ruleset"


# --- fooled no more ---------------------------------------------------------------------------


def roll(client: FlaskClient, dice: dict[str, Any], before: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"notation": "2d6", "dice": dice}
    if before is not None:
        body["prev"] = receipt_hash(before)
    answer = client.post("/v1/dice/roll", json=body)
    assert answer.status_code == 200
    result: dict[str, Any] = answer.get_json()
    return result


def test_supplied_dice_in_a_seeded_game_count_unless_the_referee_accepts_them(
    game_client: FlaskClient,
) -> None:
    first = roll(game_client, {"seed": GAME_SEED, "nonce": 1})
    table = roll(game_client, {"values": [6, 6]}, first)
    last = roll(game_client, {"seed": GAME_SEED, "nonce": 2}, table)
    report = verify(game_client, [first, table, last])
    assert report["valid"] is False
    assert report["log"]["codes"] == ["supplied-dice"]
    assert report["log"]["supplied_entries"] == 1
    accepted = game_client.post(f"{VERIFY}?accept_supplied=true", json=[first, table, last])
    assert accepted.get_json()["valid"] is True
    assert accepted.get_json()["log"]["supplied_entries"] == 1
    assert accepted.get_json()["log"]["accept_supplied"] is True


def test_a_log_with_its_head_cut_off_is_reported(game_client: FlaskClient) -> None:
    log = play(game_client)
    report = verify(game_client, log[2:])
    assert report["valid"] is False
    assert report["log"]["starts_at_beginning"] is False
    assert report["log"]["codes"] == ["cut-head", "cut-head"]
    late = play(game_client, seed="late", first_nonce=5)[:1]  # no prev, but nonce 5
    assert verify(game_client, late)["log"]["codes"] == ["cut-head"]


def test_the_answer_says_where_the_log_ends(game_client: FlaskClient) -> None:
    log = play(game_client)
    end = verify(game_client, log[:4])["log"]["ends_with"]
    assert end == {"index": 3, "receipt_hash": receipt_hash(log[3]), "nonce": 4}


@pytest.mark.parametrize("named_seed", [False, True], ids=["no-dice", "game-seed"])
def test_a_step_that_rolls_nothing_keeps_the_game_whole(
    game_client: FlaskClient, named_seed: bool
) -> None:
    log = play(game_client)[:3]
    body: dict[str, Any] = {"range": "Long", "player_action": "C", "enemy_action": "OB"}
    if named_seed:
        body["dice"] = {"seed": GAME_SEED, "nonce": 4}
    moved = game_client.post(
        f"{SOLO}/maneuver", json={**body, "prev": receipt_hash(log[-1])}
    ).get_json()
    assert moved["rolls"] == []
    nonce = 5 if named_seed else 4
    fire = {**TURN[3][1], "dice": {"seed": GAME_SEED, "nonce": nonce}, "prev": receipt_hash(moved)}
    after = game_client.post(f"{SOLO}/fire", json=fire).get_json()
    report = verify(game_client, [*log, moved, after])
    assert report["valid"] is True, report["log"]
    assert report["log"]["one_seed"] is True and report["log"]["nonces_consecutive"] is True


def test_the_limits_and_accept_supplied_are_documented(game_client: FlaskClient) -> None:
    operation = game_client.get("/openapi.json").get_json()["paths"][VERIFY]["post"]
    described = operation["description"]
    assert f"at most {checking.MAX_LOG_ENTRIES} entries" in described
    assert f"{checking.MAX_DOCUMENT_DICE} dice in a whole document" in described
    assert any(p["name"] == "accept_supplied" for p in operation["parameters"])
    docs = (Path(__file__).resolve().parent.parent / "docs" / "verifiable-rolls.md").read_text()
    assert f"at most\n{checking.MAX_LOG_ENTRIES} entries" in docs or (
        f"at most {checking.MAX_LOG_ENTRIES} entries" in docs
    )
    assert f"{checking.MAX_DOCUMENT_DICE} dice in all" in docs
    assert "a cut-off head" in docs and "cut at its tail passes every check" in docs
