"""Start the real server (gunicorn with deploy/gunicorn.conf.py) on loopback, and stop it.

Every server gets a free port, its own metrics folder and a bounded start; `running()`
always stops it, killing the whole process group if a graceful stop takes too long.
"""

from __future__ import annotations

import functools
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CONFIG = "deploy/gunicorn.conf.py"
START_TIMEOUT = 30.0
STOP_TIMEOUT = 30.0

ROLL = {"notation": "3d6", "dice": {"seed": "serving", "nonce": 1}}


def roll_request() -> tuple[bytes, bytes]:
    """The head and the body of a raw ``POST /v1/dice/roll``, for a client that sends slowly."""
    body = json.dumps(ROLL).encode()
    head = (
        "POST /v1/dice/roll HTTP/1.1\r\nHost: localhost\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    return head, body


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (gunicorn's workers), read from /proc."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: split after it.
        fields_after_name = stat.rsplit(")", 1)[1].split()
        if fields_after_name[0] != "Z" and int(fields_after_name[1]) == pid:
            found.add(int(entry))
    return found


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    metrics_dir: Path
    stdout: Path
    stderr: Path
    workers_wanted: int
    env: dict[str, str] = field(default_factory=dict)
    # Every worker has booted: by default, the live-worker gauge says so.
    ready: Callable[[Server, int], bool] = lambda server, count: (
        server.metric("firecontrol_workers") == count
    )

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        timeout: float = 10.0,
    ) -> Response:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        sent = dict(headers or {})
        if body is not None and raw is None:
            sent.setdefault("Content-Type", "application/json")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=data, headers=sent)
            answer = conn.getresponse()
            return Response(
                answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
            )
        finally:
            conn.close()

    def workers(self) -> set[int]:
        return children(self.process.pid)

    def wait_for_workers(self, count: int, timeout: float = START_TIMEOUT) -> set[int]:
        """Wait until ``count`` workers run and each answers (every one has booted)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.logs()
            pids = self.workers()
            if len(pids) == count and self.ready(self, count):
                return pids
            time.sleep(0.1)
        raise AssertionError(f"{count} workers did not come up in {timeout} s\n{self.logs()}")

    def metric(self, sample: str) -> float | None:
        """One sample's value from /metrics (None if absent or the server does not answer)."""
        try:
            text = self.request("GET", "/metrics", timeout=5).body.decode()
        except OSError:
            return None
        return sample_value(text, sample)

    def logs(self) -> str:
        return (
            f"--- stdout ---\n{self.stdout.read_text()[-4000:]}\n"
            f"--- stderr ---\n{self.stderr.read_text()[-4000:]}"
        )


def sample_value(text: str, sample: str) -> float | None:
    for line in text.splitlines():
        if line.startswith(sample + " ") or line == sample:
            return float(line.rsplit(" ", 1)[1])
    return None


def server_env(tmp_path: Path, port: int, workers: int, cmd_args: str = "") -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("FIRE_CONTROL_", "FIRECONTROL_", "GUNICORN_", "PROMETHEUS_"))
    }
    env.update(
        PORT=str(port),
        HOST="127.0.0.1",
        WEB_CONCURRENCY=str(workers),
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
        FIRECONTROL_DATA_DIR=str(tmp_path / "data"),  # keys made on first start
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
    )
    if cmd_args:
        env["GUNICORN_CMD_ARGS"] = cmd_args
    return env


def start(
    tmp_path: Path,
    workers: int = 2,
    cmd_args: str = "",
    command: Sequence[str] | None = None,
    env: dict[str, str] | None = None,
    ready: Callable[[Server, int], bool] | None = None,
) -> Server:
    port = free_port()
    full_env = server_env(tmp_path, port, workers, cmd_args)
    full_env.update(env or {})
    stdout, stderr = tmp_path / "server.out", tmp_path / "server.err"
    argv = list(command) if command else [str(BIN / "gunicorn"), "-c", CONFIG]
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            argv, cwd=ROOT, env=full_env, stdout=out, stderr=err, start_new_session=True
        )
    server = Server(
        process,
        port,
        Path(full_env["PROMETHEUS_MULTIPROC_DIR"]),
        stdout,
        stderr,
        workers,
        env or {},
    )
    if ready is not None:
        server.ready = ready
    try:
        server.wait_for_workers(workers)
    except BaseException:
        stop(server)
        raise
    return server


