"""Prometheus metrics: requests by endpoint and status, latency, rolls by ruleset and step.

With PROMETHEUS_MULTIPROC_DIR set (gunicorn with several workers), every worker writes
its samples there and /metrics aggregates them all. deploy/gunicorn.conf.py sets that
folder before the app is imported and wipes it when the server starts; when a worker
exits (recycled by ``max_requests``, or crashed) the server calls ``worker_exited``, which
drops its live gauges and folds its counters and histograms into one archive file per
metric type, so the folder holds the live workers' files plus a few archives however many
workers have come and gone, and every total still counts every request.

A folder that cannot hold the files (a file, read-only, impossible to make) stops the start
with a StartupError naming PROMETHEUS_MULTIPROC_DIR.

Gauges must use a ``live*`` multiprocess mode: those files go when their worker does.

Each change is written to its worker's file at once, as prometheus_client's multiprocess
mode writes it (``FileValue``, the same files byte for byte, for less CPU): a scrape counts
every request answered before it, with no lag, and a worker that is killed leaves its
counts behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from flask import Flask, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.mmap_dict import MmapedDict, mmap_key

from ...startup import writable_folder
from .request_id import STARTED, StartResponse, WSGIApp

METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR"

# The metrics below write their files in that folder as they are made, here: a folder that
# cannot hold them is a StartupError naming the setting, not an OSError from deep inside
# prometheus_client.
if os.environ.get(METRICS_DIR):
    writable_folder(
        METRICS_DIR,
        os.environ[METRICS_DIR],
        "point it at a writable folder of its own (an emptyDir volume in Kubernetes), "
        "or unset it to have a temporary one made",
    )


class FileValue:
    """A sample's value in this process's file in PROMETHEUS_MULTIPROC_DIR: the value
    prometheus_client's multiprocess mode keeps (``values.MultiProcessValue``), in the same
    files, the same bytes, written on every change as there, so its collector and
    ``worker_exited`` read it as before. Cheaper on every change: prometheus_client's asks
    the kernel for the process id on each one, to notice a fork; here the fork says so
    (``os.register_at_fork``), and the child's first change opens its own files and reads
    every value there afresh, as prometheus_client's does."""

    _multiprocess = True

    def __init__(
        self,
        typ: str,
        metric_name: str,
        name: str,
        labelnames: Sequence[str],
        labelvalues: Sequence[str],
        help_text: str,
        multiprocess_mode: str = "",
        **kwargs: Any,
    ) -> None:
        self._prefix = f"{typ}_{multiprocess_mode}" if typ == "gauge" else typ
        self._key = mmap_key(metric_name, name, list(labelnames), list(labelvalues), help_text)
        self._file: MmapedDict | None = None
        self._value = 0.0
        with _FILE_LOCK:
            _FILE_VALUES.append(self)
            if _FORKED:
                _reopen()  # the first value made since a fork: every value, as on a change
            else:
                self._open()

    def _open(self) -> None:
        """This process's file of the kind (made at its first value), and the value in it."""
        file = _FILES.get(self._prefix)
        if file is None:
            name = f"{self._prefix}_{os.getpid()}.db"
            file = _FILES[self._prefix] = MmapedDict(os.path.join(os.environ[METRICS_DIR], name))
        self._file = file
        self._value, _ = file.read_value(self._key)

    def inc(self, amount: float) -> None:
        with _FILE_LOCK:
            file = self._file or _reopen(self)
            self._value += amount
            file.write_value(self._key, self._value, 0.0)

    def set(self, value: float, timestamp: float | None = None) -> None:
        with _FILE_LOCK:
            file = self._file or _reopen(self)
            self._value = value
            file.write_value(self._key, value, timestamp or 0.0)

    def get(self) -> float:
        with _FILE_LOCK:
            if self._file is None:
                _reopen()
            return self._value

    def set_exemplar(self, exemplar: Any) -> None:
        """Multiprocess mode keeps no exemplars (nor does prometheus_client's)."""

    def get_exemplar(self) -> None:
        return None


