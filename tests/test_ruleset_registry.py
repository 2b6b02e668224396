"""The rulesets an app serves: what a ruleset provides (``RulesetAPI``), which ones an app
serves (its ``RULESETS`` setting, by default every registered one), and that they live with
the app (``app.extensions``), as its keys do.

The test rulesets of tests/fixtures/tiny_ruleset.py (one step, no tables, no ships, one
ruling two of them give different defaults) are served beside the service's own here.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from service import create_app
from service.http.endpoints import meta
from service.http.endpoints.contract import RulesetAPI
from service.rulesets import REGISTERED
from service.rulesets.api import registered
from service.startup import StartupError
from tests.fixtures.tiny_ruleset import EXTRA, TINY, TWIN

ROOT = Path(__file__).resolve().parent.parent


def test_every_registered_folder_names_its_ruleset_api() -> None:
    found = registered()
    assert all(isinstance(api, RulesetAPI) for api in found)
    assert [api.id for api in found] == [name.replace("_", "-") for name in REGISTERED]


def test_the_app_holds_every_registered_ruleset(app: Flask) -> None:
    held = app.extensions[meta.EXTENSION]
    assert list(held) == [api.id for api in registered()]
    assert not hasattr(meta, "RULESETS")


def test_an_app_serves_the_rulesets_its_setting_adds(every_app: Flask) -> None:
    client = every_app.test_client()
    listed = [r["id"] for r in client.get("/v1/rulesets").get_json()["rulesets"]]
    assert listed == [*(api.id for api in registered()), "tiny", "tiny-twin"]
    assert client.get("/v1/rulesets/tiny/tables").get_json() == {"ruleset": "tiny", "tables": {}}
    assert client.get("/v1/rulesets/tiny/ships").get_json() == {"ruleset": "tiny", "ships": []}
    odds = client.post("/v1/rulesets/tiny/roll/odds", json={}).get_json()["outcomes"]
    assert [(o["result"]["hit"], o["probability"]) for o in odds] == [(False, "2/3"), (True, "1/3")]


def _one_of_empty(node: Any) -> bool:
    if isinstance(node, dict):
        return node.get("oneOf") == [] or any(_one_of_empty(v) for v in node.values())
    return isinstance(node, list) and any(_one_of_empty(v) for v in node)


def test_the_document_of_an_app_with_a_small_ruleset_is_valid(every_app: Flask) -> None:
    document = every_app.test_client().get("/openapi.json").get_json()
    validate(document)
    assert not _one_of_empty(document)
    schemas = document["components"]["schemas"]
    assert schemas["RulesetId"]["enum"] == [*(api.id for api in registered()), "tiny", "tiny-twin"]
    ships = schemas["TinyShipsResponse"]["properties"]["ships"]
    assert ships == {"type": "array", "items": {}, "maxItems": 0}
    assert "/v1/rulesets/tiny-twin/roll/odds" in document["paths"]


def test_another_app_in_the_process_documents_only_its_own_rulesets(every_app: Flask) -> None:
    assert every_app.extensions[meta.EXTENSION]["tiny"] is TINY.ruleset  # made first
    served = create_app().test_client().get("/openapi.json").get_json()
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert served == committed
    assert "tiny" not in json.dumps(served).lower()


def test_two_rulesets_give_one_ruling_id_different_defaults(every_app: Flask) -> None:
    client = every_app.test_client()
    four = {"dice": {"values": [4]}}
    tiny = client.post("/v1/rulesets/tiny/roll", json=four).get_json()
    twin = client.post("/v1/rulesets/tiny-twin/roll", json=four).get_json()
    assert (tiny["result"], tiny["rules"]) == ({"hit": False, "needed": 5}, {"hit-on": "five-up"})
    assert (twin["result"], twin["rules"]) == ({"hit": True, "needed": 4}, {"hit-on": "four-up"})
    chosen = {**four, "rules": {"hit-on": "four-up"}}
    assert client.post("/v1/rulesets/tiny/roll", json=chosen).get_json()["result"]["hit"]
    odds = client.post("/v1/rulesets/tiny-twin/roll/odds", json={}).get_json()["outcomes"]
    assert [o["probability"] for o in odds] == ["1/2", "1/2"]
    readings = {
        r: client.get(f"/v1/rulesets/{r}").get_json()["rulings"][0]["default_reading"]
        for r in ("tiny", "tiny-twin")
    }
    assert readings == {"tiny": "five-up", "tiny-twin": "four-up"}


def test_a_ruleset_api_that_breaks_the_contract_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^ruleset 'tiny': typed results for \['roll', 'x'\]"):
        dataclasses.replace(TINY, results={"roll": dict, "x": dict})
    with pytest.raises(
        ValueError, match="^ruleset 'tiny': its blueprint serves '/v1/rulesets/tiny-"
    ):
        dataclasses.replace(TINY, blueprint=TWIN.blueprint)
    with pytest.raises(StartupError, match="^RULESETS: serves no ruleset;"):
        create_app({"RULESETS": ()})
    for setting, twice in (
        ((TINY, TINY), "'tiny'"),
        ((*EXTRA, dataclasses.replace(TWIN)), "'tiny-twin'"),
    ):
        with pytest.raises(StartupError, match=f"^RULESETS: serves ruleset id {twice} twice "):
            create_app({"RULESETS": setting})


def test_what_the_app_holds_is_what_it_serves(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = dict(app.extensions[meta.EXTENSION])
    monkeypatch.setitem(app.extensions, meta.EXTENSION, {"dreadnought": held["dreadnought"]})
    listed = client.get("/v1/rulesets").get_json()["rulesets"]
    assert [r["id"] for r in listed] == ["dreadnought"]
    assert client.get("/v1/rulesets/salvo-solo").status_code == 404
    assert client.get("/v1/rulesets/dreadnought").status_code == 200
    assert client.get("/readyz").get_json() == {"status": "ready"}


def test_an_app_with_no_ruleset_is_not_ready(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(app.extensions, meta.EXTENSION, {})
    assert client.get("/readyz").get_json() == {"status": "starting"}
    assert client.get("/v1/rulesets").get_json() == {"rulesets": []}


def steps_named_in_readme(ruleset: str) -> list[str]:
    """The steps the README's "Steps:" sentence names for a ruleset, in order: its
    backticked words, less the paths (`/odds`, `turn/odds`)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(rf"^### {re.escape(ruleset)}:.*?(?=^#{{1,3}} )", text, re.S | re.M)
    assert section, f"README.md has no section for {ruleset}"
    start = section.group(0).index("Steps:")
    sentence = re.split(r"\.\s+(?=[A-Z])", section.group(0)[start:], maxsplit=1)[0]
    named = re.findall(r"`([^`]+)`", sentence)
    return list(dict.fromkeys(name for name in named if "/" not in name))


