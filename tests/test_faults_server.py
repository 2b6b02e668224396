"""Faults on the real server, loopback only, each bounded in time.

- a worker killed with SIGKILL under load is replaced, and requests keep succeeding;
- SIGTERM lets the requests a worker has in hand finish, and under load answers every
  connection the server had accepted (none is reset);
- a flood of bad bodies never gets a 5xx (nor a traceback in the server's log);
- the dearest request of every operation, and every refusal at its dearest, is answered
  or refused by the same workers: none runs long enough for the server to replace it;
- a server setting that cannot be used stops the start in one line naming it.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.serving_helpers import (
    ROLL,
    Server,
    assert_one_line,
    refused,
    roll_request,
    running,
    stop,
)
from tests.worst_cases import WORST_CASES, Case

DEADLINE = 30.0  # seconds, for anything a test waits on


def wait_until(what: str, condition: Callable[[], bool], timeout: float = DEADLINE) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@dataclass
class Load:
    """Threads sending POST /v1/dice/roll back to back until stopped."""

    server: Server
    threads: int = 4
    ok: int = 0
    # Connections the server refused outright (nothing listens): never accepted, never lost.
    refused: int = 0
    failures: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _pool: list[threading.Thread] = field(default_factory=list)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                status = self.server.request("POST", "/v1/dice/roll", ROLL, timeout=10).status
                outcome = None if status == 200 else f"status {status}"
            except ConnectionRefusedError:
                with self._lock:
                    self.refused += 1
                time.sleep(0.01)
                continue
            except (OSError, http.client.HTTPException) as exc:
                # Reset, refused or timed out (OSError), or cut mid-answer by a killed
                # worker: IncompleteRead and RemoteDisconnected are HTTPExceptions.
                outcome = f"connection: {exc!r}"
            except Exception as exc:  # anything else is recorded, never a dead thread
                outcome = f"unexpected: {exc!r}"
            with self._lock:
                if outcome is None:
                    self.ok += 1
                else:
                    self.failures.append(outcome)

    def __enter__(self) -> Load:
        self._pool = [threading.Thread(target=self._run, daemon=True) for _ in range(self.threads)]
        for thread in self._pool:
            thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self._stop.set()
        for thread in self._pool:
            thread.join(timeout=15)

    def wait_for(self, successes: int) -> None:
        target = self.ok + successes
        wait_until(f"{successes} more successful requests", lambda: self.ok >= target)


def test_a_worker_killed_under_load_is_replaced_and_requests_keep_succeeding(
    tmp_path: Path,
) -> None:
    with running(tmp_path, workers=2) as srv, Load(srv) as load:
        load.wait_for(100)
        assert not load.failures, load.failures
        victim = min(srv.workers())
        os.kill(victim, signal.SIGKILL)
        wait_until(
            "a replacement worker",
            lambda: victim not in srv.workers() and len(srv.workers()) == 2,
        )
        load.wait_for(300)
        # A sync worker holds one request at a time: at most that one is lost, and only as a
        # cut connection (never an error status, nor a second request).
        lost = list(load.failures)
        assert len(lost) <= 1, lost
        assert load.refused == 0
        assert all(failure.startswith("connection: ") for failure in lost), lost
        srv.wait_for_workers(2)  # and the live-worker gauge is back to 2, not 3
    assert "Booting worker" in srv.stderr.read_text()


class _CutOnce:
    """Stands in for a server whose worker is killed mid-answer once, then serves."""

    def __init__(self) -> None:
        self.calls = 0

    def request(self, *_: Any, **__: Any) -> Any:
        self.calls += 1
        if self.calls == 1:
            raise http.client.IncompleteRead(b'{"res', 40)
        return type("Answer", (), {"status": 200})()


def test_the_load_survives_an_answer_cut_mid_way() -> None:
    # IncompleteRead is an HTTPException, not an OSError: it once ended a load thread.
    with Load(_CutOnce(), threads=1) as load:  # type: ignore[arg-type]
        load.wait_for(20)
    assert len(load.failures) == 1 and load.failures[0].startswith("connection: "), load.failures


def _listen_queue(port: int) -> int:
    """Connections waiting in the listening socket's accept queue (from /proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        local, state, queues = parts[1], parts[3], parts[4]
        if state == "0A" and int(local.split(":")[1], 16) == port:
            return int(queues.split(":")[1], 16)
    return 0


