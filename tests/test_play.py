"""GET /play serves the companion page and its modules from the service itself.

What the page does in a browser (whole games, the log, the referee's page) is tested in
tests/test_play_page.py (headless Chromium); here: the files, their types and headers, that
nothing comes from anywhere else and that every call the page makes is a documented one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.http.endpoints import play

FOLDER = Path(play.__file__).resolve().parents[2] / "static" / "play"
MODULES = sorted(path.name for path in FOLDER.glob("*.js"))


def test_the_page_is_html_kept_on_its_own_origin(client: FlaskClient) -> None:
    answer = client.get("/play")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/html; charset=utf-8"
    policy = answer.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy
    assert "script-src 'self'" in policy and "unsafe" not in policy
    page = answer.get_data(as_text=True)
    assert '<script type="module" src="play/main.js">' in page
    assert 'href="play/play.css"' in page


@pytest.mark.parametrize("name", [*MODULES, "play.css"])
def test_each_module_and_the_style_sheet_are_served_with_their_type(
    client: FlaskClient, name: str
) -> None:
    answer = client.get(f"/play/{name}")
    assert answer.status_code == 200
    kind = "text/css" if name.endswith(".css") else "text/javascript"
    assert answer.headers["Content-Type"] == f"{kind}; charset=utf-8"
    assert answer.data == (FOLDER / name).read_bytes()


def test_every_import_names_a_module_the_service_serves() -> None:
    imported = set()
    for name in MODULES:
        imported |= set(re.findall(r'from "\./([\w-]+\.js)"', (FOLDER / name).read_text()))
    assert imported | {"main.js"} == set(MODULES)


@pytest.mark.parametrize("path", ["/play/nothing.js", "/play/..%2F__init__.py", "/play/"])
def test_anything_else_under_play_is_a_404_problem(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.headers["Content-Type"].startswith("application/problem+json")


def test_the_page_loads_nothing_from_elsewhere() -> None:
    for path in FOLDER.iterdir():
        text = path.read_text()
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text), path.name
        assert "@import" not in text, path.name
        if path.suffix == ".css":
            assert "url(" not in text, path.name


def test_every_call_the_page_makes_is_a_documented_operation(client: FlaskClient) -> None:
    """The page is an app like any other: it uses the public API and nothing private."""
    document = client.get("/openapi.json").get_json()
    paths = [re.sub(r"\{\w+\}", "[^/]+", path) for path in document["paths"]]
    called = set()
    for name in MODULES:
        text = (FOLDER / name).read_text()
        bases = dict(re.findall(r'const (\w+) = "(v1/[^"]+)"', text))
        for base, rest in re.findall(r"`\$\{(\w+)\}(/[^`]*)`", text):
            if base in bases:
                called.add(f"/{bases[base]}{rest}")
        called |= {f"/{path}" for path in re.findall(r'(?:post|get|picture)\("(v1/[^"]+)"', text)}
    assert {"/v1/rulesets/salvo-solo/turn", "/v1/rulesets/salvo-grid/salvo", "/v1/seeds"} <= called
    undocumented = {path for path in called if not any(re.fullmatch(p, path) for p in paths)}
    assert undocumented == set()


def test_the_page_is_not_an_operation_of_the_document(client: FlaskClient) -> None:
    document = client.get("/openapi.json").get_json()
    assert not [path for path in document["paths"] if path.startswith("/play")]


def test_the_readme_says_where_the_companion_is_right_after_the_two_commands() -> None:
    readme = (FOLDER.parents[2] / "README.md").read_text()
    two_commands = readme.index("make test    #")
    after = readme[two_commands:].split("```", 1)[1].lstrip("\n").splitlines()[0]
    assert "http://localhost:8080/play" in after and "Salvo!" in after and "SALVO" in after
