"""GET /referee serves the referee's page and its modules from the service itself.

What the page does in a browser is tested in tests/test_referee_page.py (headless Chromium);
here: the files, their types and headers, and that nothing comes from anywhere else.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.http.endpoints import referee

FOLDER = Path(referee.__file__).resolve().parents[2] / "static" / "referee"
MODULES = sorted(path.name for path in FOLDER.glob("*.js"))


def test_the_page_is_html_with_a_policy_that_keeps_it_on_its_own_origin(
    client: FlaskClient,
) -> None:
    answer = client.get("/referee")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/html; charset=utf-8"
    policy = answer.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy
    assert "script-src 'self'" in policy and "unsafe" not in policy
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    page = answer.get_data(as_text=True)
    assert '<script type="module" src="referee/main.js">' in page
    assert 'href="referee/referee.css"' in page


@pytest.mark.parametrize("name", [*MODULES, "referee.css"])
def test_each_module_and_the_style_sheet_are_served_with_their_type(
    client: FlaskClient, name: str
) -> None:
    answer = client.get(f"/referee/{name}")
    assert answer.status_code == 200
    kind = "text/css" if name.endswith(".css") else "text/javascript"
    assert answer.headers["Content-Type"] == f"{kind}; charset=utf-8"
    assert answer.data == (FOLDER / name).read_bytes()


def test_every_import_names_a_module_the_service_serves() -> None:
    imported = set()
    for name in MODULES:
        imported |= set(re.findall(r'from "\./([\w-]+\.js)"', (FOLDER / name).read_text()))
    assert imported and imported <= set(MODULES)
    assert {"json.js", "verify.js", "explain.js"} <= imported


@pytest.mark.parametrize("path", ["/referee/nothing.js", "/referee/..%2F__init__.py", "/referee/"])
def test_anything_else_under_referee_is_a_404_problem(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.headers["Content-Type"].startswith("application/problem+json")


def test_the_page_loads_nothing_from_elsewhere() -> None:
    """No CDN, no web fonts: an absolute URL in a file of the page would break offline."""
    for path in FOLDER.iterdir():
        if path.suffix in (".html", ".css", ".js"):
            text = path.read_text()
            assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text), path.name
            assert "@import" not in text, path.name
            if path.suffix == ".css":
                assert "url(" not in text, path.name


def test_the_docs_and_the_readme_point_to_the_page(client: FlaskClient) -> None:
    root = FOLDER.parent.parent.parent
    assert "(/referee)" in client.get("/openapi.json").get_data(as_text=True)
    readme = (root / "README.md").read_text()
    assert "/referee" in readme and "docs/referee.png" in readme
    picture = root / "docs" / "referee.png"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size < 200_000
