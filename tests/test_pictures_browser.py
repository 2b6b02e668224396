"""Every picture in headless Chromium, as a player opens it on a phone and on a desktop.

Each operation that answers ``image/svg+xml`` (found in the served OpenAPI document) is asked
with its documented request example; the picture is opened as a document of its own, the way
a browser shows a file saved from ``curl`` or a link, at a phone's width (390 px) and at a
desktop's (1280 px). No text may run outside the picture or over another text, none may be
too small to read, and the picture fills the phone's width without a sideways scroll.
Screenshots go to test-artifacts/pictures/ (git-ignored), one per picture and width.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.browser_helpers import chromium

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "pictures"
SVG = "image/svg+xml"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
ADDRESS = "http://pictures.invalid/picture.svg"  # answered by the test, never looked up
SMALLEST_TEXT_PX = 11  # a text's box on the phone: about a 10 px font, the least that reads

# What the document shows, measured in the page: the picture's box, each text's box, and
# whether the page scrolls sideways.
MEASURE = """() => {
  const svg = document.documentElement;
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].map((t) => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
  return {
    box: {left: box.left, right: box.right, top: box.top, bottom: box.bottom,
          width: box.width},
    texts,
    scrollWidth: document.scrollingElement.scrollWidth,
    innerWidth: window.innerWidth,
    tag: svg.tagName,
  };
}"""


def pictures(app: Flask) -> list[tuple[str, bytes]]:
    """Every operation with a picture, asked with its request example: (name, SVG)."""
    client = app.test_client()
    document = client.get("/openapi.json").get_json()
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            if SVG not in operation.get("responses", {}).get("200", {}).get("content", {}):
                continue
            example = operation["requestBody"]["content"]["application/json"]["example"]
            response = client.open(path, method=method, json=example, headers={"Accept": SVG})
            assert response.status_code == 200, (path, response.get_data(as_text=True)[:300])
            assert response.mimetype == SVG, path
            name = re.sub(r"[^a-z0-9]+", "-", path.removeprefix("/v1/rulesets/")).strip("-")
            found.append((name, response.get_data()))
    return found


@pytest.fixture(scope="module")
def every_picture(app: Flask) -> list[tuple[str, bytes]]:
    found = pictures(app)
    assert len(found) >= 18, [name for name, _ in found]  # 17 /odds and the heat map
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as context:
        yield context


def _answer(svg: bytes) -> Any:
    """A route handler that answers with this picture (Playwright passes the route and the
    request)."""
    return lambda route, _request: route.fulfill(status=200, content_type=SVG, body=svg)


def _overlap(a: dict[str, float], b: dict[str, float], slack: float = 1.0) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack
    )


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_every_picture_fits_and_reads_in_a_browser(
    browser: Any, every_picture: list[tuple[str, bytes]], width: str
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page()
    viewport_width, viewport_height = WIDTHS[width]
    page.set_viewport_size({"width": viewport_width, "height": viewport_height})
    errors: list[str] = []
    requested: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requested.append(request.url))
    problems: list[str] = []
    try:
        for name, svg in every_picture:
            page.route(ADDRESS, _answer(svg))
            page.goto(ADDRESS)
            page.set_viewport_size({"width": viewport_width, "height": viewport_height})
            shown = page.evaluate(MEASURE)
            # The whole picture: a viewport as tall as it (a full-page screenshot of an SVG
            # document never finishes).
            tall = min(8000, max(viewport_height, math.ceil(shown["box"]["bottom"])))
            page.set_viewport_size({"width": viewport_width, "height": tall})
            page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"))
            page.unroute(ADDRESS)
            assert shown["tag"] == "svg", name  # rendered as a picture, not an error page
            box = shown["box"]
            if shown["scrollWidth"] > shown["innerWidth"]:
                problems.append(f"{name}: scrolls sideways ({shown['scrollWidth']} px)")
            if width == "phone" and box["width"] < viewport_width - 1:
                problems.append(f"{name}: {box['width']:.0f} px wide on a {viewport_width} phone")
            texts = shown["texts"]
            for text in texts:
                inside = (
                    text["left"] >= box["left"] - 0.5
                    and text["right"] <= box["right"] + 0.5
                    and text["top"] >= box["top"] - 0.5
                    and text["bottom"] <= box["bottom"] + 0.5
                )
                if not inside:
                    problems.append(f"{name}: {text['text']!r} runs outside the picture")
                height = text["bottom"] - text["top"]
                if width == "phone" and height < SMALLEST_TEXT_PX:
                    problems.append(f"{name}: {text['text']!r} is {height:.1f} px high")
            for i, a in enumerate(texts):
                for b in texts[i + 1 :]:
                    if _overlap(a, b):
                        problems.append(f"{name}: {a['text']!r} runs over {b['text']!r}")
        assert problems == []
        assert errors == []
        assert set(requested) == {ADDRESS}  # no font, script or file from anywhere else
    finally:
        page.close()
