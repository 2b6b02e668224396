"""Shared by the receipt and seed tests: a seeded game, a third party's check, the standalone
verifier, and the keys, dice and edits the checks are tried on."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from flask.testing import FlaskClient
from joserfc import jws
from joserfc.jwk import KeySet

from service.receipts.keys import SealKeys
from tests.salvo_solo_helpers import AJAX, SPEE, START_STATE

SOLO = "/v1/rulesets/salvo-solo"
GAME_SEED = "river-plate-1939"
VERIFIER = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"

Doc = dict[str, Any]

# tools/verify_dice.py, the standalone verifier a third party runs, imported in this process.
_spec = importlib.util.spec_from_file_location("verify_dice_receipts", VERIFIER)
assert _spec is not None and _spec.loader is not None
verify_dice = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_dice)

# A seal key set made here, and the moment its tokens are opened at.
SEALS = SealKeys("guard", {"guard": bytes(range(32))})
NOW = 1767225600  # 2026-01-01T00:00:00Z
ABSENT: Any = object()  # a member left out, where None would be a member holding null

# The steps of one turn of a seeded game, in order; the nonce counts up from 1.
TURN: list[tuple[str, dict[str, Any]]] = [
    ("weather", {}),
    ("initiative", {"player": AJAX, "enemy": SPEE}),
    ("enemy-action", {"enemy": SPEE, "player": AJAX, "last_action": None}),
    ("fire", {"range": "Long", "weather": "Fair", "previously_straddled": False}),
    ("straddle", {"firer": AJAX, "target": SPEE, "range": "Long", "guns_bearing": "bow"}),
    ("special-damage", {}),
]


def receipt_hash(document: dict[str, Any]) -> str:
    """What a player sends as ``prev``, computed here without the service's code."""
    return hashlib.sha256(document["receipt"].encode()).hexdigest()


def minimal_client(client: FlaskClient) -> FlaskClient:
    """A client of the same service whose every request says ``Prefer: return=minimal``."""
    other = client.application.test_client()
    other.environ_base["HTTP_PREFER"] = "return=minimal"
    return other


def play(client: FlaskClient, seed: str = GAME_SEED, first_nonce: int = 1) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = []
    for nonce, (step, inputs) in enumerate(TURN, start=first_nonce):
        body: dict[str, Any] = {**inputs, "dice": {"seed": seed, "nonce": nonce}}
        if log:
            body["prev"] = receipt_hash(log[-1])
        response = client.post(f"{SOLO}/{step}", json=body)
        assert response.status_code == 200, response.get_json()
        log.append(response.get_json())
    return log


def third_party_check(jwks: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    """Verify a receipt with a JOSE library and an RFC 8785 library; returns the header."""
    content = {name: value for name, value in document.items() if name != "receipt"}
    signature = jws.deserialize_compact(
        document["receipt"],
        KeySet.import_key_set(jwks),  # type: ignore[arg-type]
        algorithms=["Ed25519"],
        payload=rfc8785.dumps(content),
    )
    return dict(signature.headers())


def play_next(client: FlaskClient, log: list[Doc], step: str, body: Doc, nonce: int) -> None:
    """One more step of the game of GAME_SEED, under ``nonce``, chained to the log's last."""
    dice = {"seed": GAME_SEED, "nonce": nonce}
    body = {**body, "dice": dice, "prev": receipt_hash(log[-1])}
    response = client.post(f"{SOLO}/{step}", json=body)
    assert response.status_code == 200, response.get_json()
    log.append(response.get_json())


def verify(client: FlaskClient, body: Any) -> dict[str, Any]:
    response = client.post("/v1/receipts/verify", json=body)
    assert response.status_code == 200, response.get_json()
    report: dict[str, Any] = response.get_json()
    return report


def record_moves(monkeypatch: pytest.MonkeyPatch, name: str) -> list[tuple[Path, Path]]:
    """Every ``os.<name>`` (``link`` or ``replace``) from now on, made as usual and listed
    as (source, target): where a key file's temporary was written."""
    moves: list[tuple[Path, Path]] = []
    real = getattr(os, name)

    def recording(source: Any, target: Any) -> None:
        moves.append((Path(source), Path(target)))
        real(source, target)

    monkeypatch.setattr(os, name, recording)
    return moves


# --- one entry's dice, and one member of a document changed --------------------------------


def roll_of(notation: Any, values: list[int], label: str = "x") -> Doc:
    """A roll as an answer shows it."""
    return {"label": label, "notation": notation, "values": values, "total": sum(values)}


def seeded_dice(seed: Any = "guard-seed", nonce: Any = 3) -> Doc:
    """An answer's ``dice`` for a seeded roll."""
    return {"mode": "seeded", "seed": seed, "nonce": nonce}


def set_at(path: str, value: Any) -> Callable[[Doc], None]:
    """An edit setting the member at a dotted path (``provenance.request.body``)."""
    keys = path.split(".")

    def change(doc: Doc) -> None:
        target = doc
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return change


def drop_at(path: str) -> Callable[[Doc], None]:
    """An edit removing the member at a dotted path."""
    keys = path.split(".")

    def change(doc: Doc) -> None:
        target = doc
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]

    return change


# --- whole games of every ruleset, chained, as players make them ----------------------------


def _chain(client: FlaskClient, log: list[dict[str, Any]], path: str, body: dict[str, Any]) -> Any:
    if log:
        body = {**body, "prev": receipt_hash(log[-1])}
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()
    log.append(response.get_json())
    return log[-1]


SOLO_START = START_STATE


def salvo_solo_game(client: FlaskClient, seed: str, most_turns: int = 60) -> list[dict[str, Any]]:
    """A whole game of Salvo! to its end, a turn a request: each turn is asked without the
    player's Action first, and a pending one is finished with the dice its answer names."""
    log: list[dict[str, Any]] = []
    state, nonce = SOLO_START, 1
    for _ in range(most_turns):
        body: dict[str, Any] = {"state": state, "dice": {"seed": seed, "nonce": nonce}}
        asked = client.post(f"{SOLO}/turn", json={**body, **_prev(log)})
        assert asked.status_code == 200, asked.get_json()  # the turn waits for the player
        log.append(asked.get_json())
        pending = log[-1]["result"]["pending"]
        body["dice"] = pending["dice"]
        action = pending["choices"][0]  # at speed 0 a ship can only Offer Broadside
        finished = client.post(f"{SOLO}/turn", json={**body, "player_action": action, **_prev(log)})
        assert finished.status_code == 200, finished.get_json()
        log.append(finished.get_json())
        result = log[-1]["result"]
        if result["game_over"]:
            return log
        state, nonce = result["state"], nonce + 1
    raise AssertionError(f"seed {seed!r}: no end after {most_turns} turns")


def _prev(log: list[dict[str, Any]]) -> dict[str, str]:
    return {"prev": receipt_hash(log[-1])} if log else {}


def step_sequence(client: FlaskClient, ruleset: str, seed: str) -> list[dict[str, Any]]:
    """Every step of a ruleset once, in the order its API lists them, on the request
    examples of its documentation with the game's seed and the next nonce."""
    module = importlib.import_module(f"service.rulesets.{ruleset.replace('-', '_')}.api")
    log: list[dict[str, Any]] = []
    for nonce, spec in enumerate(module.STEPS, start=1):
        body = {k: v for k, v in spec.example.items() if k != "dice"}
        _chain(
            client,
            log,
            f"{module.blp.url_prefix}/{module.API.ruleset.step(spec.name).route}",
            {**body, "dice": {"seed": seed, "nonce": nonce}},
        )
    return log