@pytest.mark.parametrize("api", registered(), ids=lambda api: api.id)
def test_the_readme_names_every_step_of_each_ruleset(api: RulesetAPI) -> None:
    assert steps_named_in_readme(api.id) == [step.name for step in api.ruleset.steps]


# --- two apps of one process, each serving its own set -----------------------------------

_BY_ID = {api.id: api for api in registered()}


@pytest.fixture(scope="module")
def apps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Flask]:
    """Three apps made one after the other in this process: fleet-action alone, salvo-solo
    alone, and fleet-action with the test ruleset beside it."""
    sets = {
        "fleet": (_BY_ID["fleet-action"],),
        "solo": (_BY_ID["salvo-solo"],),
        "tiny": (_BY_ID["fleet-action"], TINY),
    }
    return {
        name: create_app(
            {
                "TESTING": True,
                "FIRECONTROL_DATA_DIR": str(tmp_path_factory.mktemp(f"{name}-data")),
                "RULESETS": served,
            }
        )
        for name, served in sets.items()
    }


SERVED = {
    "fleet": ["fleet-action"],
    "solo": ["salvo-solo"],
    "tiny": ["fleet-action", "tiny"],
}
EVERY_ID = ["salvo-solo", "fleet-action", "dreadnought", "salvo-grid", "tiny"]


def _a_step(document: dict[str, Any], ruleset: str) -> tuple[str, Any]:
    """The first step of ``ruleset`` the document has, and its request example."""
    for path, item in document["paths"].items():
        if path.startswith(f"/v1/rulesets/{ruleset}/") and not path.endswith("/odds"):
            post = item.get("post")
            if post is not None:
                return path, post["requestBody"]["content"]["application/json"]["example"]
    raise AssertionError(f"no step of {ruleset} documented")


@pytest.mark.parametrize("name", list(SERVED))
def test_each_app_lists_and_documents_its_own_rulesets(apps: dict[str, Flask], name: str) -> None:
    client = apps[name].test_client()
    listed = [r["id"] for r in client.get("/v1/rulesets").get_json()["rulesets"]]
    assert listed == SERVED[name]
    assert list(apps[name].extensions[meta.EXTENSION]) == SERVED[name]
    document = client.get("/openapi.json").get_json()
    validate(document)
    schemas = document["components"]["schemas"]
    assert schemas["RulesetId"]["enum"] == SERVED[name]
    reached = {p.split("/")[3] for p in document["paths"] if p.startswith("/v1/rulesets/")}
    reached.discard("{ruleset}")  # the catalog's own paths, by a parameter
    assert reached == set(SERVED[name])
    answers = [a["$ref"].rsplit("/", 1)[1] for a in schemas["SignedAnswer"]["anyOf"]]
    assert {a for a in answers if a.endswith("Response")} <= set(schemas)
    for other in set(EVERY_ID) - set(SERVED[name]):
        assert client.get(f"/v1/rulesets/{other}").status_code == 404
        assert not any(p.startswith(f"/v1/rulesets/{other}/") for p in document["paths"])


@pytest.mark.parametrize("name", list(SERVED))
def test_each_app_steps_seals_and_checks_by_its_own_set(apps: dict[str, Flask], name: str) -> None:
    client = apps[name].test_client()
    document = client.get("/openapi.json").get_json()
    for ruleset in SERVED[name]:
        path, example = _a_step(document, ruleset)
        answer = client.post(path, json=example)
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["ruleset"] == ruleset
        checked = client.post("/v1/receipts/verify", json=answer.get_json()).get_json()
        assert checked["valid"], checked
        assert checked["entries"][0]["ruleset"] == ruleset

        sealed = client.post("/v1/seeds", json={"ruleset": ruleset})
        assert sealed.status_code == 200, sealed.get_json()
        assert sealed.get_json()["ruleset"] == ruleset
        header = client.post("/v1/games", json={"ruleset": ruleset})
        assert header.status_code == 200, header.get_json()
        assert (header.get_json()["ruleset"], header.get_json()["step"]) == (ruleset, "game-header")
        verdict = client.post("/v1/receipts/verify", json=[header.get_json()]).get_json()
        assert verdict["entries"][0]["ruleset"] == ruleset

    refused = f"Must be one of: {', '.join(SERVED[name])}."
    for other in set(EVERY_ID) - set(SERVED[name]):
        for endpoint in ("/v1/seeds", "/v1/games"):
            answer = client.post(endpoint, json={"ruleset": other})
            assert answer.status_code == 422, (endpoint, other)
            errors = answer.get_json()["errors"]
            assert {"field": "ruleset", "message": refused} in errors, errors