def stop(server: Server) -> int | None:
    """SIGTERM the master; past STOP_TIMEOUT kill its whole process group."""
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=10)
    # Workers orphaned by a killed master are in the same group: never leave them behind.
    with suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGKILL)
    return server.process.returncode


@contextmanager
def running(tmp_path: Path, **kwargs: Any) -> Iterator[Server]:
    server = start(tmp_path, **kwargs)
    try:
        yield server
    finally:
        stop(server)


# --- a start that must be refused -----------------------------------------------------------


@dataclass
class Refusal:
    returncode: int
    stderr: str

    def lines(self, *own: str) -> list[str]:
        """stderr's lines that say something, less gunicorn's own lines that hold any of
        ``own`` (its INFO line when it starts, for a fault found as it starts)."""
        return [
            line
            for line in self.stderr.splitlines()
            if line.strip() and not any(text in line for text in own)
        ]


def refused(
    tmp_path: Path,
    env: dict[str, str | None],
    command: Sequence[str] | None = None,
    timeout: float = START_TIMEOUT,
) -> Refusal:
    """Start the server as ``start`` does, with settings it must refuse: it has to exit by
    itself within ``timeout`` (else its process group is killed and the test fails). A
    variable given as None is unset."""
    full_env = server_env(tmp_path, free_port(), 1)
    for name, value in env.items():
        if value is None:
            full_env.pop(name, None)
        else:
            full_env[name] = value
    argv = list(command) if command else gunicorn_command()
    process = subprocess.Popen(
        argv,
        cwd=ROOT,
        env=full_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired as late:
        os.killpg(process.pid, signal.SIGKILL)
        _, stderr = process.communicate(timeout=10)
        raise AssertionError(
            f"the server did not refuse to start in {timeout} s\n{stderr}"
        ) from late
    with suppress(ProcessLookupError):  # nothing of it may outlive the test
        os.killpg(process.pid, signal.SIGKILL)
    return Refusal(process.returncode, stderr)


def assert_one_line(refusal: Refusal, setting: str, *own: str) -> str:
    """The start failed with one line naming ``setting``, and no traceback; returns it."""
    assert refusal.returncode != 0, refusal.stderr
    assert "Traceback" not in refusal.stderr, refusal.stderr
    lines = refusal.lines(*own)
    assert len(lines) == 1, refusal.stderr
    assert lines[0].startswith(f"Error: {setting}: "), refusal.stderr
    return lines[0]


_MOUNT_READ_ONLY = 'mount -t tmpfs -o ro tmpfs "$0" && exec "$@"'


@functools.cache
def _mount_namespaces() -> bool:
    argv = ["unshare", "--user", "--map-root-user", "--mount", "true"]
    try:
        return subprocess.run(argv, capture_output=True, timeout=30, check=False).returncode == 0
    except OSError:
        return False


def where_read_only(folder: Path, argv: Sequence[str]) -> list[str]:
    """``argv`` run where ``folder`` (made empty here) is read-only to it, for real. Another
    user than root: its permission bits do it. Root ignores those: the command then runs in
    a mount namespace of its own (``unshare``) where ``folder`` is an empty read-only tmpfs,
    which nothing outside it sees and which goes with it."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return list(argv)
    if not _mount_namespaces():
        pytest.skip("root ignores permission bits, and no mount namespace can be made here")
    return [
        "unshare",
        "--user",
        "--map-root-user",
        "--mount",
        "sh",
        "-c",
        _MOUNT_READ_ONLY,
        str(folder),
        *argv,
    ]


def gunicorn_command() -> list[str]:
    return [str(BIN / "gunicorn"), "-c", CONFIG]
