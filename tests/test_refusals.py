"""Every refusal is cheap and small, whatever a 64 KiB body holds.

Read off the served document: every list a request may carry has a ``maxItems``, and a
flood of bad items in any of them, of any kind, is refused in one error; every string
member of every operation refuses an unpaired surrogate with a 400 naming it, for JSON and
picture answers alike; a problem lists at most a few errors and says how many there were.
The CPU these refusals cost is measured, not asserted here: ``bench/worst_case.py``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.http.fast import jsonbody
from service.http.fast.jsonbody import BYTES_PER_OBJECT, MAX_BODY_OBJECTS, MAX_OBJECT_MEMBERS
from service.http.fast.problems import MAX_FIELD_ERRORS

BODY_LIMIT = 64 * 1024
# What a refusal may weigh on the wire, whatever the body: a problem of at most
# MAX_FIELD_ERRORS short errors.
REFUSAL_BYTES = 4 * 1024
# The signed answers a verify body carries are read and reported, never refused by
# schema (the endpoint exists to report on altered answers): not walked as a request.
REPORTED_NOT_REFUSED = "#/components/schemas/SignedAnswer"

# A path into a request body: member names, "0" for a list's first item, and "|" where a
# oneOf variant starts, with the members that variant requires ("|checkpoint,entries"):
# the object there is made afresh for that variant, its required members present.
Path = tuple[str, ...]
VARIANT = "|"


@pytest.fixture(scope="module")
def refusals_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    data = tmp_path_factory.mktemp("refusals-data")
    return create_app({"TESTING": True, "FIRECONTROL_DATA_DIR": str(data)})


@pytest.fixture(scope="module")
def document(refusals_app: Flask) -> dict[str, Any]:
    found: dict[str, Any] = refusals_app.test_client().get("/openapi.json").get_json()
    return found


def _resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = document["components"]["schemas"][name]
    return node


def _members(
    document: dict[str, Any],
    node: dict[str, Any],
    path: Path = (),
    seen: frozenset[str] = frozenset(),
) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every schema node of a request body with its path, following references (each
    once on a branch), variants and list items."""
    ref = node.get("$ref")
    if ref == REPORTED_NOT_REFUSED or ref in seen:
        return
    if ref:
        seen = seen | {ref}
    node = _resolve(document, node)
    yield path, node
    for variant in (*node.get("oneOf", ()), *node.get("anyOf", ())):
        required = ",".join(_resolve(document, variant).get("required", ()))
        yield from _members(document, variant, (*path, VARIANT + required), seen)
    for name, inner in node.get("properties", {}).items():
        yield from _members(document, inner, (*path, name), seen)
    if "items" in node:
        yield from _members(document, node["items"], (*path, "0"), seen)


def _is(node: dict[str, Any], kind: str) -> bool:
    kinds = node.get("type")
    return kind == kinds or (isinstance(kinds, list) and kind in kinds)


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """Each operation that takes a body: its concrete path, body schema and example."""
    for template, item in document["paths"].items():
        for method, operation in item.items():
            if method != "post" or "requestBody" not in operation:
                continue
            content = operation["requestBody"]["content"]["application/json"]
            path = template.replace("{ruleset}", "salvo-solo")
            yield path, content["schema"], content.get("example", {})


def _placed(example: Any, path: Path, value: Any) -> Any:
    """The example with ``value`` at ``path``, making the members on the way."""
    root = [copy.deepcopy(example)]
    holder: Any = root
    key: Any = 0
    for step in path:
        if step.startswith(VARIANT):  # a variant of its own: the object there made afresh
            holder[key] = {name: {} for name in step[1:].split(",") if name}
            continue
        here = holder[key]
        if step == "0":
            if not isinstance(here, list):
                holder[key] = here = []
            if not here:
                here.append({})
            holder, key = here, 0
        else:
            if not isinstance(here, dict):
                holder[key] = here = {}
            here.setdefault(step, {})
            holder, key = here, step
    holder[key] = value
    return root[0]


