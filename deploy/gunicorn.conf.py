"""Production gunicorn settings: `gunicorn -c deploy/gunicorn.conf.py` serves service:create_app().

The container runs exactly this (see the Dockerfile), `make serve` too. Everything an
operator tunes comes from the environment:

- PORT (8080) and HOST (0.0.0.0): where to listen.
- WEB_CONCURRENCY (2): worker processes; give one per CPU core the pod may use.
- PROMETHEUS_MULTIPROC_DIR: the folder the workers share their metrics through. Unset, a
  private temporary folder is made (and removed at exit).
- GUNICORN_CMD_ARGS: any gunicorn flag, over this file (the tests use it).
- LOG_LEVEL (info): gunicorn's own log level.
- ACCESS_LOG (on): gunicorn's JSON access log on stdout, one line a request; "off" where a
  proxy in front writes it instead (the pod's nginx sidecar does, with the same request id).

A setting that cannot be used ends the start with one line on stderr, "Error: <SETTING>:
<what is wrong>; <what to do>", and exit status 1: the app's own (keys, data folder, metrics
folder) as the master builds it, the server's (above) as it starts, in ``on_starting``.
Here they are read leniently, so that gunicorn's own checks, which come first, never see a
bad value: those name no variable, or end in a traceback.

Why sync workers: every request is short CPU work (validation, a few dice, JSON), with no
I/O to wait on, so one process per core doing one request at a time uses the cores fully
and gave the steadiest throughput and latency here. A sync worker is held for as long as
its client takes to send the request and read the answer, so a slow or stalled client
could tie up a worker: in the deployment an nginx sidecar buffers whole requests and
responses in front of it (deploy/k8s/base/nginx.conf), and only nginx talks to the world.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import datetime
import gc
import json
import mmap
import os
import re
import shutil
import socket
import struct
import sys
import tempfile
import time
from typing import Any

from gunicorn import util
from gunicorn.glogging import Logger
from gunicorn.util import parse_address
from gunicorn.workers.sync import SyncWorker


def _env(name: str, default: str) -> str:
    """A server setting from the environment; set empty, it is unset."""
    return os.environ.get(name) or default


def _port(text: str) -> int:
    return int(text) if re.fullmatch(r"[0-9]{1,5}", text) and 1 <= int(text) <= 65535 else 0


def _count(text: str) -> int:
    return int(text) if re.fullmatch(r"[0-9]{1,6}", text.strip()) else 0


def _host(text: str) -> str:
    """HOST without the brackets an IPv6 address may come in."""
    return text[1:-1] if text.startswith("[") and text.endswith("]") else text


def _bind(host: str, port: str) -> str | None:
    """HOST and PORT as gunicorn's address; None if gunicorn could not read it."""
    address = _host(host)
    if ":" in address:  # IPv6: in brackets, or gunicorn reads its last group as the port
        address = f"[{address}]"
    text = f"{address}:{_port(port)}"
    try:
        parse_address(text)
    except RuntimeError:
        return None
    return text if _port(port) else None


wsgi_app = "service:create_app()"
# A bad HOST or PORT gives way to a stand-in here, refused in on_starting before any
# socket opens: gunicorn reads the address before that, and its own refusal names neither.
bind = [_bind(_env("HOST", "0.0.0.0"), _env("PORT", "8080")) or "127.0.0.1:8080"]
# gunicorn refuses a negative count itself, naming no variable: 1 stands in for any bad
# value until on_starting refuses it. (A count gunicorn cannot read as an integer at all
# stops gunicorn before it reads this file: see deploy/README.md.)
workers = max(_count(_env("WEB_CONCURRENCY", "2")), 1)
# worker_class: DrainingSyncWorker (below), gunicorn's sync worker that, when the server
# stops, also answers the connections still queued in the listen backlog.

