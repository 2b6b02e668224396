"""What every client sees of the HTTP layer: problem details, strictness, limits, CORS, ops."""

from __future__ import annotations

import io
import os
import re
from typing import Any

import pytest
from flask import Flask, Request, session
from flask.sessions import NullSession
from flask.testing import FlaskClient
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.test import EnvironBuilder

from service import create_app
from service.http.fast.jsonbody import IJsonRequest
from service.http.middleware.request_id import new_request_id

STRADDLE = "/v1/rulesets/salvo-solo/straddle"
BODY = {
    "firer": {"ship": "Ajax"},
    "target": {"ship": "Graf Spee"},
    "range": "Long",
    "guns_bearing": "bow",
    "dice": {"seed": "s", "nonce": 1},
}


def problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    data: dict[str, Any] = response.get_json()
    assert set(data) == {"type", "title", "status", "detail", "errors"}
    assert data["status"] == status
    assert "Traceback" not in response.get_data(as_text=True)
    return data


@pytest.mark.parametrize("bad", [7.9, "3", True, None, [3], {"n": 3}])
def test_integers_are_strict(client: FlaskClient, bad: Any) -> None:
    body = {**BODY, "dice": {"seed": "s", "nonce": bad}}
    data = problem(client.post(STRADDLE, json=body), 422)
    assert data["errors"][0]["field"] == "dice.nonce"
    assert data["type"].endswith("#validation")


def test_an_integral_float_is_an_integer(client: FlaskClient) -> None:
    body = {**BODY, "dice": {"seed": "s", "nonce": 1.0}}
    assert client.post(STRADDLE, json=body).get_json()["dice"]["nonce"] == 1


@pytest.mark.parametrize("bad", [1, 0, "true", None])
def test_booleans_are_strict(client: FlaskClient, bad: Any) -> None:
    body = {"range": "Long", "weather": "Fair", "previously_straddled": bad}
    data = problem(client.post("/v1/rulesets/salvo-solo/fire", json=body), 422)
    assert data["errors"][0]["field"] == "previously_straddled"


def test_unknown_fields_are_rejected_and_named(client: FlaskClient) -> None:
    body = {**BODY, "armour": 3, "target": {"ship": "Graf Spee", "hull": 1}}
    data = problem(client.post(STRADDLE, json=body), 422)
    fields = {e["field"] for e in data["errors"]}
    assert "armour" in fields and any(f.startswith("target") for f in fields)


def test_every_bad_field_is_named(client: FlaskClient) -> None:
    body = {"firer": {"ship": "Bismarck"}, "range": "Close", "guns_bearing": "bow"}
    data = problem(client.post(STRADDLE, json=body), 422)
    assert {e["field"] for e in data["errors"]} >= {"firer.ship", "range", "target"}


def test_supplied_dice_errors_say_which_die_was_wanted(client: FlaskClient) -> None:
    body = {**BODY, "dice": {"values": [6, 4]}}
    data = problem(client.post(STRADDLE, json=body), 422)
    assert "die 3 of 3d6 for straddle" in data["detail"] and data["type"].endswith("#dice")
    body["dice"] = {"values": [6, 4, 2, 1]}
    assert "used only 3" in problem(client.post(STRADDLE, json=body), 422)["detail"]
    body["dice"] = {"values": [6, 4, 7]}
    assert "not a face of a d6" in problem(client.post(STRADDLE, json=body), 422)["detail"]
    body["dice"] = {"values": [6, 4, 0]}
    assert problem(client.post(STRADDLE, json=body), 422)["errors"][0]["field"] == "dice.values.2"
    body["dice"] = {"values": []}
    problem(client.post(STRADDLE, json=body), 422)


def test_seed_and_values_together_are_refused(client: FlaskClient) -> None:
    body = {**BODY, "dice": {"seed": "s", "values": [1, 2, 3]}}
    assert problem(client.post(STRADDLE, json=body), 422)["errors"][0]["field"] == "dice"


def test_rule_violation_is_a_422_a_player_understands(client: FlaskClient) -> None:
    body = {
        "firer": {"ship": "Hood"},
        "target": {"ship": "Graf Spee"},
        "range": "Short",
        "weather": "Fair",
    }
    data = problem(client.post("/v1/rulesets/salvo-solo/torpedo", json=body), 422)
    assert data["detail"] == "only a CL launches torpedoes; Hood is a BC"
    assert data["type"].endswith("#rule-violation")


def test_wrong_method_is_405_with_allow(client: FlaskClient) -> None:
    response = client.get(STRADDLE)
    problem(response, 405)
    assert "POST" in response.headers["Allow"]


