"""Pictures: a heat map or the outcomes of an /odds answer as a small SVG.

The heat map (POST /v1/rulesets/salvo-grid/heatmap) and every /odds answer an
``Accept: image/svg+xml`` request with a picture of the very answer they would give in
JSON: the grid shaded by probability, or one labelled bar per outcome. Each square and bar
carries its numbers as ``data-*`` attributes and as text, so a program can read the picture
as surely as a player. The picture is not signed (a signature covers canonical JSON, not
drawing): a client that wants the signed numbers asks the same request with
``Accept: application/json`` (the default), which with the same dice gives the same numbers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any
from xml.etree import ElementTree as ET

from flask import Response, request
from werkzeug.exceptions import NotAcceptable

SVG = "image/svg+xml"
JSON = "application/json"
OFFERS = (JSON, SVG)
NS = "http://www.w3.org/2000/svg"

CELL = 36
MARGIN = 28
BAR = 240
ROW = 20
LABEL = 360

# The OpenAPI description of the second media type of a 200, and of the 406.
DOC_200 = {
    "content": {
        SVG: {
            "schema": {
                "type": "string",
                "description": "An SVG picture of the same answer (not signed: ask for JSON, "
                "the default, for the signed numbers)",
            }
        }
    }
}
DOC_406 = {
    "description": "Not Acceptable: the Accept header lists neither application/json nor "
    "image/svg+xml (nor a wildcard that covers one).",
    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
}


def doc() -> dict[str, Any]:
    """The ``responses`` to merge into an operation's documentation."""
    return {"responses": {200: DOC_200, 406: DOC_406}}


def wants_svg() -> bool:
    """Whether the request prefers the picture; a 406 if it accepts neither JSON nor SVG.

    No Accept header, or one that accepts anything, gets JSON: the picture only when asked
    for (ties go to JSON).
    """
    accept = request.accept_mimetypes
    if not accept:
        return False
    best = accept.best_match(OFFERS)
    if best is None:
        raise NotAcceptable(
            f"this answer comes as {JSON} (signed) or {SVG} (a picture); the Accept header "
            "lists neither"
        )
    return best == SVG


def answer(body: Mapping[str, Any], draw: Callable[[Mapping[str, Any]], str]) -> Response:
    return varies(Response(draw(body), mimetype=SVG))


def varies(response: Response) -> Response:
    """An answer chosen by Accept says so, picture and JSON alike, so a cache in between
    never hands one to a client that asked for the other."""
    response.vary.add("Accept")
    return response


def _svg(width: int, height: int, title: str) -> ET.Element:
    root = ET.Element(
        "svg",
        {
            "xmlns": NS,
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
            "font-family": "sans-serif",
            "font-size": "11",
        },
    )
    ET.SubElement(root, "title").text = title
    return root


def _text(parent: ET.Element, x: float, y: float, text: str, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, "text", {"x": f"{x:g}", "y": f"{y:g}", **attrs})
    element.text = text
    return element


def _bytes(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode", xml_declaration=False)


def _shade(p: float) -> str:
    """White (0) to deep red (1)."""
    p = min(1.0, max(0.0, p))
    return f"rgb({255 - round(75 * p)},{255 - round(235 * p)},{255 - round(235 * p)})"


def heat_map(envelope: Mapping[str, Any]) -> str:
    """The grid shaded by probability, each square with its probability in percent."""
    result = envelope["result"]
    rows: list[list[float]] = result["rows"]
    columns = len(rows[0]) if rows else 0
    width, height = MARGIN + columns * CELL + 8, MARGIN + len(rows) * CELL + 24
    how = (
        f"exact over {result['placements']} placements"
        if result["method"] == "exact"
        else f"sampled: {result['sampler']['samples']} sweeps, seed {result['sampler']['seed']}"
    )
    root = _svg(width, height, f"SALVO heat map ({how})")
    root.set("data-method", result["method"])
    for c in range(columns):
        _text(root, MARGIN + c * CELL + CELL / 2, MARGIN - 8, chr(ord("A") + c),
              **{"text-anchor": "middle"})  # fmt: skip
    for r, row in enumerate(rows):
        _text(root, MARGIN - 6, MARGIN + r * CELL + CELL / 2 + 4, str(r + 1),
              **{"text-anchor": "end"})  # fmt: skip
        for c, p in enumerate(row):
            square = f"{chr(ord('A') + c)}{r + 1}"
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            cell = ET.SubElement(
                root,
                "rect",
                {
                    "x": str(x),
                    "y": str(y),
                    "width": str(CELL),
                    "height": str(CELL),
                    "fill": _shade(p),
                    "stroke": "#999",
                    "data-square": square,
                    "data-p": repr(p),
                },
            )
            ET.SubElement(cell, "title").text = f"{square}: {p!r}"
            _text(root, x + CELL / 2, y + CELL / 2 + 4, f"{round(100 * p)}%",
                  **{"text-anchor": "middle", "font-size": "10"})  # fmt: skip
    _text(root, MARGIN, height - 8, how)
    return _bytes(root)


def _label(result: Any) -> str:
    """An outcome's result in a line: its named fields, nested ones flattened."""
    if not isinstance(result, dict):
        return json.dumps(result, ensure_ascii=False)
    parts = []
    for key, value in result.items():
        if value is None or value == [] or value == {}:
            continue
        shown = _label(value) if isinstance(value, dict) else value
        if isinstance(shown, (list, bool)):  # true/false as the JSON answer says them
            shown = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
        parts.append(f"{key} {shown}")
    return ", ".join(parts) or "nothing"


def odds(body: Mapping[str, Any]) -> str:
    """One bar per outcome, as long as its probability, labelled with it and its result."""
    outcomes = body["outcomes"]
    width = LABEL + BAR + 120
    height = MARGIN + len(outcomes) * ROW + 8
    root = _svg(width, height, f"Odds: {body['ruleset']} {body['step']}")
    _text(root, 4, 16, f"{body['ruleset']} {body['step']}: {len(outcomes)} outcomes",
          **{"font-weight": "bold"})  # fmt: skip
    for index, outcome in enumerate(outcomes):
        y = MARGIN + index * ROW
        label = _label(outcome["result"])
        group = ET.SubElement(
            root,
            "g",
            {
                "data-outcome": str(index),
                "data-probability": outcome["probability"],
                "data-p": repr(outcome["p"]),
            },
        )
        ET.SubElement(group, "title").text = f"{label}: {outcome['probability']}"
        _text(group, 4, y + 14, label if len(label) <= 60 else label[:59] + "\u2026")
        ET.SubElement(
            group,
            "rect",
            {
                "x": str(LABEL),
                "y": str(y + 3),
                "width": f"{max(1.0, BAR * outcome['p']):.2f}",
                "height": str(ROW - 6),
                "fill": "#c33",
            },
        )
        _text(group, LABEL + BAR + 6, y + 14,
              f"{outcome['probability']} ({100 * outcome['p']:.2f}%)")  # fmt: skip
    return _bytes(root)