def _flood(item: Any) -> list[Any]:
    """As many copies of ``item`` as a body under the limit holds."""
    size = len(json.dumps(item, separators=(",", ":"))) + 1
    return [item] * ((BODY_LIMIT - 4096) // size)


FLOOD_ITEMS = {"empty-objects": {}, "numbers": 0, "nulls": None, "long-strings": "x" * 400}


def _lists(document: dict[str, Any]) -> list[tuple[str, Path, Any, dict[str, Any]]]:
    found = []
    for path, schema, example in _operations(document):
        for where, node in _members(document, schema):
            if _is(node, "array"):
                found.append((path, where, example, node))
    return found


def test_every_list_a_request_takes_has_a_max_items(document: dict[str, Any]) -> None:
    lists = _lists(document)
    assert len(lists) > 20  # the walk reaches the lists of every ruleset
    unbounded = [
        (path, ".".join(where)) for path, where, _, node in lists if "maxItems" not in node
    ]
    assert unbounded == []


def test_a_flood_of_bad_items_in_any_list_is_one_small_refusal(
    refusals_app: Flask, document: dict[str, Any]
) -> None:
    client = refusals_app.test_client()
    checked = 0
    for path, where, example, node in _lists(document):
        for kind, item in FLOOD_ITEMS.items():
            flood = _flood(item)
            text = json.dumps(_placed(example, where, flood), separators=(",", ":"))
            assert len(text) <= BODY_LIMIT
            answer = client.post(path, data=text, content_type="application/json")
            case = (path, ".".join(where), kind, answer.get_data(as_text=True)[:300])
            assert answer.status_code in (400, 422), case
            assert answer.mimetype == "application/problem+json", case
            assert len(answer.get_data()) <= REFUSAL_BYTES, case
            problem = answer.get_json()
            assert len(problem["errors"]) <= MAX_FIELD_ERRORS, case
            if len(flood) > node["maxItems"]:
                # Refused for its length before any item is read: one error, not thousands.
                named = ".".join(step for step in where if not step.startswith(VARIANT))
                fields = [error["field"] for error in problem["errors"]]
                assert not any(f.startswith(f"{named}.") for f in fields), case
            checked += 1
    assert checked > 80


def _strings(document: dict[str, Any]) -> list[tuple[str, Path, Any]]:
    found = []
    for path, schema, example in _operations(document):
        for where, node in _members(document, schema):
            if _is(node, "string"):
                found.append((path, where, example))
    return found


@pytest.mark.parametrize("accept", ["application/json", "image/svg+xml"])
def test_every_string_member_refuses_a_lone_surrogate_where_it_is(
    refusals_app: Flask, document: dict[str, Any], accept: str
) -> None:
    client = refusals_app.test_client()
    strings = _strings(document)
    assert len(strings) > 50
    for path, where, example in strings:
        text = json.dumps(_placed(example, where, "bad \ud800 text"))  # escaped as \ud800
        assert "\\ud800" in text
        answer = client.post(
            path, data=text, headers={"Accept": accept}, content_type="application/json"
        )
        named = ".".join(step for step in where if not step.startswith(VARIANT))
        case = (path, named, answer.get_data(as_text=True)[:300])
        assert answer.status_code == 400, case
        assert answer.mimetype == "application/problem+json", case
        assert answer.get_json()["errors"][0]["field"] == named, case


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"\\ud800": 1}', "\ufffd"),  # a name: echoed with U+FFFD in its place
        ('{"notation": "1d6", "dice": {"values": [1, "\\udfff"]}}', "dice.values.1"),
        ('["ok", "\\ud800"]', "1"),
        ('"\\udc00"', "(body)"),
    ],
)
def test_a_lone_surrogate_anywhere_is_named(client: FlaskClient, text: str, field: str) -> None:
    answer = client.post("/v1/dice/roll", data=text, content_type="application/json")
    assert answer.status_code == 400
    assert answer.get_json()["type"] == "/problems#malformed-request"
    assert answer.get_json()["errors"][0]["field"] == field


@pytest.mark.parametrize("depth", [200, 900])
def test_a_lone_surrogate_or_a_repeated_name_nested_deep_is_named(
    client: FlaskClient, depth: int
) -> None:
    """As deep as the decoder reads, the member is found (without recursing)."""
    for text, field in (
        ("[" * depth + '"\\ud800"' + "]" * depth, ".".join(["0"] * depth)),
        ('{"a":' * depth + '{"b": 1, "b": 2}' + "}" * depth, ".".join(["a"] * depth + ["b"])),
    ):
        answer = client.post("/v1/dice/roll", data=text, content_type="application/json")
        assert answer.status_code == 400
        assert answer.get_json()["errors"][0]["field"] == field