def test_sigterm_lets_the_requests_in_hand_finish(tmp_path: Path) -> None:
    with running(tmp_path, workers=2) as srv:
        head, body = roll_request()
        # One slow client per worker: each worker is now inside a request, reading its body.
        clients = []
        for _ in range(2):
            client = socket.create_connection(("127.0.0.1", srv.port), timeout=DEADLINE)
            client.sendall(head + body[:7])
            clients.append(client)
        wait_until("both workers to take a request", lambda: _listen_queue(srv.port) == 0)
        workers = srv.workers()

        srv.process.send_signal(signal.SIGTERM)
        wait_until("the master to start its shutdown", lambda: "term" in srv.stderr.read_text())
        time.sleep(0.3)  # let the workers receive their SIGTERM too
        assert srv.workers() == workers, "a worker left with a request in hand"

        answers = []
        for client in clients:
            client.sendall(body[7:])
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
            client.close()
            answers.append(answer)
        for answer in answers:
            head_part, _, payload = answer.partition(b"\r\n\r\n")
            assert head_part.startswith(b"HTTP/1.1 200"), answer[:200]
            assert json.loads(payload)["result"]["terms"][0]["notation"] == "3d6"
        srv.process.wait(timeout=DEADLINE)
        assert srv.process.returncode == 0
    log = srv.stderr.read_text()
    assert "SIGKILL" not in log and "WORKER TIMEOUT" not in log


def test_sigterm_under_load_answers_every_connection_it_accepted(tmp_path: Path) -> None:
    """Four threads send requests back to back; SIGTERM. Every connection the kernel had
    accepted for the server (in a worker's hands or still queued in the listen backlog) is
    answered, and new ones are refused: none is reset or cut. gunicorn alone used to
    reset the queued ones when its last worker closed the listening socket."""
    with running(tmp_path, workers=2) as srv, Load(srv) as load:
        load.wait_for(200)
        assert not load.failures, load.failures
        served_before = load.ok
        srv.process.send_signal(signal.SIGTERM)
        srv.process.wait(timeout=DEADLINE)
        # Nothing listens any more: every thread's next connection is refused.
        target = load.refused + load.threads
        wait_until("every thread to be refused", lambda: load.refused >= target, timeout=10)
    assert not load.failures, (load.failures, srv.logs())
    assert load.ok >= served_before
    assert srv.process.returncode == 0
    log = srv.stderr.read_text()
    assert "SIGKILL" not in log and "WORKER TIMEOUT" not in log, log[-3000:]


def test_a_reload_under_load_keeps_serving(tmp_path: Path) -> None:
    """A HUP swaps the workers (the old ones get SIGTERM) but not the listening socket: the
    old workers leave it to the new ones, so requests keep being served, none refused."""
    with running(tmp_path, workers=2) as srv, Load(srv) as load:
        load.wait_for(100)
        old = srv.workers()
        srv.process.send_signal(signal.SIGHUP)
        wait_until("new workers", lambda: len(srv.workers()) == 2 and not (srv.workers() & old))
        load.wait_for(200)
        assert not load.failures and load.refused == 0, (load.failures, load.refused)
        # The old workers did not drain: that is for a stop of the whole server.
        assert "queued connections" not in srv.stderr.read_text()


# --- a flood of bad bodies -------------------------------------------------------------------