# One lock for every value, as prometheus_client's: it guards the files as they grow.
_FILE_LOCK = threading.Lock()
_FILES: dict[str, MmapedDict] = {}
_FILE_VALUES: list[FileValue] = []
_FORKED = False  # since the fork that made this process, no value has been written


def _forked() -> None:
    """In a forked child: the parent's files are the parent's. The child's first change
    of any value opens the child's own (``_reopen``)."""
    global _FILE_LOCK, _FORKED
    _FILE_LOCK = threading.Lock()  # the parent may have held it while forking
    _FORKED = True
    for file in _FILES.values():
        file.close()
    _FILES.clear()
    for value in _FILE_VALUES:
        value._file = None


def _reopen(changed: FileValue | None = None) -> MmapedDict:
    """Every value opened in this process's files, in the order they were made (the order
    prometheus_client writes their keys); the file of ``changed``. The lock is held."""
    global _FORKED
    _FORKED = False
    for value in _FILE_VALUES:
        value._open()
    return (changed or _FILE_VALUES[0])._file  # type: ignore[return-value]


if os.environ.get(METRICS_DIR):
    values.ValueClass = FileValue  # before the metrics below make their values
    os.register_at_fork(after_in_child=_forked)

REQUESTS = Counter(
    "firecontrol_http_requests_total",
    "HTTP requests by endpoint and status",
    ["method", "endpoint", "status"],
)
LATENCY = Histogram(
    "firecontrol_http_request_duration_seconds",
    "Time to answer a request",
    ["endpoint"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
ROLLS = Counter(
    "firecontrol_rolls_total", "Resolved rolls by ruleset and step", ["ruleset", "step"]
)
# livesum: only the files of live workers count, so a killed worker leaves the sum once
# the server marks it dead.
WORKERS = Gauge(
    "firecontrol_workers", "Server workers alive and serving", multiprocess_mode="livesum"
)

# The method is the client's free text: any other word is counted as one label value, so a
# client cannot grow the number of series (the same reason the raw path is never a label).
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def worker_started() -> None:
    """Called once in each server worker (gunicorn's post_worker_init)."""
    WORKERS.set(1)


# Label children looked up once: prometheus_client's labels() costs a few microseconds
# a call, on every request. The keys are bounded (rules, METHODS, status codes, steps).
_REQUEST_SERIES: dict[tuple[str, str, str], tuple[Any, Any]] = {}
_ROLL_SERIES: dict[tuple[str, str], Any] = {}


def count_rolls(ruleset: str | None, step: str, rolls: int) -> None:
    key = (ruleset or "dice", step)
    series = _ROLL_SERIES.get(key)
    if series is None:
        series = _ROLL_SERIES[key] = ROLLS.labels(*key)
    series.inc(rolls)


def _request_series(method: str, endpoint: str, status: str) -> tuple[Any, Any]:
    key = (method, endpoint, status)
    series = _REQUEST_SERIES.get(key)
    if series is None:
        series = _REQUEST_SERIES[key] = (REQUESTS.labels(*key), LATENCY.labels(endpoint))
    return series


class Observed:
    """WSGI middleware: counts and times every answer where the server starts it (WSGI
    ``start_response``), from the WSGI environ and the status line: no Flask hook and no
    request-context look-up. Inside the request-id middleware, which notes when the
    request came in, so the time Flask takes to set the request up is counted too."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            _observe(environ, status)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def _observe(environ: dict[str, Any], status: str) -> None:
    # The request werkzeug made of this environ (Flask's, still in hand while the answer
    # starts); its url_rule is None on 404/405: one label, never the raw path.
    rule = getattr(environ.get("werkzeug.request"), "url_rule", None)
    endpoint = rule.rule if rule is not None else "unmatched"
    method = environ.get("REQUEST_METHOD", "GET").upper()
    method = method if method in METHODS else "other"
    requests, latency = _request_series(method, endpoint, status.split(" ", 1)[0])
    requests.inc()
    started = environ.get(STARTED)
    if started is not None:
        latency.observe(time.perf_counter() - started)


def init_app(app: Flask) -> None:
    app.wsgi_app = Observed(app.wsgi_app)  # type: ignore[method-assign]

    @app.get("/metrics")
    def metrics() -> Response:
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            # Shared: the server folds a dead worker's files into the archives under the
            # exclusive lock, so a scrape never sees a count twice, nor misses one.
            with _folder_lock(os.environ["PROMETHEUS_MULTIPROC_DIR"], exclusive=False):
                body = generate_latest(registry)
        else:
            body = generate_latest()
        # content_type, not mimetype: Flask would add a second "; charset=utf-8".
        return Response(body, content_type=CONTENT_TYPE_LATEST)


# --- the files of workers that have exited ----------------------------------------------------

# prometheus_client's file names: counter_<pid>.db, histogram_<pid>.db, summary_<pid>.db,
# gauge_<mode>_<pid>.db.
_PROCESS_FILE = re.compile(r"(?P<kind>counter|histogram|summary|gauge_[a-z]+)_(?P<pid>\d+)\.db")
# Kinds whose samples add up across processes: a dead process's values are added into
# <kind>_archive.db, which the collector reads like any other file of that kind.
_ADDED_UP = ("counter", "histogram", "summary")
ARCHIVE = "archive"
_LOCK_FILE = ".files.lock"  # not *.db: the collector never reads it
_LOCK_WAIT = 2.0  # seconds; a scrape takes milliseconds


@contextlib.contextmanager
def _folder_lock(folder: str, exclusive: bool) -> Iterator[bool]:
    """flock on the folder's lock file; yields whether it was taken within _LOCK_WAIT. A
    process that dies holding it releases it with its descriptors."""
    try:
        descriptor = os.open(os.path.join(folder, _LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield False
        return
    try:
        mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
        deadline = time.monotonic() + _LOCK_WAIT
        while True:
            try:
                fcntl.flock(descriptor, mode)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    yield False
                    return
                time.sleep(0.001)
        yield True
    finally:
        os.close(descriptor)  # releases the lock


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def worker_exited(pid: int, folder: str | None = None) -> int:
    """Bookkeeping for a server worker that has exited (gunicorn's child_exit, in the master,
    once the worker is reaped). Drops its live gauges, as prometheus_client's
    ``mark_process_dead`` does, then folds the counter, histogram and summary files of every
    process no longer running (this one, and any an earlier call had to leave) into the
    archives. Returns how many files it removed."""
    folder = folder or os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return 0
    multiprocess.mark_process_dead(pid, folder)
    dead: dict[str, list[str]] = {}
    for entry in os.scandir(folder):
        match = _PROCESS_FILE.fullmatch(entry.name)
        if match is None or match["kind"] not in _ADDED_UP:
            continue
        file_pid = int(match["pid"])
        if file_pid == pid or (file_pid != os.getpid() and not _alive(file_pid)):
            dead.setdefault(match["kind"], []).append(entry.path)
    if not dead:
        return 0
    removed = 0
    with _folder_lock(folder, exclusive=True) as locked:
        if not locked:
            return 0  # a scrape is stuck: the next exit folds these files in
        for kind, paths in dead.items():
            _fold_into_archive(folder, kind, paths)
            removed += len(paths)
    return removed


def _fold_into_archive(folder: str, kind: str, paths: list[str]) -> None:
    """<kind>_archive.db := the old archive plus every file in ``paths``, then remove them.
    The new archive is written beside the old one and renamed over it."""
    archive = os.path.join(folder, f"{kind}_{ARCHIVE}.db")
    totals: dict[str, list[float]] = {}
    for path in ([archive] if os.path.exists(archive) else []) + paths:
        for key, value, timestamp, _ in MmapedDict.read_all_values_from_file(path):
            total = totals.setdefault(key, [0.0, 0.0])
            total[0] += value
            total[1] = max(total[1], timestamp)
    temporary = f"{archive}.{os.getpid()}.new"
    with contextlib.suppress(FileNotFoundError):
        os.remove(temporary)
    merged = MmapedDict(temporary)
    try:
        for key, (value, timestamp) in totals.items():
            merged.write_value(key, value, timestamp)
    finally:
        merged.close()
    os.replace(temporary, archive)
    for path in paths:
        os.remove(path)
