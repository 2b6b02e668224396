"""`Preference-Applied: return=minimal` is said exactly when the answer pinned the request
by its digest, on every signed operation the document lists (those naming `Prefer`)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from service.http.signing.receipts import MINIMAL, PREFERENCES

PREFER = {"$ref": "#/components/parameters/Prefer"}


def signed_operations(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    """Each operation that names the Prefer parameter, with its documented example body."""
    document = app.test_client().get("/openapi.json").get_json()
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):  # the path's own parameters
                continue
            if PREFER in operation.get("parameters", ()):
                assert method == "post", path
                content = operation["requestBody"]["content"]["application/json"]
                found.append((path, content["example"]))
    return found


@pytest.fixture(scope="module")
def operations(every_app: Flask) -> list[tuple[str, dict[str, Any]]]:
    return signed_operations(every_app)


def test_the_document_lists_the_signed_operations_and_the_preferences_read(
    every_app: Flask, operations: list[tuple[str, dict[str, Any]]]
) -> None:
    assert len(operations) >= 38
    paths = {path for path, _ in operations}
    assert {"/v1/dice/roll", "/v1/seeds", "/v1/games"} <= paths
    document = every_app.test_client().get("/openapi.json").get_json()
    prefer = document["components"]["parameters"]["Prefer"]
    named, other = prefer["schema"]["anyOf"]  # the preferences read, or any other, ignored
    assert named["$ref"] == "#/components/schemas/Preference" and other == {"type": "string"}
    preference = document["components"]["schemas"]["Preference"]
    assert preference["enum"] == list(PREFERENCES) == [MINIMAL, "return=representation"]


def test_a_preference_the_service_does_not_read_is_ignored(every_app: Flask) -> None:
    """RFC 7240: a preference the server does not read is ignored, never refused."""
    client = every_app.test_client()
    for prefer in ("respond-async", "wait=10", "handling=lenient"):
        answer = client.post(
            "/v1/dice/roll",
            json={"notation": "2d6", "dice": {"values": [3, 4]}},
            headers={"Prefer": prefer},
        )
        assert answer.status_code == 200, prefer
        assert "Preference-Applied" not in answer.headers


def test_the_header_is_said_exactly_when_the_body_was_pinned_by_its_digest(
    every_app: Flask, operations: list[tuple[str, dict[str, Any]]]
) -> None:
    client = every_app.test_client()
    pinned: list[str] = []
    whole: list[str] = []
    for path, body in operations:
        answer = client.post(path, json=body, headers={"Prefer": MINIMAL})
        assert answer.status_code == 200, (path, answer.get_json())
        request = answer.get_json()["provenance"]["request"]
        minimal = "rest_sha256" in request
        assert minimal == ("body" not in request), path
        assert ("Preference-Applied" in answer.headers) == minimal, path
        if minimal:
            assert answer.headers["Preference-Applied"] == MINIMAL
        (pinned if minimal else whole).append(path)
    # Both kinds are met, so the test holds the header to each.
    assert pinned and whole, (pinned, whole)


@pytest.mark.parametrize("prefer", [None, "return=representation"])
def test_without_return_minimal_no_operation_says_a_preference_was_applied(
    every_app: Flask, operations: list[tuple[str, dict[str, Any]]], prefer: str | None
) -> None:
    client = every_app.test_client()
    headers = {} if prefer is None else {"Prefer": prefer}
    for path, body in operations:
        answer = client.post(path, json=body, headers=headers)
        assert answer.status_code == 200, path
        assert answer.get_json()["provenance"]["request"]["body"] == body, path
        assert "Preference-Applied" not in answer.headers, path