NASTY_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    2**63,
    -(2**64),
    10**30,
    1.5,
    -0.0,
    1e308,
    "",
    " ",
    "\u0000",
    "\u202e",
    "x" * 5000,
    [],
    [None],
    {},
    {"": None},
    [[[[[]]]]],
    {"values": []},
    {"seed": "", "nonce": -1},
    {"values": [0, 7, 1000000]},
]

NASTY_BODIES: list[bytes] = [
    b"",
    b"{",
    b"}",
    b"[",
    b"null",
    b"[]",
    b"0",
    b'"text"',
    b"\xff\xfe\x00",
    b'{"a":1,"a":2}',
    b'{"notation": NaN}',
    b'{"notation": Infinity}',
    b'{"notation": 1e99999}',
    b'{"notation": "3d6", "dice": {"seed": "s", "nonce": 1e999}}',
    b'{"notation": "\\ud800"}',
    b'{"\\ud800": 1}',
    b'{"notation": "\\udfff\\ud800", "dice": {"seed": "\\ud83d"}}',
    b'{"notation": ' + b"1" * 5000 + b"}",
    b"[" * 30000 + b"]" * 30000,
    b'{"notation": ' + b"[" * 20000 + b"]" * 20000 + b"}",
    b'{"dice": ' + b'{"values": ' * 3000 + b"1" + b"}" * 3000 + b"}",
    b'{"notation": "' + b"a" * 70000 + b'"}',
    b"\x00" * 1000,
]


def _mutations(example: Any, rng: random.Random) -> Any:
    """The example with one member replaced, removed or added, somewhere in its tree."""
    if isinstance(example, dict) and example and rng.random() < 0.8:
        body = dict(example)
        key = rng.choice(list(body))
        choice = rng.random()
        if choice < 0.3:
            del body[key]
        elif choice < 0.5:
            body[rng.choice(["extra", "\u00e9", "", key.upper()])] = rng.choice(NASTY_VALUES)
        elif choice < 0.75:
            body[key] = rng.choice(NASTY_VALUES)
        else:
            body[key] = _mutations(body[key], rng)
        return body
    if isinstance(example, list) and example and rng.random() < 0.5:
        items = list(example)
        items[rng.randrange(len(items))] = rng.choice(NASTY_VALUES)
        return items
    return rng.choice(NASTY_VALUES)


def _bad_requests(examples: dict[str, Any], count: int) -> list[tuple[str, bytes, str]]:
    rng = random.Random(20261130)
    paths = sorted(examples)
    out: list[tuple[str, bytes, str]] = []
    for path in paths:
        for body in NASTY_BODIES:
            out.append((path, body, "application/json"))
    for _ in range(count):
        path = rng.choice(paths)
        body = json.dumps(_mutations(examples[path], rng)).encode()
        if rng.random() < 0.1:
            body = body[: rng.randrange(len(body) + 1)]  # cut short
        kind = rng.choices(
            ["application/json", "text/plain", "application/json; charset=latin-1"],
            [0.9, 0.05, 0.05],
        )[0]
        out.append((path, body, kind))
    return out


def test_a_flood_of_bad_bodies_never_gets_a_5xx(tmp_path: Path) -> None:
    with running(tmp_path, workers=2) as srv:
        document = srv.request("GET", "/openapi.json").json()
        examples = {}
        for path, item in document["paths"].items():
            post = item.get("post")
            if post and "{" not in path:
                media = post["requestBody"]["content"]["application/json"]
                examples[path] = media.get("example", {})
        assert len(examples) >= 10, sorted(examples)
        flood = _bad_requests(examples, count=1500)

        def send(item: tuple[str, bytes, str]) -> tuple[str, bytes, int, str]:
            path, body, kind = item
            answer = srv.request("POST", path, raw=body, headers={"Content-Type": kind})
            return path, body, answer.status, answer.headers.get("content-type", "")

        with ThreadPoolExecutor(max_workers=4) as pool:
            answers = list(pool.map(send, flood))
    server_errors = [(p, b[:120], s) for p, b, s, _ in answers if s >= 500]
    assert not server_errors, server_errors[:10]
    refusals = [a for a in answers if a[2] >= 400]
    assert len(refusals) > len(flood) // 2
    assert all(kind == "application/problem+json" for *_, kind in refusals)
    log = srv.stderr.read_text()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
    assert stop(srv) == 0


