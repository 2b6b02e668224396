"""The committed openapi.yaml is what the app serves, and every operation is documented."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import yaml
from flask import Flask

from service import create_app
from service.http.document.components import camel
from service.rulesets.api import registered

ROOT = Path(__file__).resolve().parent.parent


def test_committed_document_matches_the_app(app: Flask) -> None:
    served = app.test_client().get("/openapi.json").get_json()
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert committed == served, "openapi.yaml is stale: run `make openapi` and commit it"


def test_served_document_is_built_once_and_revalidates_with_its_etag() -> None:
    """The document is the same bytes on every request (built once per worker, not per
    request), names a strong ETag of those bytes, and a client sending that ETag back gets
    a 304 with no body; a stale ETag gets the whole document."""
    fresh = create_app()
    client = fresh.test_client()
    first = client.get("/openapi.json")
    second = client.get("/openapi.json")
    assert first.status_code == second.status_code == 200
    assert first.get_data() == second.get_data()
    etag = first.headers["ETag"]
    assert etag == f'"{hashlib.sha256(first.get_data()).hexdigest()[:32]}"'
    assert first.headers["Cache-Control"] == "no-cache"
    assert first.get_json()["info"]["title"] == "Fire Control"
    calls = []
    spec = fresh.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec
    original = spec.to_dict

    def counted() -> dict[str, Any]:
        calls.append(1)
        built: dict[str, Any] = original()
        return built

    spec.to_dict = counted
    assert client.get("/openapi.json").get_data() == first.get_data()
    assert calls == [], "the document was built again for a later request"
    revalidated = client.get("/openapi.json", headers={"If-None-Match": etag})
    assert revalidated.status_code == 304 and revalidated.get_data() == b""
    assert revalidated.headers["ETag"] == etag
    stale = client.get("/openapi.json", headers={"If-None-Match": '"0123"'})
    assert stale.status_code == 200 and stale.get_data() == first.get_data()


def test_every_operation_has_summary_description_and_example(app: Flask) -> None:
    document = app.test_client().get("/openapi.json").get_json()
    missing = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            where = f"{method.upper()} {path}"
            if not operation.get("summary"):
                missing.append(f"{where}: summary")
            if not operation.get("description"):
                missing.append(f"{where}: description")
            if method == "post":
                body = operation.get("requestBody", {}).get("content", {})
                if "example" not in body.get("application/json", {}):
                    missing.append(f"{where}: request example")
    assert missing == []


def test_every_request_example_is_accepted_as_it_is(app: Flask) -> None:
    client = app.test_client()
    document = client.get("/openapi.json").get_json()
    refused = []
    for path, item in document["paths"].items():
        post = item.get("post")
        if not post:
            continue
        example = post["requestBody"]["content"]["application/json"]["example"]
        response = client.post(path, json=example)
        if response.status_code != 200:
            refused.append((path, response.status_code, response.get_json()))
    assert refused == []


def _operations(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def test_every_operation_has_a_unique_camel_case_operation_id(app: Flask) -> None:
    document = app.test_client().get("/openapi.json").get_json()
    ids = {where: operation.get("operationId") for where, operation in _operations(document)}
    assert [where for where, found in ids.items() if not found] == []
    assert [
        found
        for found in ids.values()
        if not re.fullmatch(r"[a-z]+(?:[A-Z][a-z0-9]*)*", found or "")
    ] == []
    assert len(set(ids.values())) == len(ids), "two operations share an operationId"
    named = {
        "POST /v1/rulesets/salvo-solo/turn": "salvoSoloTurn",
        "POST /v1/rulesets/salvo-solo/straddle/odds": "salvoSoloStraddleOdds",
        "POST /v1/rulesets/salvo-grid/salvo": "salvoGridSalvo",
        "POST /v1/rulesets/dreadnought/fire": "dreadnoughtFire",
        "POST /v1/rulesets/fleet-action/torpedo/odds": "fleetActionTorpedoOdds",
        "GET /v1/rulesets": "listRulesets",
        "GET /v1/rulesets/{ruleset}": "getRuleset",
        "GET /v1/rulesets/{ruleset}/tables": "getRulesetTables",
        "GET /v1/rulesets/{ruleset}/ships": "getRulesetShips",
        "POST /v1/dice/roll": "rollDice",
        "POST /v1/receipts/verify": "verifyReceipts",
        "GET /.well-known/jwks.json": "getJwks",
        "POST /v1/seeds": "sealSeed",
        "POST /v1/seeds/reveal": "revealSeed",
        "GET /healthz": "getHealth",
        "GET /readyz": "getReadiness",
    }
    assert {where: ids.get(where) for where in named} == named


def _walk(node: Any, where: str = "") -> Any:
    """Every (where, schema-ish dict) in the document, depth first."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{where}/{index}")


def test_one_component_per_set_of_values(app: Flask) -> None:
    """Each fixed set of strings is one named component, referenced wherever it is used:
    two components with the same values, or an enum written inline, would each become a
    type of their own in a generated client."""
    document = app.test_client().get("/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    owners: dict[frozenset[str], list[str]] = {}
    for name, schema in schemas.items():
        if "enum" in schema:
            owners.setdefault(frozenset(schema["enum"]), []).append(name)
    assert {values: names for values, names in owners.items() if len(names) > 1} == {}
    top_level = {f"/components/schemas/{name}" for name in schemas}
    inline = [where for where, node in _walk(document) if "enum" in node and where not in top_level]
    assert inline == []


def test_component_names_carry_their_ruleset(app: Flask) -> None:
    """A ruleset's components are named after it (salvo-solo's too), none bare."""
    document = app.test_client().get("/openapi.json").get_json()
    prefixes = tuple(camel(api.id) for api in registered())
    shared = {name for name in document["components"]["schemas"] if not name.startswith(prefixes)}
    # The envelope, dice, receipts, seeds, problems and the catalog: one for every ruleset.
    assert not any(
        word in name
        for name in shared
        for word in ("Ship", "Range", "Weather", "Damage", "Turn", "Straddle", "Torpedo", "Fleet")
    ), sorted(shared)


def _envelope_steps(app: Flask) -> dict[str, Any]:
    """The ``step`` of every answer in the envelope (its rolls and result), by component."""
    schemas = app.test_client().get("/openapi.json").get_json()["components"]["schemas"]
    return {
        name: schema["properties"]["step"]
        for name, schema in schemas.items()
        if {"step", "rolls", "result"} <= set(schema.get("properties", {}))
    }


def test_every_answer_in_the_envelope_names_its_step_as_one_value(every_app: Flask) -> None:
    """A generated client reads ``step`` as a fixed value, never a free string: a dice roll's
    is ``roll``, each step's its own; together exactly the steps the app serves."""
    from tests.fixtures.tiny_ruleset import EVERY, TINY

    for app, served in ((every_app, EVERY), (create_app({"RULESETS": (TINY,)}), (TINY,))):
        steps = _envelope_steps(app)
        assert steps["RollResponse"] == {"type": "string", "const": "roll"}
        assert all(set(step) == {"type", "const"} for step in steps.values()), steps
        named = {step["const"] for step in steps.values()}
        assert named == {"roll"} | {s.name for api in served for s in api.ruleset.steps}
    answer = every_app.test_client().post("/v1/dice/roll", json={"notation": "2d6"}).get_json()
    assert answer["step"] == "roll"