def test_a_surrogate_pair_is_one_character_and_welcome(client: FlaskClient) -> None:
    text = '{"notation": "1d6", "dice": {"seed": "\\ud83d\\ude00", "nonce": 1}}'
    answer = client.post("/v1/dice/roll", data=text, content_type="application/json")
    assert answer.status_code == 200
    assert answer.get_json()["dice"]["seed"] == "\U0001f600"


def test_an_object_of_thousands_of_names_is_refused_as_a_limit(client: FlaskClient) -> None:
    body = {"notation": "1d6", "dice": {f"x{i}": 0 for i in range(5000)}}
    answer = client.post("/v1/dice/roll", json=body)
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["type"] == "/problems#limit"
    assert problem["errors"] == [
        {
            "field": "dice",
            "message": f"an object has at most {MAX_OBJECT_MEMBERS} members, not 5000",
        }
    ]


def test_a_body_of_thousands_of_objects_is_refused_before_it_is_read(
    client: FlaskClient,
) -> None:
    most = BODY_LIMIT // BYTES_PER_OBJECT
    body: dict[str, Any] = {
        "view": {},
        "counts": [{}] * most,
    }  # the view's object and the body's: 2 more
    problem = client.post("/v1/rulesets/salvo-grid/heatmap", json=body).get_json()
    assert problem["type"] == "/problems#limit"
    assert problem["errors"] == [
        {
            "field": "(body)",
            "message": f"a request body opens at most {most} objects (one for each "
            f"{BYTES_PER_OBJECT} bytes of its size limit, {MAX_BODY_OBJECTS} at most), "
            f"not {most + 2}",
        }
    ]
    body["counts"] = [{}] * (most - 2)  # read, and refused for the list's length
    problem = client.post("/v1/rulesets/salvo-grid/heatmap", json=body).get_json()
    assert problem["type"] == "/problems#validation"
    assert problem["errors"][0]["field"] == "counts"


def test_an_object_at_the_member_limit_is_read(client: FlaskClient) -> None:
    body = {"notation": "1d6", **{f"x{i}": 0 for i in range(MAX_OBJECT_MEMBERS - 1)}}
    problem = client.post("/v1/dice/roll", json=body).get_json()
    assert problem["type"] == "/problems#validation"  # read, and its unknown names refused
    assert len(problem["errors"]) == MAX_FIELD_ERRORS
    assert (
        f"({MAX_OBJECT_MEMBERS - 1} in all, `errors` lists {MAX_FIELD_ERRORS})" in problem["detail"]
    )


def test_a_problem_quotes_three_errors_and_counts_the_rest(client: FlaskClient) -> None:
    body = {"view": {"misses": ["Z1"] * 30}, "dice": {"seed": "s", "nonce": 1}}
    problem = client.post("/v1/rulesets/salvo-grid/heatmap", json=body).get_json()
    assert len(problem["errors"]) == MAX_FIELD_ERRORS
    assert problem["errors"][0]["field"] == "view.misses.0"
    assert problem["detail"].count("view.misses.") == 3
    assert problem["detail"].endswith("; and 27 more (30 in all, `errors` lists 20)")


def test_a_problem_of_three_errors_quotes_them_all(client: FlaskClient) -> None:
    body = {"view": {"misses": ["Z1", "Z2", "Z3"]}}
    problem = client.post("/v1/rulesets/salvo-grid/heatmap", json=body).get_json()
    assert [e["field"] for e in problem["errors"]] == [f"view.misses.{i}" for i in range(3)]
    assert "more" not in problem["detail"] and problem["detail"].count("view.misses.") == 3


@pytest.mark.parametrize(("extra", "counted"), [(-1, False), (0, True)])
def test_a_body_is_counted_and_charged_from_a_few_kib(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, extra: int, counted: bool
) -> None:
    """A body shorter than UNCOUNTED_BYTES (and than twice the objects it may open) is read
    without counting its values: most step requests are, and skip the work of counting;
    from that length on, its reading is charged to the request's budget."""
    charged: list[int] = []
    monkeypatch.setattr(jsonbody, "_charge_reading", charged.append)
    pad = jsonbody.UNCOUNTED_BYTES + extra - len(json.dumps({"p": ""}).encode())
    body = json.dumps({"p": "x" * pad}).encode()
    assert len(body) == jsonbody.UNCOUNTED_BYTES + extra
    client.post("/v1/dice/roll", data=body, content_type="application/json")
    assert bool(charged) == counted