def test_body_over_the_limit_is_413(client: FlaskClient) -> None:
    padding = "x" * (64 * 1024)
    response = client.post(
        STRADDLE, data=f'{{"pad": "{padding}"}}', content_type="application/json"
    )
    problem(response, 413)


def test_not_json_is_refused(client: FlaskClient) -> None:
    problem(client.post(STRADDLE, data="{oops", content_type="application/json"), 400)
    problem(client.post(STRADDLE, data="range=Long", content_type="text/plain"), 415)
    problem(client.post(STRADDLE, data="", content_type="application/json"), 400)
    problem(client.post(STRADDLE, data="[1, 2]", content_type="application/json"), 422)


class Trickle(io.RawIOBase):
    """A server's stream that hands a body over a few bytes at a read, or fails."""

    def __init__(self, data: bytes, broken: bool = False) -> None:
        self.data, self.broken = data, broken

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.broken:
            raise OSError("connection reset")
        piece, self.data = self.data[:3], self.data[3:]
        buffer[: len(piece)] = piece
        return len(piece)


def read_body(request_class: type[Request], environ: dict[str, Any], limit: int | None) -> Any:
    request = request_class(dict(environ))
    request.max_content_length = limit
    try:
        return request.get_data(), request.get_data(), request.get_data(as_text=True)
    except Exception as error:
        return type(error)


@pytest.mark.parametrize("terminated", [False, True])
@pytest.mark.parametrize("limit", [None, 12, 64])
@pytest.mark.parametrize("stream", ["whole", "trickle", "broken"])
@pytest.mark.parametrize(
    ("length", "sent"),
    [(0, b""), (12, b'{"a": "bc"} '), (12, b'{"a": 1}'), (8, b'{"a": 1}{"b": 2}'), (13, b"{}" * 7)],
)
def test_a_body_of_known_size_is_read_as_flask_reads_it(
    terminated: bool, limit: int | None, stream: str, length: int, sent: bytes
) -> None:
    """The same bytes, or the same refusal (413 over the limit, 400 for a client gone),
    whether the server ends the body itself or werkzeug bounds it, a short body, a body
    the next request follows, a stream that gives a few bytes at a read, or one that fails."""
    if terminated:
        sent = sent[:length]  # such a server ends the stream at the body's end
    environ = EnvironBuilder(method="POST", data=b"", content_type="application/json").get_environ()
    environ["CONTENT_LENGTH"] = str(length)
    if terminated:
        environ["wsgi.input_terminated"] = True
    for kind in ("ours", "flask's"):
        source: Any = io.BytesIO(sent) if stream == "whole" else Trickle(sent, stream == "broken")
        environ[f"wsgi.input.{kind}"] = source
    ours = read_body(IJsonRequest, {**environ, "wsgi.input": environ["wsgi.input.ours"]}, limit)
    flask = read_body(Request, {**environ, "wsgi.input": environ["wsgi.input.flask's"]}, limit)
    assert ours == flask
    if limit is not None and length > limit:
        assert ours is RequestEntityTooLarge


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "",
        "application/json",
        "Application/JSON",
        "application/json; charset=utf-8",
        " application/json",
        "application/problem+json",
        "application/jsonx",
        "text/json",
        "application/json;",
    ],
)
def test_a_json_body_is_told_by_its_content_type_as_flask_tells_it(
    content_type: str | None,
) -> None:
    environ = EnvironBuilder(method="POST", data=b"{}").get_environ()
    environ.pop("CONTENT_TYPE", None)
    if content_type is not None:
        environ["CONTENT_TYPE"] = content_type
    assert IJsonRequest(environ).is_json is Request(environ).is_json


@pytest.mark.parametrize("transfer_encoding", [None, "chunked", "gzip, chunked", "gzip", ""])
@pytest.mark.parametrize("length", [None, "12", "0", "-1", "abc", "+5", " 5", "1_0", ""])
def test_a_body_size_is_read_as_flask_reads_it(
    length: str | None, transfer_encoding: str | None
) -> None:
    """None for a chunked body or one of no stated size, 0 for a size that is no number."""
    environ = EnvironBuilder(method="POST", data=b"{}").get_environ()
    environ.pop("CONTENT_LENGTH", None)
    for key, value in (("CONTENT_LENGTH", length), ("HTTP_TRANSFER_ENCODING", transfer_encoding)):
        if value is not None:
            environ[key] = value
    assert IJsonRequest(environ).content_length == Request(environ).content_length


