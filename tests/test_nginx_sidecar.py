"""The nginx sidecar, for real: Debian's nginx runs the shipped deploy/k8s/base/nginx.conf
in front of gunicorn (the production config) on loopback.

Only the listen port, the upstream port and the /tmp paths of the file are moved; every
other line is the one the pods run. Without nginx these tests skip and say how to install
it; in CI (the CI variable set, as .ci/run does) they fail instead.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service import MAX_BODY_BYTES
from tests.serving_helpers import (
    ROOT,
    START_TIMEOUT,
    Response,
    Server,
    free_port,
    roll_request,
    running,
    start,
    stop,
)

NGINX_CONF = ROOT / "deploy" / "k8s" / "base" / "nginx.conf"
INSTALL = "apt-get install -y nginx"
PROBLEM_MEMBERS = {"type", "title", "status", "detail", "errors"}
# The numbers the config sets (and deploy/README.md documents).
RATE_PER_SECOND, BURST = 20, 40
# The advisor's own, on top (it may take up to 250 ms of CPU).
ADVICE_RATE_PER_SECOND, ADVICE_BURST = 2, 4
SLOW_CLIENTS = 24


def nginx_binary() -> str:
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(found, os.X_OK):
        message = f"nginx is not installed; `{INSTALL}` (Debian) lets these tests run"
        if os.environ.get("CI", "").lower() not in ("", "0", "false"):
            pytest.fail(f"{message}. In CI they must run: .ci/run installs it.")
        pytest.skip(message)
    return found


def config_for(folder: Path, listen: int, upstream: int) -> str:
    """The shipped config with only its ports and its /tmp paths moved."""
    text = NGINX_CONF.read_text()
    for old, new in (
        ("listen 8080;", f"listen 127.0.0.1:{listen};"),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};"),
    ):
        assert text.count(old) == 1, f"{old!r} is not once in {NGINX_CONF}: update this test"
        text = text.replace(old, new)
    assert " /tmp/" in text
    text = text.replace(" /tmp/", f" {folder}/")
    assert "/tmp/" not in text.replace(str(folder), "")
    return text


def fetch(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 10.0,
) -> Response:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return Response(
            answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        )
    finally:
        conn.close()


# The raw-socket cases (dozens of refusals) come from an address of their own, so the
# sidecar's rate per client, shared by every test of this module, is not spent for the
# requests of 127.0.0.1 that must be answered (the slow clients' test).
RAW_SOURCE = "127.0.0.4"
# The slow clients too: nginx counts a request against its address once the head is in,
# so the slow clients that send a head and part of a body spend a rate of their own, not
# the rate of the player the test then serves (127.0.0.1).
SLOW_SOURCE = "127.0.0.6"


def exchange(port: int, raw: bytes, source: str = RAW_SOURCE) -> Response:
    """Send raw bytes, read the answer until nginx closes (every request here says close)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((source, 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        sock.sendall(raw)
        return read_answer(sock)


def read_answer(sock: socket.socket) -> Response:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Response(int(lines[0].split()[1]), headers, body)


@dataclass
class Proxy:
    process: subprocess.Popen[bytes]
    port: int
    folder: Path

    def request(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Response:
        headers = dict(kwargs.pop("headers", None) or {})
        data = kwargs.pop("raw", None)
        if body is not None:
            data = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        return fetch(self.port, method, path, data, headers, **kwargs)

    def logs(self) -> str:
        return (self.folder / "nginx.err").read_text()[-4000:]

    def access_lines(self, request_id: str, timeout: float = 5.0) -> list[dict[str, Any]]:
        """The access log's lines (nginx's stdout) for one request id, once there is one:
        nginx writes the line as the request ends, which may be just after its answer."""
        deadline = time.monotonic() + timeout
        while True:
            text = (self.folder / "nginx.out").read_text()
            lines = [json.loads(line) for line in text.splitlines()]
            found = [line for line in lines if line["request_id"] == request_id]
            if found or time.monotonic() > deadline:
                return found
            time.sleep(0.05)


def start_nginx(upstream: int) -> Proxy:
    binary = nginx_binary()
    # Outside pytest's private folders: as root, nginx's workers run as nobody and must
    # reach their temporary folders.
    folder = Path(tempfile.mkdtemp(prefix="fire-control-nginx-"))
    folder.chmod(0o755)
    port = free_port()
    (folder / "nginx.conf").write_text(config_for(folder, port, upstream))
    command = [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr"]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
    with (folder / "nginx.err").open("wb") as err, (folder / "nginx.out").open("wb") as out:
        process = subprocess.Popen(
            [*command, "-g", "daemon off;"],
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
    proxy = Proxy(process, port, folder)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, proxy.logs()
        with suppress(OSError):
            if proxy.request("GET", "/nginx-healthz", timeout=2).status == 200:
                return proxy
        time.sleep(0.05)
    stop_nginx(proxy)
    raise AssertionError(f"nginx did not answer in {START_TIMEOUT} s\n{proxy.logs()}")


def stop_nginx(proxy: Proxy) -> None:
    if proxy.process.poll() is None:
        proxy.process.send_signal(signal.SIGQUIT)  # finish what is in hand, then exit
        try:
            proxy.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proxy.process.pid, signal.SIGKILL)
            proxy.process.wait(timeout=10)
    with suppress(ProcessLookupError):
        os.killpg(proxy.process.pid, signal.SIGKILL)
    shutil.rmtree(proxy.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    nginx_binary()
    server = start(tmp_path_factory.mktemp("app"), workers=2)
    yield server
    stop(server)


@pytest.fixture(scope="module")
def proxy(app: Server) -> Iterator[Proxy]:
    started = start_nginx(app.port)
    yield started
    stop_nginx(started)


def assert_problem(answer: Response, status: int, kind: str | None = None) -> dict[str, Any]:
    assert answer.status == status, (answer.status, answer.body[:300])
    assert answer.headers["content-type"] == "application/problem+json", answer.headers
    document: dict[str, Any] = json.loads(answer.body)
    assert set(document) == PROBLEM_MEMBERS, document
    assert document["status"] == status and document["errors"] == []
    assert document["type"].startswith("/problems#") and document["title"] and document["detail"]
    if kind is not None:
        assert document["type"] == f"/problems#{kind}", document
    return document


# --- /metrics is for Prometheus, on the app's port -------------------------------------------


@pytest.mark.parametrize(
    "path", ["/metrics", "/metrics?x=1", "//metrics", "/%6Detrics", "/metrics/"]
)
def test_metrics_are_not_served_through_the_sidecar(proxy: Proxy, app: Server, path: str) -> None:
    answer = proxy.request("GET", path)
    assert_problem(answer, 404, "not-found")
    assert b"firecontrol_" not in answer.body
    # Prometheus scrapes the app's own port, where they are.
    direct = app.request("GET", "/metrics")
    assert direct.status == 200 and b"firecontrol_http_requests_total" in direct.body


def test_the_app_answers_everything_else_through_the_sidecar(proxy: Proxy) -> None:
    head, body = roll_request()
    answer = proxy.request(
        "POST", "/v1/dice/roll", raw=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status == 200 and answer.json()["result"]["notation"] == "3d6"
    # The caller's request id reaches the app (which returns it) through nginx.
    ready = proxy.request("GET", "/readyz", headers={"X-Request-Id": "sidecar-check"})
    assert ready.status == 200 and ready.headers["x-request-id"] == "sidecar-check"
    # The app's own problems pass untouched; nginx's have the same members.
    missing = proxy.request("GET", "/no-such-path")
    assert missing.headers["content-type"] == "application/problem+json"
    assert set(missing.json()) == PROBLEM_MEMBERS
    assert "x-request-id" in missing.headers


# --- the access log is nginx's ---------------------------------------------------------------

ACCESS_FIELDS = {
    "time",
    "type",
    "request_id",
    "method",
    "path",
    "query",
    "status",
    "bytes",
    "request_time",
    "upstream_response_time",
    "upstream_status",
    "remote",
    "forwarded_for",
    "user_agent",
}


def test_each_request_is_one_json_line_of_nginx_with_the_answers_request_id(
    proxy: Proxy,
) -> None:
    """A request the app answers, one the app gives its own id to, and one nginx refuses
    itself: each writes one JSON line on nginx's stdout, with the id the answer carries."""
    head, body = roll_request()
    given = proxy.request(
        "POST",
        "/v1/dice/roll?table=7",
        raw=body,
        headers={
            "Content-Type": "application/json",
            "X-Request-Id": "log-check-1",
            "User-Agent": 'fleet "app"/2',
        },
    )
    assert given.status == 200 and given.headers["x-request-id"] == "log-check-1"
    [line] = proxy.access_lines("log-check-1")
    assert set(line) == ACCESS_FIELDS, line
    assert line["type"] == "access" and line["method"] == "POST"
    assert line["path"] == "/v1/dice/roll" and line["query"] == "table=7"
    assert line["status"] == 200 and line["bytes"] == len(given.body)
    assert line["upstream_status"] == "200"
    # Each to the millisecond, measured apart: gunicorn's time may round above nginx's.
    assert 0 <= float(line["upstream_response_time"]) < 35 and 0 <= line["request_time"] < 35
    assert line["remote"] == "127.0.0.1" and line["user_agent"] == 'fleet "app"/2'
    assert line["forwarded_for"] == ""
    assert line["time"].startswith(("20", "21"))

    # An id the app will not take (it could forge a log line) is replaced, and the log
    # has the replacement, the one the answer carries.
    forged = proxy.request("GET", "/nowhere", headers={"X-Request-Id": 'x" injected="1'})
    assert forged.status == 404 and forged.headers["x-request-id"] != 'x" injected="1'
    [line] = proxy.access_lines(forged.headers["x-request-id"])
    assert line["status"] == 404 and line["path"] == "/nowhere" and line["query"] == ""
    assert not proxy.access_lines('x" injected="1', timeout=0)

    # nginx's own refusal: its id, its status, nothing passed on.
    refused = proxy.request("GET", "/v1/rulesets/" + "a" * 5000)
    assert refused.status == 414
    [line] = proxy.access_lines(refused.headers["x-request-id"])
    assert line["status"] == 414 and line["upstream_response_time"] == ""
    # Not even a request line: still one line, with the id of nginx's answer.
    garbage = exchange(proxy.port, b"GARBAGE\r\n\r\n")
    assert garbage.status == 400
    [line] = proxy.access_lines(garbage.headers["x-request-id"])
    assert line["status"] == 400 and line["path"] == line["query"] == ""


# --- errors nginx writes itself are problems too ---------------------------------------------


def test_a_body_over_64_kb_is_a_413_problem_from_nginx(proxy: Proxy) -> None:
    """nginx's limit is the app's own (64 KB), so nginx refuses every body the app would."""
    big = b"[" + b"1," * (MAX_BODY_BYTES // 2) + b"1]"
    assert MAX_BODY_BYTES < len(big) < 2 * MAX_BODY_BYTES
    answer = proxy.request(
        "POST", "/v1/dice/roll", raw=big, headers={"Content-Type": "application/json"}
    )
    assert_problem(answer, 413, "body-too-large")
    assert answer.headers["server"] == "nginx"
    # Sent chunked (no length said up front), the same.
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (big[:40_000], big[40_000:]))
    raw = (
        b"POST /v1/dice/roll HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked + b"0\r\n\r\n"
    )
    assert_problem(exchange(proxy.port, raw), 413, "body-too-large")


def test_a_request_line_over_4_kb_is_a_414_problem(proxy: Proxy) -> None:
    answer = proxy.request("GET", "/v1/rulesets/" + "a" * 5000)
    assert_problem(answer, 414, "uri-too-long")


def test_a_header_over_4_kb_is_a_431_problem(proxy: Proxy) -> None:
    answer = proxy.request("GET", "/readyz", headers={"X-Big": "a" * 5000})
    assert_problem(answer, 431, "header-too-large")


@pytest.mark.parametrize(
    "raw",
    [
        b"GARBAGE\r\n\r\n",
        b"GET /readyz HTTP/1.1\r\n\r\n",  # no Host
        b"GET /readyz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        b"POST /v1/dice/roll HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
        b"POST /v1/dice/roll HTTP/1.1\r\nHost: a\r\n"
        b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        b"POST /v1/dice/roll HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ],
    ids=["garbage", "no-host", "two-hosts", "negative-length", "two-lengths", "bad-chunk"],
)
def test_a_malformed_request_is_a_400_problem_from_nginx(proxy: Proxy, raw: bytes) -> None:
    answer = exchange(proxy.port, raw)
    assert_problem(answer, 400, "malformed-request")
    assert answer.headers["server"] == "nginx"


def _request(
    head: bytes, body: bytes = b"", method: bytes = b"POST", target: bytes = b"/v1/dice/roll"
) -> bytes:
    return (
        method
        + b" "
        + target
        + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        + head
        + b"\r\n"
        + body
    )


JSON = b"Content-Type: application/json\r\n"
# Every refusal a client can reach through the sidecar, and its status and kind: nginx's
# own (its limits are at or below gunicorn's and the app's) or, for what nginx passes on
# and gunicorn refuses, gunicorn's own problem.
REFUSALS: dict[str, tuple[bytes, int, str]] = {
    "more headers than nginx holds": (
        _request(b"A: b\r\n" * 5000, method=b"GET", target=b"/healthz"),
        431,
        "header-too-large",
    ),
    "a 300-character method": (_request(b"", method=b"A" * 300), 400, "malformed-request"),
    "a 2-character method": (_request(b"", method=b"AB"), 400, "malformed-request"),
    "raw 0xff bytes in the path": (
        _request(b"", method=b"GET", target=b"/\xff\xfe"),
        400,
        "malformed-request",
    ),
    "an over-long request line": (
        _request(b"", method=b"GET", target=b"/" + b"a" * 5000),
        414,
        "uri-too-long",
    ),
    "an over-size header": (
        _request(b"X-Big: " + b"a" * 5000 + b"\r\n", method=b"GET", target=b"/healthz"),
        431,
        "header-too-large",
    ),
    "two Content-Lengths": (
        _request(JSON + b"Content-Length: 2\r\nContent-Length: 3\r\n", b"{} "),
        400,
        "malformed-request",
    ),
    "Content-Length with Transfer-Encoding": (
        _request(
            JSON + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", b"2\r\n{}\r\n0\r\n\r\n"
        ),
        400,
        "malformed-request",
    ),
    "Transfer-Encoding: gzip": (
        _request(JSON + b"Transfer-Encoding: gzip\r\n", b"{}"),
        501,
        "not-implemented",
    ),
    "a bad chunk": (
        _request(JSON + b"Transfer-Encoding: chunked\r\n", b"zz\r\n{}\r\n0\r\n\r\n"),
        400,
        "malformed-request",
    ),
    "an over-size body": (
        _request(
            JSON + b"Content-Length: %d\r\n" % (MAX_BODY_BYTES + 1), b"1" * (MAX_BODY_BYTES + 1)
        ),
        413,
        "body-too-large",
    ),
    # nginx passes this one on; gunicorn refuses it, with its own problem.
    "a control byte in a header": (
        _request(b"X-Note: a\x01b\r\n", method=b"GET", target=b"/healthz"),
        400,
        "malformed-request",
    ),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_every_refusal_through_the_sidecar_is_a_small_problem(proxy: Proxy, name: str) -> None:
    raw, status, kind = REFUSALS[name]
    answer = exchange(proxy.port, raw)
    assert_problem(answer, status, kind)
    assert int(answer.headers["content-length"]) == len(answer.body) < 300, answer.body
    assert answer.headers["x-request-id"]
    # One request id, whoever wrote the answer (nginx adds one only where none came).
    assert raw_header_count(proxy.port, raw, b"x-request-id") == 1


def raw_header_count(port: int, raw: bytes, name: bytes) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head = data.partition(b"\r\n\r\n")[0].lower()
    return sum(line.startswith(name + b":") for line in head.split(b"\r\n"))


@pytest.mark.parametrize("count", [97, 150, 900])
def test_many_headers_reach_the_app_through_the_sidecar(proxy: Proxy, count: int) -> None:
    """gunicorn takes whatever header count nginx passes on (its limit is above what
    nginx's buffers hold), so no header count earns gunicorn's refusal."""
    answer = exchange(proxy.port, _request(b"A: b\r\n" * count, method=b"GET", target=b"/healthz"))
    assert answer.status == 200, answer.body[:200]


def test_the_apps_own_problems_pass_through_the_sidecar_untouched(
    proxy: Proxy, app: Server
) -> None:
    """No interception: the app's 400 (a repeated member, named in errors), 404, 405, 415
    and 422 reach the client as the app wrote them."""
    for method, path, body, kind in (
        ("POST", "/v1/dice/roll", b'{"notation": "3d6", "notation": "2d6"}', "application/json"),
        ("GET", "/v1/rulesets/nope", None, None),
        ("DELETE", "/v1/dice/roll", None, None),
        ("POST", "/v1/dice/roll", b"x", "text/plain"),
        ("POST", "/v1/dice/roll", b'{"notation": 7}', "application/json"),
    ):
        headers = {"Content-Type": kind} if kind else {}
        direct = app.request(method, path, raw=body, headers=headers)
        through = proxy.request(method, path, raw=body, headers=headers)
        assert direct.status >= 400 and through.status == direct.status
        assert through.headers["content-type"] == "application/problem+json"
        assert through.body == direct.body, (through.body, direct.body)
        assert through.headers.get("allow") == direct.headers.get("allow")


def test_two_content_types_reach_the_app_as_one(proxy: Proxy, app: Server) -> None:
    """gunicorn refuses a repeated Content-Type with a 400 of its own (and used to lose its
    worker to it); nginx passes exactly one on, so the app answers with its own problem."""
    workers = app.workers()
    raw = (
        b"POST /v1/dice/roll HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
        b"Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
    )
    answer = exchange(proxy.port, raw)
    assert answer.status == 422 and answer.headers["content-type"] == "application/problem+json"
    assert app.workers() == workers


def test_the_app_down_is_a_502_problem(tmp_path: Path) -> None:
    down = start_nginx(upstream=free_port())  # nothing listens there
    try:
        answer = down.request("GET", "/v1/rulesets")
        assert_problem(answer, 502, "unavailable")
        assert answer.headers["retry-after"] == "1"
    finally:
        stop_nginx(down)


# --- a request rate per client ---------------------------------------------------------------


def test_a_client_past_its_rate_gets_429_problems_and_others_do_not(proxy: Proxy) -> None:
    """100 requests at once from one address (127.0.0.2): the burst passes, the rest are 429
    problems with Retry-After; meanwhile another address (127.0.0.1) is served."""
    request = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    began = time.monotonic()
    with ExitStack() as stack:
        sockets = []
        for _ in range(100):
            sock = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            sock.bind(("127.0.0.2", 0))
            sock.settimeout(20)
            sock.connect(("127.0.0.1", proxy.port))
            sock.sendall(request)
            sockets.append(sock)
        sent_in = time.monotonic() - began
        answers = [read_answer(sock) for sock in sockets]
    other = proxy.request("GET", "/healthz")
    assert other.status == 200

    passed = [a for a in answers if a.status == 200]
    refused = [a for a in answers if a.status == 429]
    assert len(passed) + len(refused) == len(answers), {a.status for a in answers}
    # The burst and what the rate refilled while the requests went out, no more.
    assert BURST <= len(passed) <= BURST + 1 + RATE_PER_SECOND * sent_in + 1, (
        len(passed),
        sent_in,
    )
    for answer in refused:
        document = assert_problem(answer, 429, "rate-limited")
        assert "at most 20 a second" in document["detail"]
        assert answer.headers["retry-after"] == "1"


def test_the_advisor_has_a_tighter_rate_of_its_own(proxy: Proxy) -> None:
    """20 advice requests at once from one address (127.0.0.3): its own burst of 4 passes
    (to the app, which refuses this state: a sunk ship, cheap), the rest are 429 problems
    that name the advisor's rate; the same address is still served everywhere else."""
    body = json.dumps({"state": {"ship": "none"}}).encode()
    request = (
        b"POST /v1/rulesets/salvo-solo/advice HTTP/1.1\r\nHost: localhost\r\n"
        b"Content-Type: application/json\r\nConnection: close\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    began = time.monotonic()
    with ExitStack() as stack:
        sockets = []
        for _ in range(20):
            sock = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            sock.bind(("127.0.0.3", 0))
            sock.settimeout(20)
            sock.connect(("127.0.0.1", proxy.port))
            sock.sendall(request)
            sockets.append(sock)
        sent_in = time.monotonic() - began
        answers = [read_answer(sock) for sock in sockets]

    passed = [a for a in answers if a.status == 422]  # the app's answer to a bad state
    refused = [a for a in answers if a.status == 429]
    assert len(passed) + len(refused) == len(answers), {a.status for a in answers}
    assert ADVICE_BURST <= len(passed) <= ADVICE_BURST + 1 + ADVICE_RATE_PER_SECOND * sent_in + 1
    assert len(passed) < BURST  # the general limit alone would have let all 20 through
    for answer in refused:
        document = assert_problem(answer, 429, "rate-limited")
        assert "advice" in document["detail"] and "2 a second" in document["detail"]
        assert answer.headers["retry-after"] == "1"
    elsewhere = exchange(
        proxy.port,
        b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        source="127.0.0.3",
    )
    assert elsewhere.status == 200


def test_the_verifier_takes_a_whole_game_and_has_a_rate_of_its_own(proxy: Proxy) -> None:
    """A log past 64 KB passes to the app (it answers 200 with its report, or 422 here for
    a list of non-objects); past 1 MB nginx refuses it with the verifier's own words; and
    from one address (127.0.0.5) its burst of 4 passes, the rest are 429 naming its rate."""
    big = b"[" + b",".join([b"1"] * 60_000) + b"]"  # 120 KB, not a log: the app's 422
    head = (
        b"POST /v1/receipts/verify HTTP/1.1\r\nHost: localhost\r\n"
        b"Content-Type: application/json\r\nConnection: close\r\n"
    )
    answer = exchange(proxy.port, head + f"Content-Length: {len(big)}\r\n\r\n".encode() + big)
    assert answer.status == 422, answer.body[:300]
    huge = b"[" + b" " * (1024 * 1024) + b"]"
    answer = exchange(proxy.port, head + f"Content-Length: {len(huge)}\r\n\r\n".encode() + huge)
    document = assert_problem(answer, 413, "body-too-large")
    assert document["detail"] == "The body is over 1 MB."
    small = b"{}"
    request = head + f"Content-Length: {len(small)}\r\n\r\n".encode() + small
    answers = [exchange(proxy.port, request, source="127.0.0.5") for _ in range(12)]
    refused = [a for a in answers if a.status == 429]
    assert 12 - ADVICE_BURST - 3 <= len(refused) <= 12 - ADVICE_BURST
    for answer in refused:
        detail = assert_problem(answer, 429, "rate-limited")["detail"]
        assert "checks of a log" in detail and "2 a second" in detail


# --- gzip for JSON ---------------------------------------------------------------------------


def test_json_answers_are_gzipped_for_clients_that_accept_it(proxy: Proxy) -> None:
    document = proxy.request("GET", "/openapi.json").json()
    post = document["paths"]["/v1/rulesets/salvo-solo/turn"]["post"]
    example = post["requestBody"]["content"]["application/json"]["example"]

    plain = proxy.request("POST", "/v1/rulesets/salvo-solo/turn", example)
    assert plain.status == 200 and "content-encoding" not in plain.headers
    packed = proxy.request(
        "POST", "/v1/rulesets/salvo-solo/turn", example, headers={"Accept-Encoding": "gzip"}
    )
    assert packed.status == 200 and packed.headers["content-encoding"] == "gzip"
    assert packed.headers["content-type"] == "application/json"
    assert "Accept-Encoding" in packed.headers["vary"]
    assert json.loads(gzip.decompress(packed.body)) == plain.json()
    assert len(plain.body) > 4000 and len(packed.body) < len(plain.body) / 2

    # Problems too, when they are long enough to gain (a 404 naming a long ruleset). nginx
    # compresses 200, 403 and 404 answers only: a 422 goes out as it is.
    problem = proxy.request(
        "GET", "/v1/rulesets/" + "a" * 2000, headers={"Accept-Encoding": "gzip"}
    )
    assert problem.status == 404 and problem.headers["content-encoding"] == "gzip"
    assert problem.headers["content-type"] == "application/problem+json"
    assert json.loads(gzip.decompress(problem.body))["status"] == 404


# --- slow clients ----------------------------------------------------------------------------


def _slow_clients(port: int, count: int, stack: ExitStack, with_body: bool) -> None:
    """Connections that send part of a request and then nothing (until closed)."""
    head, body = roll_request()
    for _ in range(count):
        sock = stack.enter_context(
            socket.create_connection(
                ("127.0.0.1", port), timeout=5, source_address=(SLOW_SOURCE, 0)
            )
        )
        sock.sendall(head + body[:5] if with_body else head[:30])


@pytest.mark.parametrize("count", [2, SLOW_CLIENTS])
def test_slow_clients_stop_a_bare_gunicorn(tmp_path: Path, count: int) -> None:
    """What the sidecar is for: straight at gunicorn's two sync workers, two slow clients
    (or the sidecar test's number) leave nothing to answer a normal request."""
    nginx_binary()  # the comparison belongs with the sidecar's tests
    with running(tmp_path, workers=2) as bare, ExitStack() as stack:
        assert bare.request("GET", "/readyz").status == 200
        _slow_clients(bare.port, count, stack, with_body=False)
        with pytest.raises(TimeoutError):
            bare.request("GET", "/readyz", timeout=3)


def test_slow_clients_through_the_sidecar_are_harmless(proxy: Proxy) -> None:
    with ExitStack() as stack:
        _slow_clients(proxy.port, SLOW_CLIENTS, stack, with_body=False)
        _slow_clients(proxy.port, SLOW_CLIENTS, stack, with_body=True)
        head, body = roll_request()
        for _ in range(3):
            assert proxy.request("GET", "/readyz", timeout=3).status == 200
            answer = proxy.request(
                "POST",
                "/v1/dice/roll",
                raw=body,
                headers={"Content-Type": "application/json"},
                timeout=3,
            )
            assert answer.status == 200


# --- last: every line the access log got over this module -------------------------------------


def test_every_access_line_of_this_module_is_json_with_the_fields(proxy: Proxy) -> None:
    """After the refusals, the malformed requests, the rate limits and the slow clients
    above, and bytes past ASCII here: each line nginx wrote is one JSON object of plain
    ASCII with the fields, numbers for status and bytes."""
    odd = {
        "a raw 0xff in the path": _request(b"", method=b"GET", target=b"/\xff?q=\xfe"),
        "UTF-8 in the user agent": _request(
            "User-Agent: Flottenf\u00fchrer\r\n".encode(), method=b"GET", target=b"/healthz"
        ),
    }
    ids = [exchange(proxy.port, raw).headers["x-request-id"] for raw in odd.values()]
    for request_id in ids:
        [line] = proxy.access_lines(request_id)
        assert "(not printable ASCII)" in (line["path"], line["user_agent"]), line
    text = (proxy.folder / "nginx.out").read_bytes().decode("ascii")
    for raw in text.splitlines():
        line = json.loads(raw)
        assert set(line) == ACCESS_FIELDS, line
        assert isinstance(line["status"], int) and isinstance(line["bytes"], int), line
        assert line["request_id"], line
