"""Checkpoints: a game longer than one verify request holds, checked in parts.

A valid log's answer carries a checkpoint signed with the receipt key; the next part is
sent as ``{"checkpoint": ..., "entries": [...]}`` and checked as if the entries before it
were there: the chain, the nonces, the one seed, the one ruleset and a turn left pending
across the cut. The standalone verifier takes the same checkpoint (its signature checked
against the key set), and checks parts in order from files itself; both verifiers give the
same verdicts and words, for the valid game and for each way a checkpoint can be wrong.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service import create_app
from service.receipts.checking import MAX_LOG_ENTRIES
from tests.fixtures.logs.make_logs import app_config, chained, finished, pending_turn
from tests.test_verifiers_agree import LOGS, VERIFIER, normal

SEED = "long-game"


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app(app_config()).test_client()


def play_long_game(client: FlaskClient) -> list[dict[str, Any]]:
    """A Salvo! turn the enemy's initiative leaves pending, finished, then plain rolls of the
    same seed: 122 entries, more than one request holds."""
    asked, waiting = pending_turn(client, lambda n: {"seed": f"{SEED}-{n}", "nonce": 1})
    seed = asked["dice"]["seed"]
    game = [waiting, finished(client, asked, waiting, waiting)]
    for nonce in range(2, 122):
        body = {"notation": "2d6", "dice": {"seed": seed, "nonce": nonce}}
        game.append(chained(client, "/v1/dice/roll", body, game[-1]))
    return game


@pytest.fixture(scope="module")
def long_game(client: FlaskClient) -> list[dict[str, Any]]:
    return play_long_game(client)


PARTS = (slice(0, 1), slice(1, 101), slice(101, None))  # the turn left pending across a cut


def verify(client: FlaskClient, body: Any) -> dict[str, Any]:
    answer = client.post("/v1/receipts/verify", json=body)
    assert answer.status_code == 200, answer.get_json()
    report: dict[str, Any] = answer.get_json()
    return report


def tool(tmp_path: Path, *files: Any, extra: tuple[str, ...] = ()) -> tuple[int, str]:
    paths: list[str] = []
    for number, content in enumerate(files):
        saved = tmp_path / f"part-{number}.json"
        saved.write_text(json.dumps(content))
        paths.append(str(saved))
    command = [sys.executable, "-I", str(VERIFIER), "--jwks", str(LOGS / "jwks.json"), *extra]
    command.append(paths[0])
    for part in paths[1:]:
        command += ["--part", part]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    return done.returncode, done.stdout


def tool_json(tmp_path: Path, body: Any) -> dict[str, Any]:
    code, out = tool(tmp_path, body, extra=("--json",))
    verdict: dict[str, Any] = json.loads(out)
    assert code == {"valid": 0, "invalid": 1}[verdict["verdict"]]
    return verdict


def in_parts(client: FlaskClient, game: list[dict[str, Any]]) -> list[dict[str, Any]]:
    answers, checkpoint = [], None
    for part in PARTS:
        entries = game[part]
        body: Any = (
            entries if checkpoint is None else {"checkpoint": checkpoint, "entries": entries}
        )
        answers.append(verify(client, body))
        checkpoint = answers[-1]["checkpoint"]
    return answers


def test_a_game_longer_than_one_request_verifies_in_parts(
    client: FlaskClient, long_game: list[dict[str, Any]]
) -> None:
    assert len(long_game) > MAX_LOG_ENTRIES
    whole = client.post("/v1/receipts/verify", json=long_game)
    assert whole.status_code == 422 and "in parts" in whole.get_json()["detail"]
    answers = in_parts(client, long_game)
    assert [a["verdict"] for a in answers] == ["valid"] * 3, [a["log"] for a in answers]
    first, second, last = answers
    assert first["checkpoint"]["state"]["pending"]["index"] == 0  # the turn waits across the cut
    assert first["checkpoint"]["state"]["entries"] == 1
    assert second["log"]["continues_from"] == {
        "entries": 1,
        "receipt_hash": first["entries"][0]["receipt_hash"],
        "signature_valid": True,
    }
    assert [e["index"] for e in second["entries"]] == list(range(1, 101))  # counted in the game
    assert last["log"]["ends_with"]["index"] == len(long_game) - 1
    assert last["log"]["ends_with"]["nonce"] == 121
    state = last["checkpoint"]["state"]
    assert state["entries"] == len(long_game) and state["pending"] is None
    assert state["game"]["ruleset"] == "salvo-solo"
    assert state["seed"] == {"mode": "seeded", "seed": long_game[0]["dice"]["seed"]}
    assert last["checkpoint"]["provenance"]["kid"] == long_game[0]["provenance"]["kid"]


def test_the_standalone_verifier_checks_the_parts_in_order(
    client: FlaskClient, long_game: list[dict[str, Any]], tmp_path: Path
) -> None:
    code, out = tool(tmp_path, *(long_game[part] for part in PARTS))
    assert code == 0, out
    assert "part 3" in out and out.rstrip().endswith("verdict: VALID")
    cut = [long_game[0], *long_game[2:100]]  # the turn's finishing call left out
    code, out = tool(tmp_path, long_game[:1], cut, long_game[100:])
    assert code == 1 and "part 2 does not hold" in out


def test_the_standalone_verifier_continues_from_a_saved_verify_answer(
    client: FlaskClient, long_game: list[dict[str, Any]], tmp_path: Path
) -> None:
    answer = verify(client, long_game[:100])
    saved, part = tmp_path / "answer.json", tmp_path / "rest.json"
    saved.write_text(json.dumps(answer))  # the whole answer: its checkpoint is read from it
    part.write_text(json.dumps(long_game[100:]))
    command = [sys.executable, "-I", str(VERIFIER), "--jwks", str(LOGS / "jwks.json")]
    done = subprocess.run(
        [*command, "--checkpoint", str(saved), str(part)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout
    assert "continues from a checkpoint after entry 100" in done.stdout
    assert "the log ends with entry 122" in done.stdout


def test_both_verifiers_agree_on_each_part_after_a_checkpoint(
    client: FlaskClient, long_game: list[dict[str, Any]], tmp_path: Path
) -> None:
    checkpoint = None
    for part in PARTS:
        entries = long_game[part]
        body: Any = (
            entries if checkpoint is None else {"checkpoint": checkpoint, "entries": entries}
        )
        answer = verify(client, body)
        assert normal(answer) == normal(tool_json(tmp_path, body))
        checkpoint = answer["checkpoint"]


def wrong_checkpoints(client: FlaskClient, game: list[dict[str, Any]]) -> dict[str, Any]:
    """Each way a checkpoint can be wrong, with the part sent after it."""
    checkpoint = verify(client, game[:60])["checkpoint"]
    altered = copy.deepcopy(checkpoint)
    altered["state"]["nonce"] -= 5  # as if five rolls had not been shown
    forged = copy.deepcopy(checkpoint)
    forged["receipt"] = game[0]["receipt"]  # a genuine signature, of something else
    other = client.post(
        "/v1/dice/roll", json={"notation": "2d6", "dice": {"seed": "x", "nonce": 1}}
    )
    rest = game[60:100]
    return {
        "checkpoint-altered": {"checkpoint": altered, "entries": rest},
        "checkpoint-forged": {"checkpoint": forged, "entries": rest},
        "checkpoint-unknown": {"checkpoint": game[59], "entries": rest},  # an answer, not one
        "checkpoint-other-game": {"checkpoint": checkpoint, "entries": [other.get_json()]},
        "checkpoint-skips": {"checkpoint": checkpoint, "entries": game[61:100]},
        # The turn left pending before the cut, thrown away after it.
        "pending-dropped": {
            "checkpoint": verify(client, game[:1])["checkpoint"],
            "entries": game[2:9],
        },
    }


EXPECTED = {
    "checkpoint-altered": ["checkpoint-altered", "nonce-gap"],
    "checkpoint-forged": ["checkpoint-altered"],
    "checkpoint-unknown": ["checkpoint-unknown", "cut-head", "cut-head"],
    "checkpoint-other-game": ["chain-restart", "checkpoint-other-game", "another-seed"],
    "checkpoint-skips": ["chain-broken", "nonce-gap"],
    "pending-dropped": ["chain-broken", "pending-unfinished"],
}


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_a_wrong_checkpoint_is_a_named_problem_in_both_verifiers(
    client: FlaskClient, long_game: list[dict[str, Any]], tmp_path: Path, case: str
) -> None:
    body = wrong_checkpoints(client, long_game)[case]
    answer = verify(client, body)
    assert answer["verdict"] == "invalid" and answer["checkpoint"] is None
    assert answer["log"]["codes"] == EXPECTED[case], answer["log"]["problems"]
    assert normal(answer) == normal(tool_json(tmp_path, body))


def test_a_checkpoint_does_not_expire(
    client: FlaskClient, long_game: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    checkpoint = verify(client, long_game[:50])["checkpoint"]
    monkeypatch.setattr("time.time", lambda: 4_102_444_800.0)  # 2100
    answer = verify(client, {"checkpoint": checkpoint, "entries": long_game[50:]})
    assert answer["verdict"] == "valid"


@pytest.mark.parametrize(
    "body",
    [
        {"checkpoint": "x", "entries": []},
        {"checkpoint": {}, "entries": {}},
        {"checkpoint": {}, "entries": [1]},
    ],
)
def test_a_part_that_is_not_a_checkpoint_and_entries_is_a_422(
    client: FlaskClient, body: Any
) -> None:
    assert client.post("/v1/receipts/verify", json=body).status_code == 422


def test_dice_supplied_before_a_checkpoint_still_count_against_the_game(
    client: FlaskClient, tmp_path: Path
) -> None:
    game = json.loads((LOGS / "supplied-accepted.json").read_text())
    accepted = client.post("/v1/receipts/verify?accept_supplied=true", json=game[:2]).get_json()
    assert accepted["verdict"] == "valid"
    body = {"checkpoint": accepted["checkpoint"], "entries": game[2:]}
    strict = verify(client, body)
    assert strict["verdict"] == "invalid"
    assert strict["log"]["codes"] == ["supplied-dice"]
    assert strict["log"]["supplied_entries"] == 1
    assert normal(strict) == normal(tool_json(tmp_path, body))
    told = client.post("/v1/receipts/verify?accept_supplied=true", json=body).get_json()
    assert told["verdict"] == "valid" and told["log"]["supplied_entries"] == 1