def test_a_request_has_flasks_null_session_and_a_secret_key_brings_cookies() -> None:
    bare = Flask(__name__)
    for app in (create_app(), bare):
        with app.test_request_context("/healthz"):
            assert isinstance(session, NullSession) and not session
            with pytest.raises(RuntimeError) as refused:
                session["player"] = "Ajax"
            assert "no secret key was set" in str(refused.value)
    app = create_app({"SECRET_KEY": "not a secret"})
    with app.test_request_context("/healthz"):
        session["player"] = "Ajax"
        assert not isinstance(session, NullSession) and session["player"] == "Ajax"


def test_request_ids_are_32_hex_digits_and_no_two_workers_share_them() -> None:
    """Workers forked from one server process each make ids of their own."""
    read, write = os.pipe()
    workers = []
    for _ in range(3):
        pid = os.fork()
        if pid == 0:  # a worker
            os.write(write, f"{new_request_id()} {new_request_id()}\n".encode())
            os._exit(0)
        workers.append(pid)
    for pid in workers:
        os.waitpid(pid, 0)
    os.close(write)
    with os.fdopen(read) as made:
        ids = made.read().split() + [new_request_id(), new_request_id()]
    assert len(ids) == len(set(ids)) == 8
    assert all(re.fullmatch("[0-9a-f]{32}", made) for made in ids), ids


def test_unknown_paths_and_rulesets_are_404_problems(client: FlaskClient) -> None:
    problem(client.get("/v1/nowhere"), 404)
    assert "no ruleset" in problem(client.get("/v1/rulesets/chess"), 404)["detail"]
    problem(client.post("/v1/rulesets/salvo-solo/checkmate", json={}), 404)


def test_cors_for_browser_and_mobile_clients(client: FlaskClient) -> None:
    preflight = client.options(
        STRADDLE,
        headers={
            "Origin": "https://app.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Content-Type, X-Request-Id",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert preflight.headers["Access-Control-Allow-Headers"] == "Content-Type, X-Request-Id"
    assert int(preflight.headers["Access-Control-Max-Age"]) > 0
    response = client.post(STRADDLE, json=BODY, headers={"Origin": "https://app.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert set(response.headers["Access-Control-Expose-Headers"].split(", ")) == {
        "Allow",
        "X-Request-Id",
    }
    assert "Access-Control-Allow-Methods" not in response.headers  # only on a preflight
    error = client.get(STRADDLE, headers={"Origin": "https://app.example"})
    assert error.status_code == 405 and error.headers["Access-Control-Allow-Origin"] == "*"


def test_rulesets_are_listed_with_their_steps(client: FlaskClient) -> None:
    listing = client.get("/v1/rulesets").get_json()["rulesets"]
    solo = next(r for r in listing if r["id"] == "salvo-solo")
    assert {"weather", "straddle", "attack", "turn"} <= set(solo["steps"])
    detail = client.get("/v1/rulesets/salvo-solo").get_json()
    straddle = next(s for s in detail["steps"] if s["name"] == "straddle")
    assert straddle["dice"] == "3d6" and straddle["odds_path"].endswith("/straddle/odds")


def test_health_and_readiness(client: FlaskClient) -> None:
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json() == {"status": "ready"}


def test_metrics_count_requests_and_rolls(client: FlaskClient) -> None:
    client.post("/v1/dice/roll", json={"notation": "3d6", "dice": {"seed": "m", "nonce": 1}})
    text = client.get("/metrics").get_data(as_text=True)
    assert 'firecontrol_rolls_total{ruleset="dice",step="roll"}' in text
    assert (
        'endpoint="/v1/dice/roll"' in text and "firecontrol_http_request_duration_seconds" in text
    )
    client.get("/no/such/path/123")
    text = client.get("/metrics").get_data(as_text=True)
    assert 'endpoint="unmatched"' in text and "/no/such/path" not in text


def test_docs_page_is_served_from_the_service_itself(client: FlaskClient) -> None:
    page = client.get("/docs/").get_data(as_text=True)
    assert "swagger-ui-bundle.js" in page and "/openapi.json" in page
    assert "https://" not in page.replace("https://swagger.io", "")
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
        response = client.get(f"/docs/{asset}")
        assert response.status_code == 200 and len(response.data) > 1000
        response.close()


def test_plain_roll(client: FlaskClient) -> None:
    body = {"notation": "2d8+1d10+2", "dice": {"values": [3, 5, 9]}}
    data = client.post("/v1/dice/roll", json=body).get_json()
    assert data["result"]["total"] == 19 and data["result"]["notation"] == "2d8+1d10+2"
    assert [r["notation"] for r in data["rolls"]] == ["2d8", "1d10"]
    data = problem(client.post("/v1/dice/roll", json={"notation": "1000000d6"}), 422)
    assert "1 to 100 dice" in data["detail"] and data["type"].endswith("#limit")
