"""Rule options: a ruling's readings, chosen per request, echoed and signed.

The mechanism is tested here with one real reading, dreadnought ``blow-up-who``; every
ruleset's own readings are tested in its own files.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.engine.dice import SuppliedDice
from service.engine.resolution import Resolution, readings_in_force
from service.engine.ruleset import Reading, Ruling
from service.rulesets import REGISTERED
from tests.dreadnought_helpers import card, ship
from tests.http_helpers import call, check_of
from tests.receipts_helpers import receipt_hash

BASE = "/v1/rulesets/dreadnought"
QE = {"ship": "Queen Elizabeth"}
TURRET = {"target": QE, "throw": "double 8"}
PRE = {"blow-up-who": "pre-dreadnought-only"}
EVERY = {"blow-up-who": "every-british-battleship"}


def _rulesets() -> dict[str, Any]:
    modules = (importlib.import_module(f"service.rulesets.{name}") for name in REGISTERED)
    return {module.RULESET.id: module.RULESET for module in modules}


# --- one reading both ways, with supplied dice -----------------------------------------------


def test_every_british_battleship_reading_rolls_to_blow_up_a_super_dreadnought(
    client: FlaskClient,
) -> None:
    data = call(client, f"{BASE}/critical", {**TURRET, "rules": EVERY}, values=[6])
    assert data["result"]["effect"] == "ship destroyed"
    assert check_of(data, "critical: blow up")["compared_with"].startswith(
        "British Super Dreadnought: 1 in D6"
    )
    assert data["rules"]["blow-up-who"] == "every-british-battleship"


def test_default_battleship_means_pre_dreadnought_battleship_so_a_super_dreadnought_is_spared(
    client: FlaskClient,
) -> None:
    # The same throw: no blow-up die is rolled, so the die the other reading used is one too
    # many (the player is told), and without it the turret is lost and the ship survives.
    refused = call(client, f"{BASE}/critical", dict(TURRET), values=[6], status=422)
    assert "used only 0" in refused["detail"]
    data = call(client, f"{BASE}/critical", {**TURRET, "dice": {"seed": "s"}})
    assert data["result"]["effect"] == "turret destroyed"
    assert data["rolls"] == []
    assert data["rules"] == {**data["rules"], **PRE}


def test_pre_dreadnought_reading_still_rolls_for_a_pre_dreadnought(client: FlaskClient) -> None:
    old = ship(card("Battleship", (12, 4, 2)))
    for rules in ({}, EVERY):
        body = {"target": old, "throw": "double 8", "rules": rules}
        # two turrets: 4 (explodes), then the blow-up die 6
        data = call(client, f"{BASE}/critical", body, values=[4, 6])
        assert data["result"]["effect"] == "ship destroyed", rules


def test_a_fire_applies_the_reading_inside_its_critical(client: FlaskClient) -> None:
    body = {
        "firer": {"ship": "Queen Elizabeth"},
        "battery": 15,
        "target": {"ship": "Queen Elizabeth"},
        "distance": 10,
    }
    # 8, 8 and the D10 gunner die 2: a hit with double 8, then the blow-up die
    hit = call(client, f"{BASE}/fire", {**body, "rules": EVERY}, values=[8, 8, 2, 6])
    assert hit["result"]["critical"]["effect"] == "ship destroyed"
    spared = call(client, f"{BASE}/fire", body, values=[8, 8, 2])
    assert spared["result"]["critical"]["effect"] == "turret destroyed"


# --- choosing: validation --------------------------------------------------------------------


def test_unknown_ruling_is_a_422_naming_the_rulings_with_readings(client: FlaskClient) -> None:
    data = call(client, f"{BASE}/critical", {**TURRET, "rules": {"blow-up": "x"}}, status=422)
    assert data["type"].endswith("#validation")
    (error,) = data["errors"]
    assert error["field"] == "rules.blow-up"
    assert "blow-up-who" in error["message"]


def test_unknown_reading_is_a_422_naming_the_readings(client: FlaskClient) -> None:
    body = {**TURRET, "rules": {"blow-up-who": "nobody"}}
    data = call(client, f"{BASE}/critical", body, status=422)
    (error,) = data["errors"]
    assert error["field"] == "rules.blow-up-who"
    assert "every-british-battleship" in error["message"]
    assert "pre-dreadnought-only" in error["message"]


@pytest.mark.parametrize("rules", [None, [], "pre-dreadnought-only", {"blow-up-who": 1}])
def test_rules_must_be_an_object_of_strings(client: FlaskClient, rules: Any) -> None:
    data = call(client, f"{BASE}/critical", {**TURRET, "rules": rules}, status=422)
    assert data["errors"][0]["field"].startswith("rules")


def test_odds_requests_refuse_unknown_rulings_too(client: FlaskClient) -> None:
    data = call(client, f"{BASE}/critical/odds", {**TURRET, "rules": {"x": "y"}}, status=422)
    assert data["errors"][0]["field"] == "rules.x"


# --- the answer echoes every reading in force, and signs it ----------------------------------


def test_answer_echoes_every_ruling_with_readings_defaults_included(
    client: FlaskClient,
) -> None:
    ruleset = _rulesets()["dreadnought"]
    data = call(client, f"{BASE}/critical", {**TURRET, "rules": EVERY, "dice": {"seed": "e"}})
    expected = {ruling.id: ruling.default for ruling in ruleset.optional}
    assert len(expected) >= 1
    assert data["rules"] == {**expected, **EVERY}


def test_every_step_of_every_ruleset_echoes_rules(client: FlaskClient, app: Flask) -> None:
    spec = client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    for path, item in spec["paths"].items():
        if not path.startswith("/v1/rulesets/") or "post" not in item:
            continue
        ruleset = path.split("/")[3]
        request = item["post"]["requestBody"]["content"]["application/json"]["schema"]
        answer = item["post"]["responses"]["200"]["content"]["application/json"]["schema"]
        for ref in (request, answer):
            if "$ref" not in ref:
                continue
            component = schemas[ref["$ref"].rsplit("/", 1)[1]]
            rules = component["properties"].get("rules")
            assert rules is not None, (path, ref)
            assert rules["$ref"].endswith(f"/{_camel(ruleset)}Rules"), (path, rules)


def _camel(text: str) -> str:
    return "".join(part.capitalize() for part in text.split("-"))


def test_the_readings_are_signed_with_the_answer(client: FlaskClient) -> None:
    first = {**TURRET, "rules": EVERY, "dice": {"seed": "g", "nonce": 1}}
    log = [call(client, f"{BASE}/critical", first)]
    second = {**first, "dice": {"seed": "g", "nonce": 2}, "prev": receipt_hash(log[0])}
    log.append(call(client, f"{BASE}/critical", second))
    assert [entry["rules"]["blow-up-who"] for entry in log] == ["every-british-battleship"] * 2
    report = call(client, "/v1/receipts/verify", log)  # type: ignore[arg-type]
    assert report["valid"] is True, report
    # One game, one set of readings: the next roll under the default is a changed reading.
    third = {**TURRET, "dice": {"seed": "g", "nonce": 3}, "prev": receipt_hash(log[1])}
    switched = [*log, call(client, f"{BASE}/critical", third)]
    assert switched[2]["rules"]["blow-up-who"] == "pre-dreadnought-only"
    report = call(client, "/v1/receipts/verify", switched)  # type: ignore[arg-type]
    assert report["valid"] is False and "readings-changed" in report["log"]["codes"]
    forged = copy.deepcopy(log)
    forged[0]["rules"]["blow-up-who"] = "pre-dreadnought-only"
    report = call(client, "/v1/receipts/verify", forged)  # type: ignore[arg-type]
    assert report["valid"] is False
    assert report["entries"][0]["signature_valid"] is False


# --- /odds follow the readings ---------------------------------------------------------------


def test_odds_follow_the_reading(client: FlaskClient) -> None:
    default = call(client, f"{BASE}/critical/odds", dict(TURRET))
    every = call(client, f"{BASE}/critical/odds", {**TURRET, "rules": EVERY})
    assert default["rules"]["blow-up-who"] == "pre-dreadnought-only"
    assert every["rules"]["blow-up-who"] == "every-british-battleship"
    chances = {o["result"]["effect"]: o["probability"] for o in every["outcomes"]}
    assert chances == {"turret destroyed": "5/6", "ship destroyed": "1/6"}
    chances = {o["result"]["effect"]: o["probability"] for o in default["outcomes"]}
    assert chances == {"turret destroyed": "1/1"}


# --- the ruleset lists readings; the document types them -------------------------------------


def test_ruleset_detail_lists_each_rulings_readings_with_the_default(client: FlaskClient) -> None:
    detail = client.get(BASE).get_json()
    rulings = {ruling["id"]: ruling for ruling in detail["rulings"]}
    who = rulings["blow-up-who"]
    assert [r["id"] for r in who["readings"]] == [
        "every-british-battleship",
        "pre-dreadnought-only",
    ]
    assert [r["default"] for r in who["readings"]] == [False, True]
    assert who["default_reading"] == "pre-dreadnought-only"
    assert [r["wording_supports"] for r in who["readings"]] == [False, True]
    assert "pre-dreadnought" in who["wording"]
    assert rulings["equal-dice"]["readings"] == []
    assert rulings["equal-dice"]["default_reading"] is None
    assert rulings["equal-dice"]["wording"] is None


def test_openapi_offers_the_readings_as_enums_per_ruleset(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    for ruleset in _rulesets().values():
        rules = schemas[f"{_camel(ruleset.id)}Rules"]
        assert rules["additionalProperties"] is False
        assert set(rules["properties"]) == {ruling.id for ruling in ruleset.optional}
        assert "required" not in rules
        for ruling in ruleset.optional:
            ref = rules["properties"][ruling.id]["$ref"].rsplit("/", 1)[1]
            assert schemas[ref]["enum"] == [reading.id for reading in ruling.readings]
    who = schemas["DreadnoughtRules"]["properties"]["blow-up-who"]["$ref"]
    assert who.endswith("/DreadnoughtBlowUpWhoReading")


# --- the engine's side --------------------------------------------------------------------


def test_a_resolution_reads_the_default_unless_chosen() -> None:
    assert Resolution(SuppliedDice([1])).reading("blow-up-who") == "pre-dreadnought-only"
    chosen = Resolution(SuppliedDice([1]), EVERY)
    assert chosen.reading("blow-up-who") == "every-british-battleship"
    with readings_in_force(EVERY):
        assert Resolution(SuppliedDice([1])).reading("blow-up-who") == "every-british-battleship"
    assert Resolution(SuppliedDice([1])).reading("blow-up-who") == "pre-dreadnought-only"
    with pytest.raises(KeyError, match="no ruling 'no-such-ruling' declares readings"):
        Resolution(SuppliedDice([1])).reading("no-such-ruling")


@pytest.mark.parametrize(
    "readings",
    [
        (Reading(id="a", text="A", default=True),),
        (Reading(id="a", text="A"), Reading(id="b", text="B")),
        (Reading(id="a", text="A", default=True), Reading(id="b", text="B", default=True)),
        (Reading(id="a", text="A", default=True), Reading(id="a", text="A again")),
    ],
)
def test_a_ruling_needs_two_readings_and_exactly_one_default(
    readings: tuple[Reading, ...],
) -> None:
    with pytest.raises(ValueError, match="exactly one default"):
        Ruling(id="test-ruling", question="q", ruling="r", reason="why", readings=readings)


def test_every_served_ruling_with_readings_has_exactly_one_default() -> None:
    for ruleset in _rulesets().values():
        for ruling in ruleset.optional:
            assert sum(reading.default for reading in ruling.readings) == 1, ruling.id
