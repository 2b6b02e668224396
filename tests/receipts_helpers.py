"""Shared by the receipt and seed tests: a seeded game, and a third party's check."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from flask.testing import FlaskClient
from joserfc import jws
from joserfc.jwk import KeySet

SOLO = "/v1/rulesets/salvo-solo"
AJAX = {"ship": "Ajax"}
SPEE = {"ship": "Graf Spee"}
GAME_SEED = "river-plate-1939"

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