# A request takes milliseconds; a worker silent for 30 s is stuck and gets replaced.
timeout = 30
# On SIGTERM the workers finish the request in hand and the connections already queued,
# refusing new ones; the pod's terminationGracePeriodSeconds leaves room for this plus the
# preStop pause.
graceful_timeout = 20
# Recycle each worker now and then, at different moments, as a guard against slow leaks.
# Forking from the preloaded master makes a recycle cost a few milliseconds, but the new
# worker starts with none of the odds and advice tables its predecessor had built (a cold
# advice request costs about 1.5 times a warm one). Measured: a worker at full load serves
# about 1,500 requests a second (the 60 s soak, docs/performance.md), and the bare
# framework's ceiling is about 2,500 a worker; memory stayed flat over the soak and the
# per-worker tables are bounded (4,096 entries a cache). So 10,000,000 requests: a worker
# recycles about every 2 hours at full load, and not more often than every hour or so
# even at the framework's ceiling (at 50,000 it was every 35 s). The jitter (up to 10%
# more) keeps the workers from recycling together: minutes apart at full load.
max_requests = 10_000_000
max_requests_jitter = 1_000_000
# Import the app once in the master: a broken build fails at start instead of workers
# crash-looping, workers share its memory, and a replaced worker serves at once.
preload_app = True

# gunicorn 25.1+ opens a control socket under $HOME by default; a read-only root
# filesystem has no room for it, and nothing here uses it.
control_socket_disable = True
# The worker heartbeat file: tmpfs, never a slow or read-only disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# Above nginx's own limits, so that whatever nginx passes on gunicorn takes, and nginx is
# the one that refuses (with a problem): nginx takes a request line and a header line of
# 4 KB at most, and 17 KB of request line and headers in all (client_header_buffer_size
# plus large_client_header_buffers), so at most 5,800 header lines of 3 bytes ("a:" and a
# line feed), plus the 5 it sets itself. gunicorn alone, on its own, refuses past these
# with a problem of its own (below). Bodies are capped by the app (64 KB, 413) and by nginx.
limit_request_line = 8190  # gunicorn's most
limit_request_fields = 6000
limit_request_field_size = 8190

# Access log: one JSON object per line on stdout; gunicorn's own messages go to stderr.
# Writing it costs a worker up to a tenth or more of its CPU on cheap requests (JSON, a
# timestamp, a write), so where nginx sits in front and writes one line a request itself
# (deploy/k8s/base/nginx.conf), ACCESS_LOG=off turns this one off; alone, it stays on.
# Anything but on or off is refused in on_starting; until then it counts as on.
_ACCESS_LOG_CHOICES = ("on", "off")
_access_log = _env("ACCESS_LOG", "on")
accesslog = None if _access_log.strip().lower() == "off" else "-"
errorlog = "-"
loglevel = _env("LOG_LEVEL", "info")


def _status_of(resp: Any) -> int | None:
    """The response's status code. gunicorn's own error response (written when it cannot
    parse a request: a duplicate Content-Length, a bad chunk...) never went through
    start_response, so it has no ``status_code``, only ``status`` ("400 Bad Request")."""
    code = getattr(resp, "status_code", None)
    if isinstance(code, int):
        return code
    status = getattr(resp, "status", None)
    if isinstance(status, int):
        return status
    if isinstance(status, str | bytes):
        first = status.split(None, 1)[:1]
        if first and first[0].isdigit():
            return int(first[0])
    return None


def _header(resp: Any, wanted: str) -> str | None:
    for pair in getattr(resp, "headers", None) or ():
        if isinstance(pair, tuple | list) and len(pair) == 2:
            name, value = pair
            if isinstance(name, str) and name.lower() == wanted:
                return str(value)
    return None


