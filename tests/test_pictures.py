"""Pictures: the heat map and every /odds as SVG, showing the same numbers as the JSON."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET

import pytest
from flask import Flask
from flask.testing import FlaskClient

SVG = "image/svg+xml"
NS = "{http://www.w3.org/2000/svg}"
HEATMAP = "/v1/rulesets/salvo-grid/heatmap"
HEAT_BODY = {
    "view": {"misses": ["C5", "A1"], "hits": ["E5"]},
    "dice": {"seed": "picture", "nonce": 1},
}


def odds_requests(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    document = app.test_client().get("/openapi.json").get_json()
    found = []
    for path, operations in document["paths"].items():
        if path.endswith("/odds"):
            body = operations["post"]["requestBody"]["content"]["application/json"]["example"]
            found.append((path, body))
    return found


def parse(response: Any) -> ET.Element:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == SVG
    return ET.fromstring(response.get_data(as_text=True))


def test_the_heat_map_picture_shows_the_json_numbers(client: FlaskClient) -> None:
    json_answer = client.post(HEATMAP, json=HEAT_BODY).get_json()
    picture = parse(client.post(HEATMAP, json=HEAT_BODY, headers={"Accept": SVG}))
    assert picture.tag == f"{NS}svg"
    cells = {
        rect.get("data-square"): float(rect.get("data-p", "nan"))
        for rect in picture.iter(f"{NS}rect")
        if rect.get("data-square")
    }
    rows = json_answer["result"]["rows"]
    assert len(cells) == 100
    for r, row in enumerate(rows):
        for c, p in enumerate(row):
            assert cells[f"{'ABCDEFGHIJ'[c]}{r + 1}"] == p
    texts = [t.text for t in picture.iter(f"{NS}text")]
    assert "100%" in texts  # E5, the hit
    assert str(json_answer["result"]["sampler"]["seed"]) in picture.findtext(f"{NS}title", "")


def test_the_heat_map_picture_is_not_signed_and_varies_by_accept(client: FlaskClient) -> None:
    response = client.post(HEATMAP, json=HEAT_BODY, headers={"Accept": SVG})
    assert b"receipt" not in response.get_data()
    assert "Accept" in response.headers["Vary"]


@pytest.fixture(scope="module")
def every_odds(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    found = odds_requests(app)
    assert len(found) >= 8
    return found


def test_every_odds_picture_shows_the_json_numbers(
    client: FlaskClient, every_odds: list[tuple[str, dict[str, Any]]]
) -> None:
    for path, body in every_odds:
        outcomes = client.post(path, json=body).get_json()["outcomes"]
        picture = parse(client.post(path, json=body, headers={"Accept": SVG}))
        bars = [g for g in picture.iter(f"{NS}g") if g.get("data-outcome") is not None]
        assert len(bars) == len(outcomes), path
        for bar, outcome in zip(bars, outcomes, strict=True):
            assert bar.get("data-probability") == outcome["probability"], path
            assert float(bar.get("data-p", "nan")) == outcome["p"], path
            shown = " ".join(t.text or "" for t in bar.iter(f"{NS}text"))
            assert outcome["probability"] in shown, path
            rect = bar.find(f"{NS}rect")
            assert rect is not None, path
            width = float(rect.get("width", "nan"))
            assert width == pytest.approx(max(1.0, 240 * outcome["p"]), abs=0.01)


@pytest.mark.parametrize(
    ("accept", "wanted"),
    [
        (None, "application/json"),
        ("*/*", "application/json"),
        ("application/json", "application/json"),
        ("image/svg+xml", SVG),
        ("image/*", SVG),
        ("text/html, image/svg+xml;q=0.5", SVG),
        ("image/svg+xml;q=0.4, application/json;q=0.9", "application/json"),
    ],
)
def test_accept_picks_the_media_type(
    client: FlaskClient,
    every_odds: list[tuple[str, dict[str, Any]]],
    accept: str | None,
    wanted: str,
) -> None:
    headers = {"Accept": accept} if accept else {}
    path, body = every_odds[0]
    for target, sent in ((path, body), (HEATMAP, HEAT_BODY)):
        response = client.post(target, json=sent, headers=headers)
        assert response.status_code == 200
        assert response.mimetype == wanted


def test_an_accept_with_nothing_it_can_give_is_a_406_problem(
    client: FlaskClient, every_odds: list[tuple[str, dict[str, Any]]]
) -> None:
    path, body = every_odds[0]
    for target, sent in ((path, body), (HEATMAP, HEAT_BODY)):
        response = client.post(target, json=sent, headers={"Accept": "text/html, image/png"})
        assert response.status_code == 406
        assert response.mimetype == "application/problem+json"
        assert "image/svg+xml" in response.get_json()["detail"]


def test_a_refused_request_is_a_problem_whatever_the_accept(client: FlaskClient) -> None:
    body = {"view": {"hits": ["A1"], "misses": ["A2", "B1"]}}
    response = client.post(HEATMAP, json=body, headers={"Accept": SVG})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"


def test_the_document_lists_the_picture_as_a_second_media_type(app: Flask) -> None:
    document = app.test_client().get("/openapi.json").get_json()
    paths = [p for p in document["paths"] if p.endswith("/odds")] + [HEATMAP]
    for path in paths:
        responses = document["paths"][path]["post"]["responses"]
        assert set(responses["200"]["content"]) == {"application/json", SVG}, path
        assert "406" in responses, path


def test_an_outcomes_label_writes_its_values_as_the_json_answer_does(
    client: FlaskClient,
) -> None:
    body = {
        "firer": {"ship": "Ajax"},
        "target": {"ship": "Graf Spee"},
        "range": "Medium",
        "weather": "Fair",
        "guns_bearing": "broadside",
    }
    path = "/v1/rulesets/salvo-solo/attack/odds"
    root = parse(client.post(path, json=body, headers={"Accept": "image/svg+xml"}))
    first = next(
        g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-outcome") == "0"
    )
    label = first.findtext("{http://www.w3.org/2000/svg}title") or ""
    assert "sunk false" in label and "False" not in label and "True" not in label


def test_the_json_answers_that_have_a_picture_vary_by_accept_too(client: FlaskClient) -> None:
    # A cache between must never hand the JSON to a client that asked for the picture.
    heat = client.post(HEATMAP, json=HEAT_BODY)
    assert heat.mimetype == "application/json" and "Accept" in heat.headers.get("Vary", "")
    odds_body = {
        "firer": {"ship": "Hood"},
        "target": {"ship": "Graf Spee"},
        "range": "Short",
        "guns_bearing": "broadside",
    }
    odds = client.post("/v1/rulesets/salvo-solo/straddle/odds", json=odds_body)
    assert odds.status_code == 200, odds.get_json()
    assert "Accept" in odds.headers.get("Vary", "")