def test_the_dearest_requests_never_cost_a_worker(tmp_path: Path) -> None:
    """Every case of tests/worst_cases.py (each operation at its limits, every notation form
    at the edge of the work budget, the refusals at their dearest), sent two at a time to a
    server whose timeout is a tenth of the production one: none is a 5xx, each is answered
    as written, and no worker is replaced (the timeout would kill one that ran past it)."""
    cases = [c for c in WORST_CASES if c.method == "POST" and not callable(c.body)]
    with running(tmp_path, workers=2, cmd_args="--timeout 3") as srv:
        before = srv.workers()

        def send(case: Case) -> tuple[str, int, int]:
            answer = srv.request("POST", case.path, case.body, timeout=DEADLINE)
            return f"{case.path} ({case.limit[:80]})", case.status, answer.status

        with ThreadPoolExecutor(max_workers=2) as pool:
            answers = list(pool.map(send, cases))
        after = srv.workers()
    assert len(answers) > 100
    assert [a for a in answers if a[2] >= 500] == []
    assert [a for a in answers if a[1] != a[2]] == []
    assert after == before
    log = srv.stderr.read_text()
    assert "WORKER TIMEOUT" not in log and "Traceback" not in log, log[-3000:]


# --- a server setting that cannot be used ---------------------------------------------------

# gunicorn logs "Starting gunicorn <version>" before the config's on_starting refuses these.
STARTING = "[INFO] Starting gunicorn"

SERVER_FAULTS = [
    ("PORT", "http", "is not a port number (1 to 65535)"),
    ("PORT", "0", "is not a port number (1 to 65535)"),
    ("PORT", "65536", "is not a port number (1 to 65535)"),
    ("HOST", "no-such-host.invalid", "is not an address this machine can listen on"),
    ("HOST", "[::1", "is not an address this machine can listen on"),
    ("WEB_CONCURRENCY", "0", "is not a number of worker processes (1 or more)"),
    ("LOG_LEVEL", "loud", "is not a log level"),
    ("ACCESS_LOG", "quiet", "is neither on nor off"),
]


@pytest.mark.parametrize(("name", "value", "says"), SERVER_FAULTS)
def test_a_server_setting_that_cannot_be_used_stops_the_start_in_one_line(
    tmp_path: Path, name: str, value: str, says: str
) -> None:
    refusal = refused(tmp_path, {name: value})
    line = assert_one_line(refusal, name, STARTING)
    assert f"{value!r} {says}" in line
    assert "Listening at" not in refusal.stderr  # refused before any socket was opened


def _loopback_v6() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
    except OSError:
        return False
    return True


def _ready_over_v6(server: Server) -> int | None:
    """The status of GET /readyz over ::1, or None while nothing answers there."""
    conn = http.client.HTTPConnection("::1", server.port, timeout=5)
    try:
        conn.request("GET", "/readyz")
        return conn.getresponse().status
    except OSError:
        return None
    finally:
        conn.close()


@pytest.mark.skipif(not _loopback_v6(), reason="no IPv6 loopback here")
def test_an_ipv6_host_is_served(tmp_path: Path) -> None:
    """HOST=::1 once reached gunicorn unbracketed, which read its last group as the port."""
    ready = lambda server, count: _ready_over_v6(server) == 200  # noqa: E731
    with running(tmp_path, workers=1, env={"HOST": "::1"}, ready=ready) as server:
        assert _ready_over_v6(server) == 200