class JsonAccessLogger(Logger):
    """One JSON line per request, with the request id the app returned in X-Request-Id.

    It logs what it can and never raises: gunicorn calls it in the worker, outside any
    handler, also for the error answers gunicorn writes itself, and an exception escaping
    here would end the worker (one malformed request, one dead worker)."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        try:
            if not self.access_log_enabled:
                return
            self.access_log.info(_access_line(resp, req, environ, request_time))
        except Exception:  # a log line must never fail a request, nor end a worker
            with contextlib.suppress(Exception):
                self.error("could not write the access log line", exc_info=True)


def _access_line(resp: Any, req: Any, environ: Any, request_time: Any) -> str:
    environ = environ if isinstance(environ, dict) else {}
    # gunicorn's own error answers come with a bare environ (no PATH_INFO): the parsed
    # request, when there is one, still knows its path.
    path = environ.get("PATH_INFO", getattr(req, "path", None))
    query = environ.get("QUERY_STRING", getattr(req, "query", None))
    try:
        duration_ms: float | None = round(request_time.total_seconds() * 1000, 3)
    except (AttributeError, TypeError, ValueError):
        duration_ms = None
    sent = getattr(resp, "sent", None)
    line = {
        "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"),
        "type": "access",
        "request_id": _header(resp, "x-request-id"),
        "method": environ.get("REQUEST_METHOD", getattr(req, "method", None)),
        "path": path,
        "query": query or None,
        "status": _status_of(resp),
        "bytes": sent if isinstance(sent, int) else None,
        "duration_ms": duration_ms,
        "remote": environ.get("REMOTE_ADDR"),
        "forwarded_for": environ.get("HTTP_X_FORWARDED_FOR"),
        "user_agent": environ.get("HTTP_USER_AGENT"),
        "pid": os.getpid(),
    }
    # default=str: whatever a field holds, the line is still written.
    return json.dumps(line, ensure_ascii=True, default=str)


logger_class = JsonAccessLogger


# --- Prometheus multiprocess mode ---------------------------------------------------------
# The folder must be in the environment before prometheus_client is imported, which with
# preload_app happens in the master right after this file is read, before on_starting: so
# it is set, and wiped, here. The marker keeps a configuration reload (HUP) in the same
# master, or a re-exec (USR2), from wiping the files of workers that are still counting.

_METRICS_ENV = "PROMETHEUS_MULTIPROC_DIR"
_OWNER_ENV = "FIRE_CONTROL_METRICS_OWNER"
_TEMP_ENV = "FIRE_CONTROL_METRICS_TEMPORARY"


def _prepare_metrics_folder() -> None:
    """Make the folder and wipe it, as far as this process can: a folder that cannot be used
    is refused by the app, in one line, when the master imports it
    (service/http/middleware/metrics.py)."""
    if os.environ.get(_OWNER_ENV) == str(os.getpid()) or "GUNICORN_PID" in os.environ:
        return
    path = os.environ.get(_METRICS_ENV)
    if not path:
        try:
            path = tempfile.mkdtemp(prefix="fire-control-metrics-")
        except OSError:  # nowhere to make one: the app names the folder it could not make
            path = os.path.join(tempfile.gettempdir(), f"fire-control-metrics-{os.getpid()}")
        os.environ[_METRICS_ENV] = path
        os.environ[_TEMP_ENV] = path
        atexit.register(_remove_temporary)
    os.environ[_OWNER_ENV] = str(os.getpid())
    with contextlib.suppress(OSError):
        os.makedirs(path, exist_ok=True)
        # Wipe: files left by an earlier run would be added to this run's counts.
        for entry in os.scandir(path):
            if entry.is_file() and entry.name.endswith(".db"):
                os.remove(entry.path)


def _remove_temporary() -> None:
    # At the master's exit, however it ends (a refused start too); a worker's exit runs
    # this as well, and must leave the folder alone.
    temporary = os.environ.get(_TEMP_ENV)
    if temporary and os.environ.get(_OWNER_ENV) == str(os.getpid()):
        shutil.rmtree(temporary, ignore_errors=True)


_prepare_metrics_folder()


def _check_server_settings() -> None:
    """Refuse, in one line, a server setting that cannot be used (see the top of this file)."""
    from service.startup import StartupError, quoted

    host, port = _env("HOST", "0.0.0.0"), _env("PORT", "8080")
    if not _port(port):
        raise StartupError(
            "PORT", f"{quoted(port)} is not a port number (1 to 65535)", "unset it for 8080"
        )
    try:
        if _bind(host, port) is None:
            raise ValueError("gunicorn cannot read it as a host")
        socket.getaddrinfo(_host(host), int(port), type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError) as error:
        raise StartupError(
            "HOST",
            f"{quoted(host)} is not an address this machine can listen on ({error})",
            "give an IP address or a host name, or unset it for 0.0.0.0 (every address)",
        ) from None
    concurrency = _env("WEB_CONCURRENCY", "2")
    if _count(concurrency) < 1:
        raise StartupError(
            "WEB_CONCURRENCY",
            f"{quoted(concurrency)} is not a number of worker processes (1 or more)",
            "give one per CPU core the server may use, or unset it for 2",
        )
    if _access_log.strip().lower() not in _ACCESS_LOG_CHOICES:
        raise StartupError(
            "ACCESS_LOG",
            f"{quoted(_access_log)} is neither on nor off",
            "give off where a proxy in front logs each request, or unset it for on",
        )
    if loglevel.lower() not in Logger.LOG_LEVELS:
        raise StartupError(
            "LOG_LEVEL",
            f"{quoted(loglevel)} is not a log level",
            f"give one of {', '.join(Logger.LOG_LEVELS)}, or unset it for info",
        )


def on_starting(server: Any) -> None:
    # In the master, after the app is built (preload) and before the sockets are opened:
    # gunicorn prints a RuntimeError raised here ("Error: ...") and exits with status 1.
    _check_server_settings()


def pre_fork(server: Any, worker: Any) -> None:
    # Freeze the preloaded app's objects (about 95,000) before the fork: a full pass of the
    # cyclic garbage collector over them cost the request it landed on about 50 ms of CPU.
    gc.freeze()


def post_worker_init(worker: Any) -> None:
    # Only when the app served is this service (the benchmark serves a bare app too).
    metrics = sys.modules.get("service.http.middleware.metrics")
    if metrics is not None:
        metrics.worker_started()


def child_exit(server: Any, worker: Any) -> None:
    # In the master, once the worker is reaped. Drops the dead worker's live gauges and
    # folds its counters and histograms into one archive file per metric type: totals
    # never go back, and the folder stays the same size however many workers are recycled.
    # Never raises: an exception here would escape gunicorn's reaping loop.
    try:
        metrics = sys.modules.get("service.http.middleware.metrics")
        if metrics is not None:
            metrics.worker_exited(worker.pid)
        elif os.environ.get(_METRICS_ENV):  # another app (the benchmark's bare one)
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(worker.pid)
    except Exception:
        server.log.exception("could not tidy the metrics files of worker %s", worker.pid)


# --- gunicorn's own refusals, as problems --------------------------------------------------
# When gunicorn cannot parse a request (a bad request line, a header it refuses, over its
# limits) it answers before the app, through gunicorn.util.write_error, with an HTML page.
# Each worker replaces that one function (same arguments) with one that writes the app's
# problem shape instead; the specifics stay in gunicorn's own log line, never echoed.

_PROBLEM_DETAILS = {
    400: "The request is not valid HTTP.",
    403: "This request is refused.",
    414: f"The request line is over {limit_request_line} bytes.",
    417: "The only expectation understood is 100-continue.",
    431: f"Over {limit_request_fields} headers, or one over {limit_request_field_size} bytes.",
    501: "This transfer encoding is not supported (chunked is).",
}
_FALLBACK_DETAIL = "The server could not resolve this request."


def problem_of(status: int, reason: str) -> bytes:
    """The whole HTTP answer gunicorn writes for a request it refuses itself."""
    from service.engine.errors import FALLBACK_KIND, KIND_OF_STATUS, PROBLEM_KINDS

    kind = KIND_OF_STATUS.get(status) or next(
        (k.id for k in PROBLEM_KINDS if status in k.statuses), FALLBACK_KIND
    )
    body = json.dumps(
        {
            "type": f"/problems#{kind}",
            "title": reason,
            "status": status,
            "detail": _PROBLEM_DETAILS.get(status, _FALLBACK_DETAIL),
            "errors": [],
        },
        separators=(",", ":"),
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def _write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    util.write_nonblock(sock, problem_of(int(status_int), str(reason)))


def post_fork(server: Any, worker: Any) -> None:
    util.write_error = _write_problem
    # The master's stop flag (below), kept on the arbiter: it outlives a reload (HUP),
    # which reads this file again but never calls when_ready again.
    worker.stopping = getattr(server, "fire_control_stopping", None)


# --- a stop answers every connection already accepted -------------------------------------
# On SIGTERM gunicorn's master closes its copy of the listening socket and tells the workers
# to finish the request in hand and exit; connections the kernel had already accepted into
# the listen backlog, which no worker took, were reset when the last worker closed the
# socket. So when the server stops (not when a worker is recycled, replaced or a reload
# swaps workers: the socket lives on for the others) each worker, after its last request,
# first stops the kernel admitting new connections on the socket (a socket filter that
# drops new SYNs: a client that connects from then on is refused once the socket closes),
# then answers every connection still queued, then exits. The master flags the stop in a
# byte of memory it shares with the workers it forks.

_SO_ATTACH_FILTER = getattr(socket, "SO_ATTACH_FILTER", 26)
# Classic BPF, run by the kernel on each TCP segment for the listening socket (the data
# starts at the TCP header): keep whatever carries ACK (the end of a handshake already
# begun), drop a bare SYN (a new connection), keep the rest.
_DROP_NEW_SYN = b"".join(
    struct.pack("HBBI", *instruction)
    for instruction in (
        (0x30, 0, 0, 13),  # ldb [13]: the TCP flags
        (0x45, 2, 0, 0x10),  # jset ACK: keep
        (0x45, 0, 1, 0x02),  # jset SYN: drop
        (0x06, 0, 0, 0),  # drop
        (0x06, 0, 0, 0xFFFFFFFF),  # keep
    )
)


def refuse_new_connections(listener: socket.socket) -> bool:
    """Have the kernel drop new connection attempts on this listening socket, keeping the
    ones already made. False where that cannot be done (not Linux, not TCP)."""
    if not sys.platform.startswith("linux") or listener.family not in (
        socket.AF_INET,
        socket.AF_INET6,
    ):
        return False
    program = ctypes.create_string_buffer(_DROP_NEW_SYN, len(_DROP_NEW_SYN))
    fprog = struct.pack("HP", len(_DROP_NEW_SYN) // 8, ctypes.addressof(program))
    try:
        listener.setsockopt(socket.SOL_SOCKET, _SO_ATTACH_FILTER, fprog)
    except OSError:
        return False
    return True


class DrainingSyncWorker(SyncWorker):
    """gunicorn's sync worker; when the server stops, it answers the queued connections."""

    stopping: mmap.mmap | None = None

    def run(self) -> None:
        super().run()
        if self.stopping is not None and self.stopping[0]:
            self.drain()

    def drain(self) -> None:
        for listener in self.sockets:
            if not refuse_new_connections(listener):
                self.log.warning("could not stop new connections on %s", listener)
        # The master kills what is left at graceful_timeout anyway.
        deadline = time.monotonic() + self.cfg.graceful_timeout
        answered = 0
        for listener in self.sockets:
            listener.setblocking(False)
            while time.monotonic() < deadline:
                try:
                    self.accept(listener)  # accept, then serve, as the worker's loop does
                except (BlockingIOError, InterruptedError):
                    break  # nothing more queued
                except ConnectionAbortedError:
                    continue
                except OSError:
                    break
                answered += 1
        self.log.info("Answered %d queued connections before exiting", answered)


worker_class = DrainingSyncWorker


def when_ready(server: Any) -> None:
    # Once, in the master. Its SIGTERM (a graceful stop of the whole server) sets the flag
    # before gunicorn stops the workers; HUP, TTOU and recycling leave it unset.
    stopping = server.fire_control_stopping = mmap.mmap(-1, 1)
    stop = server.handle_term

    def handle_term() -> None:
        stopping[0] = 1
        stop()

    server.handle_term = handle_term
