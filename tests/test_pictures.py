"""Pictures: the heat map and every /odds as SVG, showing the same numbers as the JSON."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, TypedDict
from xml.etree import ElementTree as ET

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.engine.typed import Headline, Hits, Landed
from service.http.endpoints import dice_api
from service.http.pictures import how_sure, odds, percent, reading
from service.rulesets.api import registered

SVG = "image/svg+xml"
NS = "{http://www.w3.org/2000/svg}"
HEATMAP = "/v1/rulesets/salvo-grid/heatmap"
HEAT_BODY = {
    "view": {"misses": ["C5", "A1"], "hits": ["E5"]},
    "dice": {"seed": "picture", "nonce": 1},
}


def odds_paths() -> set[str]:
    """Every step's /odds (a whole turn's odds, a step of its own at turn/odds, is not one)."""
    return {
        f"/v1/rulesets/{api.ruleset.id}/{step.route}/odds"
        for api in registered()
        for step in api.ruleset.steps
        if step.odds
    }


def odds_requests(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    document = app.test_client().get("/openapi.json").get_json()
    found = []
    for path, operations in document["paths"].items():
        if path in odds_paths():
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


def _squares(picture: ET.Element) -> dict[str, ET.Element]:
    return {
        rect.get("data-square", ""): rect
        for rect in picture.iter(f"{NS}rect")
        if rect.get("data-square")
    }


def test_the_heat_map_marks_what_was_told_apart_from_what_it_infers(
    client: FlaskClient,
) -> None:
    body = {
        "view": {
            "misses": ["C5", "A1"],
            "hits": ["E5"],
            "contacts": ["G2"],
            "sunk": [{"ship": "destroyer", "squares": ["J9", "J10"]}],
        },
        "dice": {"seed": "picture", "nonce": 1},
    }
    picture = parse(client.post(HEATMAP, json=body, headers={"Accept": SVG}))
    squares = _squares(picture)
    states = {square: rect.get("data-state") for square, rect in squares.items()}
    told = {"A1": "miss", "C5": "miss", "E5": "hit", "G2": "contact", "J9": "sunk", "J10": "sunk"}
    assert {sq: st for sq, st in states.items() if st != "open"} == told
    # A told square has its mark and no percentage; every other square says its chance.
    percentages = [t.text for t in picture.iter(f"{NS}text") if (t.text or "").endswith("%")]
    assert len([p for p in percentages if p]) == 100 - len(told) + 5  # the legend's 5 shades
    assert len({squares[sq].get("fill") for sq in told}) == 4  # one look for each kind
    for square, state in told.items():
        assert state.split()[0] in (squares[square].findtext(f"{NS}title") or "").lower()
    legend = next(g for g in picture.iter(f"{NS}g") if g.get("data-legend") is not None)
    words = " ".join(t.text or "" for t in legend.iter(f"{NS}text"))
    for label in ("Miss", "Hit", "Sunk ship", "Contact", "0%", "100%"):
        assert label in words


def test_the_heat_map_says_in_words_how_sure_it_is(client: FlaskClient) -> None:
    json_answer = client.post(HEATMAP, json=HEAT_BODY).get_json()["result"]
    picture = parse(client.post(HEATMAP, json=HEAT_BODY, headers={"Accept": SVG}))
    shown = " ".join(t.text or "" for t in picture.iter(f"{NS}text"))
    assert json_answer["method"] == "sampled"
    samples = json_answer["sampler"]["samples"]
    assert f"Estimated from {samples:,} sampled layouts" in shown
    assert "sweeps" not in shown and "seed" not in shown  # the sampler's own words stay out
    assert str(json_answer["sampler"]["seed"]) in picture.findtext(f"{NS}desc", "")
    assert picture.get("data-method") == "sampled"


@pytest.mark.parametrize(
    ("result", "said"),
    [
        ({"method": "exact", "placements": 1234, "sampler": None}, "Exact: counted over all 1,234"),
        (
            {"method": "sampled", "placements": None, "sampler": {"samples": 47, "seed": 1}},
            "Estimated from 47 sampled layouts",
        ),
        ({"method": "bounded", "placements": None}, "Worked out by the bounded method."),
        ({"method": "exact"}, "Worked out by the exact method."),  # a member it needs is gone
    ],
)
def test_how_sure_has_a_sentence_for_each_method_and_one_for_a_new_one(
    result: dict[str, Any], said: str
) -> None:
    assert how_sure(result).startswith(said)


def test_the_heat_map_picture_is_not_signed_and_varies_by_accept(client: FlaskClient) -> None:
    response = client.post(HEATMAP, json=HEAT_BODY, headers={"Accept": SVG})
    assert b"receipt" not in response.get_data()
    assert "Accept" in response.headers["Vary"]


@pytest.fixture(scope="module")
def every_odds(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    found = odds_requests(app)
    assert len(found) >= 8
    return found


def _bars(picture: ET.Element, attribute: str) -> list[ET.Element]:
    return [g for g in picture.iter(f"{NS}g") if g.get(attribute) is not None]


def _label(bar: ET.Element) -> str:
    """A bar's words as shown (its lines joined), without the percentage at its right."""
    texts = [t for t in bar.iter(f"{NS}text") if t.get("text-anchor") != "end"]
    return " ".join(t.text or "" for t in texts)


