"""Headless Chromium for the browser tests: Debian's `chromium`, driven by Playwright.

Playwright's Python package drives the system browser through ``executable_path``; it never
downloads one of its own (never run ``playwright install``). Without the browser or the
package, the tests skip and say how to install them; in CI (the CI variable set, as .ci/run
sets it) they fail instead, so a missing browser never passes as green.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",  # the tests run as root on CI
    "--disable-gpu",
    "--disable-background-networking",  # or it keeps trying to reach hosts it cannot
    "--disable-component-update",
    "--disable-sync",
]
INSTALL = (
    "install Debian's chromium (apt-get install -y chromium) and the test extra "
    "(.venv/bin/pip install -r requirements.lock); never `playwright install`"
)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


def require_browser() -> None:
    """Skip (or, in CI, fail) unless Chromium and Playwright are both here."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"no {CHROMIUM}")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("no playwright package")
    if missing:
        message = f"browser tests need headless Chromium ({', '.join(missing)}): {INSTALL}"
        if in_ci():
            pytest.fail(f"{message}. In CI they must run: .ci/run installs it.")
        pytest.skip(message)


@contextmanager
def chromium() -> Iterator[Any]:
    """One headless Chromium with a fresh profile; yields its browser context."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory(prefix="fire-control-chromium-") as profile,
        sync_playwright() as driver,
    ):
        context = driver.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=ARGS,
            viewport={"width": 1000, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()
