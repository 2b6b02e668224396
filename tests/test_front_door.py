"""The front door: no malformed request ends a worker, and bodies are framed one way.

Each request here goes over a raw socket to gunicorn started with the production config
(deploy/gunicorn.conf.py), because the framings are ones an HTTP client library refuses to
send. gunicorn answers the ones it cannot parse itself, without the app, and logs them
through the same access logger as every other answer: that logger once read
``resp.status_code``, which gunicorn's own error answer lacks, and every such request ended
the worker that read it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from gunicorn.config import Config
from gunicorn.http.wsgi import Response

from service import MAX_BODY_BYTES
from service.engine.errors import KINDS
from tests.serving_helpers import Server, running

JSON = "Content-Type: application/json\r\n"
ROLL_BODY = json.dumps({"notation": "3d6", "dice": {"seed": "door", "nonce": 1}}).encode()


def post(headers: str, body: bytes = b"", path: str = "/v1/dice/roll") -> bytes:
    return f"POST {path} HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n".encode() + body


def chunked(body: bytes, size: int = 4096) -> bytes:
    pieces = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


# Ambiguous framings of one request, as a client on the internet could send them.
FRAMINGS: dict[str, bytes] = {
    "two Content-Type headers": post(
        JSON + f"Content-Type: text/plain\r\nContent-Length: {len(ROLL_BODY)}\r\n", ROLL_BODY
    ),
    "Content-Length: -1": post(JSON + "Content-Length: -1\r\n", ROLL_BODY),
    "Content-Length: abc": post(JSON + "Content-Length: abc\r\n", ROLL_BODY),
    "Content-Length with Transfer-Encoding": post(
        JSON + f"Content-Length: {len(ROLL_BODY)}\r\nTransfer-Encoding: chunked\r\n",
        chunked(ROLL_BODY),
    ),
    "two different Content-Lengths": post(
        JSON + f"Content-Length: {len(ROLL_BODY)}\r\nContent-Length: {len(ROLL_BODY) + 1}\r\n",
        ROLL_BODY + b" ",
    ),
    "Transfer-Encoding: gzip": post(JSON + "Transfer-Encoding: gzip\r\n", ROLL_BODY),
    "two Host headers": b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: elsewhere\r\n\r\n",
    "a malformed chunk size": post(
        JSON + "Transfer-Encoding: chunked\r\n", b"zz\r\n" + ROLL_BODY + b"\r\n0\r\n\r\n"
    ),
    "a malformed chunk after a good one": post(
        JSON + "Transfer-Encoding: chunked\r\n", b"2\r\n{}\r\n-5\r\nabcde\r\n0\r\n\r\n"
    ),
    "a chunk longer than its size": post(
        JSON + "Transfer-Encoding: chunked\r\n", b"2\r\n{}xyz\r\n0\r\n\r\n"
    ),
}


def send(server: Server, data: bytes) -> tuple[int | None, dict[str, str], bytes]:
    """Send raw bytes, read until the server closes: (status, headers, body)."""
    answer = b""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as client:
        client.sendall(data)
        try:
            while piece := client.recv(65536):
                answer += piece
        except ConnectionResetError:
            pass
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("front-door"), workers=2) as srv:
        yield srv


def test_no_malformed_framing_ends_a_worker(server: Server) -> None:
    workers = server.workers()
    answers = {name: send(server, data)[0] for name, data in FRAMINGS.items()}
    # Every worker has been through the framings by now, several times over.
    for _ in range(10):
        assert (
            send(server, post(JSON + f"Content-Length: {len(ROLL_BODY)}\r\n", ROLL_BODY))[0] == 200
        )
    not_refused = {
        name: status for name, status in answers.items() if not 400 <= (status or 0) < 500
    }
    assert not not_refused, f"each framing gets a 4xx: {not_refused}\n{server.logs()}"
    assert server.workers() == workers, f"a worker was replaced\n{server.logs()}"
    metrics = server.request("GET", "/metrics")
    assert metrics.status == 200 and b"firecontrol_http_requests_total" in metrics.body
    log = server.stderr.read_text()
    assert "Traceback" not in log and "exited with code" not in log, log[-3000:]


def test_gunicorns_own_refusals_are_logged_with_their_status(server: Server) -> None:
    for name in ("Content-Length: abc", "two Host headers"):
        assert send(server, FRAMINGS[name])[0] == 400
    assert send(server, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")[0] == 200
    lines = [json.loads(line) for line in server.stdout.read_text().splitlines()]
    refused = [line for line in lines if line["request_id"] is None and line["status"] == 400]
    paths = {line["path"] for line in refused}
    assert {"/v1/dice/roll", "/healthz"} <= paths, lines[-10:]
    assert all(line["type"] == "access" and line["pid"] in server.workers() for line in refused)


def test_a_chunked_body_over_the_limit_gets_the_same_413_as_a_sized_one(server: Server) -> None:
    big = json.dumps({"notation": "3d6", "dice": {"seed": "x" * MAX_BODY_BYTES, "nonce": 1}})
    body = big.encode()
    sized = send(server, post(JSON + f"Content-Length: {len(body)}\r\n", body))
    unsized = send(server, post(JSON + "Transfer-Encoding: chunked\r\n", chunked(body)))
    assert sized[0] == unsized[0] == 413, (sized, unsized)
    assert sized[1]["content-type"] == unsized[1]["content-type"] == "application/problem+json"
    assert json.loads(sized[2]) == json.loads(unsized[2])
    assert json.loads(unsized[2])["type"] == "/problems#body-too-large"


def test_a_chunked_body_at_the_limit_is_read_whole(server: Server) -> None:
    head = b'{"notation": "3d6", "dice": {"seed": "s", "nonce": 1}, "pad": "'
    body = head + b"x" * (MAX_BODY_BYTES - len(head) - 2) + b'"}'
    assert len(body) == MAX_BODY_BYTES
    status, _, answer = send(server, post(JSON + "Transfer-Encoding: chunked\r\n", chunked(body)))
    # Read whole and parsed: refused for its unknown member, not as cut or too large.
    assert status == 422, answer
    assert [error["field"] for error in json.loads(answer)["errors"]] == ["pad"]


def test_a_chunked_body_within_the_limit_is_served(server: Server) -> None:
    status, _, answer = send(
        server, post(JSON + "Transfer-Encoding: chunked\r\n", chunked(ROLL_BODY, size=5))
    )
    assert status == 200, answer
    assert json.loads(answer)["result"]["notation"] == "3d6"


@pytest.mark.parametrize(
    "name",
    [
        "a malformed chunk size",
        "a malformed chunk after a good one",
        "a chunk longer than its size",
    ],
)
def test_a_malformed_chunk_is_a_400_problem(server: Server, name: str) -> None:
    status, headers, answer = send(server, FRAMINGS[name])
    assert status == 400, answer
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(answer)["type"] == "/problems#malformed-request"


def get(headers: bytes = b"", target: bytes = b"/healthz", method: bytes = b"GET") -> bytes:
    return method + b" " + target + b" HTTP/1.1\r\nHost: localhost\r\n" + headers + b"\r\n"


# What gunicorn refuses itself, before the app, and how (deploy/gunicorn.conf.py: its limits
# are above nginx's, so through the sidecar nginx refuses these first, or they never arise).
GUNICORN_REFUSALS: dict[str, tuple[bytes, int, str]] = {
    "a 300-character method": (get(method=b"A" * 300), 400, "malformed-request"),
    "a lower-case method": (get(method=b"get"), 400, "malformed-request"),
    "raw 0xff bytes in the path": (get(target=b"/\xff\xfe"), 400, "malformed-request"),
    "a control byte in a header": (get(b"X-Note: a\x01b\r\n"), 400, "malformed-request"),
    "a request line over 8190 bytes": (get(target=b"/" + b"a" * 8200), 414, "uri-too-long"),
    "a header over 8190 bytes": (get(b"X-Big: " + b"a" * 8200 + b"\r\n"), 431, "header-too-large"),
    "6,001 headers": (get(b"A: b\r\n" * 6001), 431, "header-too-large"),
    "Expect: 100-fly": (
        post(JSON + "Expect: 100-fly\r\nContent-Length: 2\r\n", b"{}"),
        417,
        "expectation-failed",
    ),
    "two Content-Type headers": (FRAMINGS["two Content-Type headers"], 400, "malformed-request"),
    "two different Content-Lengths": (
        FRAMINGS["two different Content-Lengths"],
        400,
        "malformed-request",
    ),
    "Content-Length with Transfer-Encoding": (
        FRAMINGS["Content-Length with Transfer-Encoding"],
        400,
        "malformed-request",
    ),
    "Transfer-Encoding: gzip": (FRAMINGS["Transfer-Encoding: gzip"], 400, "malformed-request"),
    "two Host headers": (FRAMINGS["two Host headers"], 400, "malformed-request"),
}


@pytest.mark.parametrize("name", list(GUNICORN_REFUSALS))
def test_gunicorns_own_refusals_are_small_problems(server: Server, name: str) -> None:
    """gunicorn's own error page (HTML) is replaced, in each worker, by the app's problem
    shape: a client straight at gunicorn gets problem+json too, of a kind on /problems."""
    data, status, kind = GUNICORN_REFUSALS[name]
    answer_status, headers, body = send(server, data)
    assert answer_status == status, body[:300]
    assert headers["content-type"] == "application/problem+json", headers
    assert int(headers["content-length"]) == len(body) < 200, body
    document = json.loads(body)
    assert document == {
        "type": f"/problems#{kind}",
        "title": document["title"],
        "status": status,
        "detail": document["detail"],
        "errors": [],
    }
    assert document["title"] and document["detail"] and status in KINDS[kind].statuses
    # Nothing of the request is echoed (gunicorn's page quoted the method or the line).
    assert b"AAAA" not in body and b"aaaa" not in body


def test_headers_within_gunicorns_limits_reach_the_app(server: Server) -> None:
    # nginx passes on up to 5,800 small headers (within its 17 KB): gunicorn takes them.
    status, _, _ = send(server, get(b"A: b\r\n" * 5800))
    assert status == 200


def test_the_logger_survives_whatever_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The access logger itself, fed the odd objects a server could hand it."""
    # Loading the config prepares a metrics folder unless this process already owns one.
    monkeypatch.setenv("FIRE_CONTROL_METRICS_OWNER", str(os.getpid()))
    spec = importlib.util.spec_from_file_location(
        "gunicorn_conf_under_test",
        Path(__file__).resolve().parent.parent / "deploy/gunicorn.conf.py",
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    config = Config()
    config.set("accesslog", str(tmp_path / "access.log"))
    logger = module.JsonAccessLogger(config)
    # what gunicorn builds for a request it could not parse: no request and no socket behind it
    bare = Response(None, None, config)  # type: ignore[arg-type]
    bare.status = "431 Request Header Fields Too Large"
    odd = type("Odd", (), {"headers": [("X-Request-Id",), None, (1, 2)], "status_code": "x"})()
    logger.access(bare, None, {"REQUEST_METHOD": "GET", "PATH_INFO": "/"}, None)
    logger.access(odd, None, None, "not a duration")
    logger.access(None, None, {"PATH_INFO": object()}, None)
    for handler in logger.access_log.handlers:
        handler.close()
    lines = [json.loads(line) for line in (tmp_path / "access.log").read_text().splitlines()]
    assert [line["status"] for line in lines] == [431, None, None]
    assert lines[0]["path"] == "/" and lines[0]["method"] == "GET"
