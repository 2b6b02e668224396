"""Every operation has a worst case at its limits (bench/worst_case.py measures them), and
each is answered as tests/worst_cases.py says: 200 at the limit, refused just past it.

No timing here: the figures are in docs/performance.md.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.engine.notation import Notation, Term
from tests.worst_cases import (
    NOTATION_FORMS,
    NOTATION_ODDS_CASES,
    PLAIN,
    UNDOCUMENTED,
    WORST_CASES,
    Case,
    signed_log,
    tiny_values_log,
)


def _operations(app: Flask) -> set[tuple[str, str]]:
    document = app.test_client().get("/openapi.json").get_json()
    return {
        (method, path)
        for path, item in document["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }


def test_every_documented_operation_has_a_worst_case(app: Flask) -> None:
    covered = {case.operation for case in WORST_CASES}
    missing = sorted(_operations(app) - covered)
    assert missing == [], f"add a worst case to tests/worst_cases.py for: {missing}"


def test_every_worst_case_names_an_operation_that_exists(app: Flask) -> None:
    documented = _operations(app) | {case.operation for case in UNDOCUMENTED}
    assert sorted({case.operation for case in WORST_CASES} - documented) == []


def _send(client: FlaskClient, case: Case, body: Any) -> Any:
    if case.method == "GET":
        return client.get(case.path)
    return client.post(case.path, json=body)


def _post(client: FlaskClient) -> Any:
    def post(path: str, body: Any) -> Any:
        response = client.post(path, json=body)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    return post


@pytest.mark.parametrize(
    "case", [PLAIN, *WORST_CASES], ids=lambda c: f"{c.method} {c.path} ({c.limit})"
)
def test_the_worst_case_is_answered(client: FlaskClient, case: Case) -> None:
    body = case.body(_post(client)) if callable(case.body) else case.body
    response = _send(client, case, body)
    assert response.status_code == case.status, response.get_data(as_text=True)[:500]


@pytest.mark.parametrize(
    "case",
    [case for case in WORST_CASES if case.past is not None],
    ids=lambda c: f"{c.method} {c.path} ({c.limit})",
)
def test_just_past_the_limit_is_refused_naming_it(client: FlaskClient, case: Case) -> None:
    response = client.post(case.path, json=case.past)
    assert response.status_code == case.past_status, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["detail"]


def test_the_heaviest_odds_trees_answer_whole(client: FlaskClient) -> None:
    # These trees are past the odds branch cap when walked face by face (every
    # dreadnought fire tree was, so fire/odds answered 422 for every input); worked out from
    # the multisets of the dice they answer, and their chances add up to 1 exactly.
    from tests.worst_cases import FIRE_ODDS, FIRE_ODDS_EXAMPLE, TORPEDO_ODDS

    for step, body in (("fire", FIRE_ODDS), ("fire", FIRE_ODDS_EXAMPLE), ("torpedo", TORPEDO_ODDS)):
        answer = client.post(f"/v1/rulesets/dreadnought/{step}/odds", json=body)
        assert answer.status_code == 200, answer.get_json()
        outcomes = answer.get_json()["outcomes"]
        assert sum(Fraction(o["probability"]) for o in outcomes) == 1
        assert any(o["result"]["critical"] for o in outcomes)


def test_the_verify_worst_case_is_a_chained_log_at_the_checkers_limits(
    client: FlaskClient,
) -> None:
    log = signed_log(_post(client))
    assert isinstance(log, list)
    assert len(log) == 100 and sum(len(e["rolls"][0]["values"]) for e in log) == 10_000
    assert len(json.dumps(log)) <= 1024 * 1024
    for before, after in zip(log, log[1:], strict=False):
        assert (
            after["provenance"]["request"]["body"]["prev"]
            == hashlib.sha256(before["receipt"].encode()).hexdigest()
        )
    report = client.post("/v1/receipts/verify", json=log).get_json()
    assert report["valid"] is True, report


def test_the_verify_worst_case_of_tiny_values_fills_the_body_limit(client: FlaskClient) -> None:
    log = tiny_values_log(_post(client))
    body = json.dumps(log).encode()
    assert 1000 * 1024 < len(body) <= 1024 * 1024
    answer = client.post("/v1/receipts/verify", data=body, content_type="application/json")
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["type"].endswith("#limit"), problem
    assert "more work than one request may do" in problem["detail"]
    assert "in parts" in problem["detail"] and "checkpoint" in problem["detail"]


def test_every_modifier_of_the_notation_has_a_form_at_the_budgets_edge() -> None:
    """The notation's forms cover the grammar: every field a Term may set (each modifier,
    d%, dF) is set by some form, so a new modifier fails here until it has one."""
    defaults = Term(count=1, sides=6)
    optional = {f.name for f in dataclasses.fields(Term)} - {"count", "sides", "sign"}
    covered = {
        name
        for form in NOTATION_FORMS
        for term in Notation.parse(form(2)).terms
        for name in optional
        if getattr(term, name) != getattr(defaults, name)
    }
    assert optional - covered == set()
    assert any(t.sign < 0 for form in NOTATION_FORMS for t in Notation.parse(form(2)).terms)


def _notation(case: Case) -> str:
    assert isinstance(case.body, dict)
    return str(case.body["notation"])


def test_each_notation_form_is_answered_at_its_edge_and_refused_past_it() -> None:
    """Every form either has an answered case with the next die refused, or is refused
    with one die; none is left out."""
    answered = {_notation(case) for case in NOTATION_ODDS_CASES if case.status == 200}
    refused = {_notation(case) for case in NOTATION_ODDS_CASES if case.status == 422}
    for form in NOTATION_FORMS:
        assert any(form(n) in answered for n in range(1, 101)) or form(1) in refused
