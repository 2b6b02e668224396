"""The receipts' requests are shapes and their answers TypedDicts: each answer the service
sends is what its one definition says, and each request is read as its shape says."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from marshmallow import ValidationError

from service.http.document.derive import result_schema, shape_schema
from service.http.endpoints import seeds, verify
from service.http.endpoints.envelope import serving
from service.http.fast.loading import planned
from service.receipts import answers

GAME = {"ruleset": "salvo-solo", "rules": {"straddle-21-plus": "no-effect"}}
FIRE = {"range": "Long", "weather": "Fair", "dice": {"seed": "shapes", "nonce": 1}}


def conforms(typed: type, answer: dict[str, Any]) -> dict[str, Any]:
    """What the derived schema of ``typed`` finds wrong with ``answer`` (nothing, if it is
    what the TypedDict says)."""
    errors: dict[str, Any] = result_schema(typed)().validate(answer)
    return errors


def test_the_seal_the_reveal_and_the_game_header_answer_as_their_types_say(
    client: FlaskClient,
) -> None:
    sealed = client.post("/v1/seeds", json={"reveal_in": 0, **GAME})
    assert sealed.status_code == 200
    assert conforms(answers.SealResponse, sealed.get_json()) == {}
    revealed = client.post("/v1/seeds/reveal", json={"sealed": sealed.get_json()["sealed"]})
    assert revealed.status_code == 200
    assert conforms(answers.RevealResponse, revealed.get_json()) == {}
    header = client.post("/v1/games", json=GAME)
    assert header.status_code == 200
    assert conforms(answers.GameResponse, header.get_json()) == {}
    assert set(header.get_json()) == set(answers.GameResponse.__annotations__)


def test_a_verify_answer_with_its_checkpoint_answers_as_its_type_says(
    client: FlaskClient,
) -> None:
    fired = client.post("/v1/rulesets/salvo-solo/fire", json=FIRE).get_json()
    report = client.post("/v1/receipts/verify", json=[fired]).get_json()
    assert report["verdict"] == answers.VALID and report["checkpoint"] is not None
    assert conforms(answers.VerifyResponse, report) == {}
    assert set(report["checkpoint"]["state"]) == set(answers.CheckpointState.__annotations__)


def test_the_verify_query_reads_text_as_a_query_does(client: FlaskClient) -> None:
    table = {**FIRE, "dice": {"values": [3, 4]}}
    supplied = client.post("/v1/rulesets/salvo-solo/fire", json=table).get_json()
    assert supplied["dice"]["mode"] == "supplied"
    told = client.post("/v1/receipts/verify?accept_supplied=true", json=[supplied]).get_json()
    assert told["log"]["accept_supplied"] is True and told["log"]["codes"] == []
    strict = client.post("/v1/receipts/verify", json=[supplied]).get_json()
    assert strict["log"]["accept_supplied"] is False
    assert strict["log"]["codes"] == ["supplied-dice"]
    refused = client.post("/v1/receipts/verify?accept_supplied=perhaps", json=[supplied])
    assert refused.status_code == 422


def test_a_binding_that_is_no_hash_is_told_what_a_binding_is(client: FlaskClient) -> None:
    answer = client.post("/v1/seeds", json={"client_seed_sha256": "ABC"})
    assert answer.status_code == 422
    assert "Not a hex SHA-256 (64 lowercase hex digits)." in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("shape", "body"),
    [
        (seeds.SealRequest, {}),
        (seeds.SealRequest, {"reveal_in": 60, "client_seed_sha256": "a" * 64, **GAME}),
        (seeds.SealRequest, {"reveal_in": "60"}),
        (seeds.SealRequest, {"client_seed_sha256": "A" * 64}),
        (seeds.SealRequest, {"ruleset": "no-such-ruleset"}),
        (seeds.RevealRequest, {"sealed": "x"}),
        (seeds.RevealRequest, {"sealed": ""}),
        (seeds.GameRequest, GAME),
        (seeds.GameRequest, {"rules": {}}),
        (seeds.GameRequest, {"ruleset": "salvo-solo", "prev": "not a hash"}),
    ],
)
def test_the_request_shapes_are_planned_and_load_as_marshmallow_does(
    app: Flask, shape: type, body: dict[str, Any]
) -> None:
    schema = serving(shape_schema(shape)(), ["salvo-solo"])
    load = planned(schema)
    assert load is not schema.load

    def outcome(reader: Any) -> Any:
        try:
            return ("loaded", reader(dict(body)))
        except ValidationError as error:
            return ("refused", error.messages)

    assert outcome(load) == outcome(schema.load)
    if outcome(load)[0] == "loaded":
        assert isinstance(outcome(load)[1], shape)


def test_the_verify_query_schema_is_planned() -> None:
    schema = verify.VERIFY_QUERY
    assert planned(schema) is not schema.load
    assert planned(schema)({"accept_supplied": "true"}) == {"accept_supplied": True}