def _titled(bar: ET.Element) -> tuple[str, str]:
    """A bar's or a column's words and chance as its title gives them ("Total 0: 3.7% (...)"),
    as a player hovering over it reads them."""
    title = bar.findtext(f"{NS}title") or ""
    label, _, rest = title.rpartition(": ")
    return label, rest.split(" (")[0]


def test_every_odds_picture_shows_the_json_numbers_in_words(
    client: FlaskClient, every_odds: list[tuple[str, dict[str, Any]]]
) -> None:
    for path, body in every_odds:
        answered = client.post(path, json=body).get_json()
        if "outcomes" not in answered:
            continue  # a composite step's odds run: its ruleset's tests read its picture
        outcomes = answered["outcomes"]
        picture = parse(client.post(path, json=body, headers={"Accept": SVG}))
        bars = _bars(picture, "data-outcome")
        told = [int(i) for bar in bars for i in (bar.get("data-outcome") or "").split()]
        assert sorted(told) == list(range(len(outcomes))), path  # each outcome in one bar
        for bar in bars:
            indices = [int(i) for i in (bar.get("data-outcome") or "").split()]
            chance = sum((Fraction(outcomes[i]["probability"]) for i in indices), Fraction(0))
            assert bar.get("data-probability") == str(chance), path
            label, shown = _titled(bar)
            assert shown == percent(chance), path
            assert label and not label[0].islower(), (path, label)
            assert "_" not in label and " ," not in label and "{" not in label, (path, label)
            assert "other outcomes" not in label, (path, label)  # none lumped together
        labels = [_titled(bar)[0] for bar in bars]
        assert len(set(labels)) == len(labels), path  # outcomes that read alike share a bar


def odds_operations(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    """Every operation the document lists whose path ends in /odds, with its example."""
    document = app.test_client().get("/openapi.json").get_json()
    return [
        (path, operations["post"]["requestBody"]["content"]["application/json"]["example"])
        for path, operations in document["paths"].items()
        if path.endswith("/odds")
    ]


def test_every_odds_the_document_lists_answers_a_picture(app: Flask, client: FlaskClient) -> None:
    """Read from the document, so no /odds added later (a whole turn's odds at turn/odds, a
    new ruleset's) can answer JSON to a client that asked for the picture."""
    document = app.test_client().get("/openapi.json").get_json()
    found = odds_operations(app)
    assert len(found) >= 20
    for path, body in found:
        responses = document["paths"][path]["post"]["responses"]
        assert SVG in responses["200"]["content"], path
        picture = parse(client.post(path, json=body, headers={"Accept": SVG}))
        assert picture.findtext(f"{NS}title"), path


def test_a_dice_total_of_nothing_is_labelled_a_total(client: FlaskClient) -> None:
    """3d20-30 can total 0, -27 or 30: each is a column of the histogram, labelled as the
    total it is (a total of 0 is no "No effect"), in order from the least to the most."""
    body = {"notation": "3d20-30"}
    outcomes = client.post("/v1/dice/odds", json=body).get_json()["outcomes"]
    picture = parse(client.post("/v1/dice/odds", json=body, headers={"Accept": SVG}))
    columns = _bars(picture, "data-outcome")
    assert len(columns) == len(outcomes) == 58  # every total drawn: none lumped
    labels = [_titled(column)[0] for column in columns]
    assert labels == [f"Total {total}" for total in range(-27, 31)]
    by_total = {o["result"]["total"]: o["probability"] for o in outcomes}
    assert [column.get("data-probability") for column in columns] == [
        by_total[total] for total in range(-27, 31)
    ]
    shown = " ".join(t.text or "" for t in picture.iter(f"{NS}text"))
    assert "No effect" not in shown and "other outcomes" not in shown
    assert {"-27", "0", "30", "Total"} <= set(shown.split())  # the axis says what it counts


@pytest.mark.parametrize(
    ("path", "body"),
    [
        (
            "/v1/rulesets/salvo-solo/attack/odds",
            {"firer": {"ship": "Ajax"}, "target": {"ship": "Graf Spee"}, "range": "Medium",
             "weather": "Fair", "guns_bearing": "broadside"},
        ),
        (
            "/v1/rulesets/fleet-action/fire/odds",
            {"firer": {"class": "Battleship", "crew": "Veteran"},
             "target": {"class": "Destroyer", "crew": "Seasoned", "name": "Destroyer 1"},
             "range": 40, "line_of_sight": True, "visibility": "Clear"},
        ),
    ],
)  # fmt: skip
def test_many_outcomes_are_drawn_each_none_lumped_as_other(
    client: FlaskClient, path: str, body: dict[str, Any]
) -> None:
    """An attack's dozens of outcomes, each its own bar, however unlikely: a player sees the
    whole spread, not the likeliest five and "44 other outcomes 66%"."""
    outcomes = client.post(path, json=body).get_json()["outcomes"]
    picture = parse(client.post(path, json=body, headers={"Accept": SVG}))
    bars = _bars(picture, "data-outcome")
    assert len(bars) == len(outcomes) > 40
    assert max(Fraction(bar.get("data-probability") or "1") for bar in bars) < Fraction(1, 5)
    hits = {
        bar.get("data-hits") or "": bar.get("data-chance") or "nan"
        for bar in _bars(picture, "data-hits")
    }
    assert "or more" not in " ".join(hits) and sum(map(Fraction, hits.values())) == 1


@pytest.mark.parametrize(
    ("path", "body", "said"),
    [
        (
            "/v1/rulesets/salvo-solo/attack/odds",
            {"firer": {"ship": "Ajax"}, "target": {"ship": "Graf Spee"}, "range": "Medium",
             "weather": "Fair", "guns_bearing": "broadside"},
            "Ajax fires at Graf Spee with its broadside guns at Medium range",
        ),
        (
            "/v1/rulesets/dreadnought/fire/odds",
            {"firer": {"ship": "Queen Elizabeth"}, "battery": 15,
             "target": {"ship": "Derfflinger"}, "distance": 20},
            'Queen Elizabeth fires at Derfflinger with its 15" guns at 20"',
        ),
        (
            "/v1/rulesets/dreadnought/torpedo/odds",
            {"firer": {"ship": "V-class torpedo boat"}, "target": {"ship": "Southampton"},
             "distance": 8, "torpedoes": 4},
            'V-class torpedo boat fires at Southampton with 4 torpedoes at 8"',
        ),
        (
            "/v1/rulesets/fleet-action/torpedo/odds",
            {"firer": {"class": "Destroyer", "crew": "Seasoned", "name": "Destroyer 1"},
             "target": {"class": "Battleship", "crew": "Veteran"}, "range": 12.5,
             "line_of_sight": True, "visibility": "Clear"},
            'Destroyer 1 fires at Battleship with torpedoes at 12.5"',
        ),
    ],
)  # fmt: skip
def test_the_title_says_who_fires_at_whom_with_what_and_at_what_range(
    client: FlaskClient, path: str, body: dict[str, Any], said: str
) -> None:
    picture = parse(client.post(path, json=body, headers={"Accept": SVG}))
    assert said in (picture.findtext(f"{NS}title") or "")
    asked = [t for t in picture.iter(f"{NS}text") if t.get("data-asked") is not None]
    assert " ".join(t.text or "" for t in asked) == said  # drawn under the title too


def test_a_picture_is_self_contained_and_scales_to_the_screen(
    client: FlaskClient, every_odds: list[tuple[str, dict[str, Any]]]
) -> None:
    path, body = every_odds[0]
    for target, sent in ((path, body), (HEATMAP, HEAT_BODY)):
        text = client.post(target, json=sent, headers={"Accept": SVG}).get_data(as_text=True)
        root = ET.fromstring(text)
        assert root.get("width") == "100%" and "height" not in root.attrib
        assert len((root.get("viewBox") or "").split()) == 4
        assert "height:auto" in (root.get("style") or "")
        for forbidden in ("href", "<script", "@import", "url(", "@font-face"):
            assert forbidden not in text, (target, forbidden)


def _attack(client: FlaskClient) -> tuple[list[dict[str, Any]], ET.Element]:
    body = {
        "firer": {"ship": "Ajax"},
        "target": {"ship": "Graf Spee"},
        "range": "Medium",
        "weather": "Fair",
        "guns_bearing": "broadside",
    }
    path = "/v1/rulesets/salvo-solo/attack/odds"
    outcomes = client.post(path, json=body).get_json()["outcomes"]
    return outcomes, parse(client.post(path, json=body, headers={"Accept": SVG}))


def test_the_attack_picture_answers_a_players_questions(client: FlaskClient) -> None:
    """The README's request: the chance of any hit, of each kind, of sinking or silencing
    the target, and how many hits, each worked out here from the JSON outcomes."""
    outcomes, picture = _attack(client)

    def chance(test: Any) -> str:
        return str(
            sum((Fraction(o["probability"]) for o in outcomes if test(o["result"])), Fraction(0))
        )

    def hits(result: dict[str, Any]) -> int:
        return int(result["flotation_hits"] + result["speed_hits"] + result["turret_hits"])

    asked = {
        bar.get("data-question"): bar.get("data-chance") for bar in _bars(picture, "data-question")
    }
    assert asked == {
        "Straddled": chance(lambda r: r["straddled"]),
        "Any hit": chance(lambda r: hits(r) > 0),
        "At least one flotation hit": chance(lambda r: r["flotation_hits"] > 0),
        "At least one speed hit": chance(lambda r: r["speed_hits"] > 0),
        "At least one turret hit": chance(lambda r: r["turret_hits"] > 0),
        "Fire control lost": chance(lambda r: r["fire_control_lost"]),
        "Silenced": chance(lambda r: r["silenced"]),
        "Sunk": chance(lambda r: r["sunk"]),
    }
    how_many = {bar.get("data-hits"): bar.get("data-chance") for bar in _bars(picture, "data-hits")}
    assert how_many["No hits"] == chance(lambda r: hits(r) == 0)
    assert how_many["2 hits"] == chance(lambda r: hits(r) == 2)
    assert sum(Fraction(c or "0") for c in how_many.values()) == 1
    labels = [_label(bar) for bar in _bars(picture, "data-outcome")]
    assert "Miss (no straddle)" in labels
    assert any(label.startswith("Straddled, 2 hits (1 flotation, 1 speed)") for label in labels)
    assert len(_bars(picture, "data-outcome")) == len(outcomes)  # every outcome, none lumped


def test_an_outcome_reads_in_the_rulesets_words(client: FlaskClient) -> None:
    body = {"firer": {"ship": "Ajax"}, "target": {"ship": "Graf Spee"}, "range": "Long",
            "guns_bearing": "bow"}  # fmt: skip
    picture = parse(
        client.post("/v1/rulesets/salvo-solo/straddle/odds", json=body, headers={"Accept": SVG})
    )
    labels = [_label(bar) for bar in _bars(picture, "data-outcome")]
    assert labels == [
        "No effect",
        "1 flotation hit",
        "Special damage: roll on the Special Damage table",
        "1 turret hit",
        "2 hits (1 flotation, 1 speed)",
    ]
    enemy = {"enemy": {"ship": "Graf Spee"}, "player": {"ship": "Ajax"}, "last_action": None}
    picture = parse(
        client.post(
            "/v1/rulesets/salvo-solo/enemy-action/odds", json=enemy, headers={"Accept": SVG}
        )
    )
    labels = [_label(bar) for bar in _bars(picture, "data-outcome")]
    assert labels[:2] == ["Close", "Offer Broadside"]


class Volley(TypedDict):
    """A made-up step's result, typed as a ruleset types one."""

    name: Annotated[str, Headline()]
    hit: Annotated[bool, Landed()]
    gun_hits: Annotated[int, Hits("gun")]
    deck_hits: Annotated[int, Hits("deck")]
    damage: int
    range: int


class UntoldVolley(TypedDict):
    """The same members with no word of what they are."""

    name: str
    hit: bool
    gun_hits: int
    deck_hits: int
    damage: int
    range: int


def test_an_outcome_reads_generically_where_a_ruleset_says_nothing() -> None:
    """A result's members in words: the headline, the hits added up, the true flags, other
    numbers by name; the members every outcome shares are left out. What each member is comes
    from the result's type: the same members, untyped, read as plain numbers."""

    def salvo(hit: bool, gun: int, deck: int, damage: int) -> dict[str, Any]:
        return {"name": "Salvo", "hit": hit, "gun_hits": gun, "deck_hits": deck,
                "damage": damage, "range": 3}  # fmt: skip

    answer = {
        "ruleset": "any",
        "step": "volley",
        "outcomes": [
            {"probability": "1/2", "p": 0.5, "result": salvo(False, 0, 0, 0)},
            {"probability": "1/4", "p": 0.25, "result": salvo(True, 2, 1, 7)},
            {"probability": "1/4", "p": 0.25, "result": salvo(True, 0, 1, 2)},
        ],
    }
    picture = ET.fromstring(odds(answer, reading(Volley)))
    labels = [_label(bar) for bar in _bars(picture, "data-outcome")]
    assert labels == ["Miss", "Hit, 3 hits (2 gun, 1 deck), damage 7", "Hit, 1 deck hit, damage 2"]
    untold = ET.fromstring(odds(answer, reading(UntoldVolley)))
    labels = [_label(bar) for bar in _bars(untold, "data-outcome")]
    assert labels == [
        "No effect",
        "Hit, gun hits 2, deck hits 1, damage 7",
        "Hit, deck hits 1, damage 2",
    ]


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
    paths = [p for p in document["paths"] if p in odds_paths()] + [HEATMAP]
    for path in paths:
        responses = document["paths"][path]["post"]["responses"]
        assert set(responses["200"]["content"]) == {"application/json", SVG}, path
        assert "406" in responses, path


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


def _turn_odds(client: FlaskClient, app: Flask, ruleset: str) -> tuple[dict[str, Any], ET.Element]:
    path = f"/v1/rulesets/{ruleset}/turn/odds"
    body = dict(odds_operations(app))[path]
    answered = client.post(path, json=body).get_json()
    return answered["result"], parse(client.post(path, json=body, headers={"Accept": SVG}))


def _groups(picture: ET.Element, attribute: str) -> dict[str, dict[str, str]]:
    """Per ship (its group's number), the ``attribute`` of each bar or column: its chance."""
    found: dict[str, dict[str, str]] = {}
    for bar in _bars(picture, attribute):
        found.setdefault(bar.get("data-group") or "", {})[bar.get(attribute) or ""] = str(
            Fraction(bar.get("data-probability") or "nan")
        )
    return found


def _asked(picture: ET.Element) -> list[str]:
    return [t.text or "" for t in picture.iter(f"{NS}text") if t.get("data-asked") is not None]


def test_the_dreadnought_turn_picture_draws_the_boxes_each_ship_marks_off(
    app: Flask, client: FlaskClient
) -> None:
    """Each ship's damage this turn, the whole distribution as the JSON gives it, one column
    for each number of boxes; and under each ship's name what it fires at."""
    result, picture = _turn_odds(client, app, "dreadnought")
    columns = _groups(picture, "data-value")
    for number, ship in enumerate(result["ships"]):
        assert columns[str(number)] == {
            str(d["points"]): str(Fraction(d["chance"]["probability"])) for d in ship["damage"]
        }, ship["ship"]
    for column in _bars(picture, "data-value"):
        boxes = int(column.get("data-value") or "")
        said = f"{boxes} box marked off" if boxes == 1 else f"{boxes} boxes marked off"
        assert _titled(column)[0] == said
    asked = " ".join(_asked(picture))
    assert 'Queen Elizabeth fires at Derfflinger with its 15" guns at 20"' in asked
    assert 'Seydlitz fires at Iron Duke with its 11" guns at 24"' in asked


def test_the_fleet_action_turn_picture_shows_the_json_numbers(
    app: Flask, client: FlaskClient
) -> None:
    result, picture = _turn_odds(client, app, "fleet-action")
    bars = _groups(picture, "data-chance")
    columns = _groups(picture, "data-value")
    for number, ship in enumerate(result["ships"]):
        assert bars[str(number)]["sunk"] == str(Fraction(ship["sunk"]["probability"]))
        assert columns[str(number)] == {
            str(lost["hull_lost"]): str(Fraction(lost["chance"]["probability"]))
            for lost in ship["hull_lost"]
        }, ship["name"]
    asked = " ".join(_asked(picture))
    assert 'Battleship fires at Destroyer 1 with its guns at 40"' in asked
    assert 'Destroyer 2 fires at Battleship with its guns at 18"' in asked


def test_a_picture_of_more_totals_than_the_budget_draws_is_refused_before_the_odds(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawing an outcome costs the request's budget as the odds do: 100d10's 901 totals are
    answered as JSON but refused as a picture, before the odds are worked out, with the way
    round it named; 60d10's 541 totals are drawn."""
    worked_out: list[str] = []
    real = dice_api.odds_answer

    def recorded(notation: Any) -> Any:
        worked_out.append(str(notation))
        return real(notation)

    monkeypatch.setattr(dice_api, "odds_answer", recorded)
    refused = client.post("/v1/dice/odds", json={"notation": "100d10"}, headers={"Accept": SVG})
    problem = refused.get_json()
    assert refused.status_code == 422 and problem["type"] == "/problems#limit"
    assert "drawing these odds" in problem["detail"]
    assert "Accept: application/json" in problem["detail"]
    assert worked_out == []
    assert client.post("/v1/dice/odds", json={"notation": "100d10"}).status_code == 200
    drawn = client.post("/v1/dice/odds", json={"notation": "60d10"}, headers={"Accept": SVG})
    assert drawn.status_code == 200 and drawn.mimetype == SVG
    assert len(ET.fromstring(drawn.data).findall(".//{*}g[@data-value]")) == 541
