"""Pictures: the heat map and the odds of a step as a small SVG (svg.py draws them).

A view asks ``wants_svg`` whether the request takes a picture, and answers with ``answer``;
a ruleset's api.py names how its outcomes read (``Words``, ``fires``, ``chances``).
"""

from __future__ import annotations

from .svg import (
    ChanceGroup,
    Reading,
    Words,
    afford_drawing,
    answer,
    asked,
    chances,
    doc,
    fires,
    heat_map,
    how_sure,
    odds,
    percent,
    reading,
    varies,
    wants_svg,
)

__all__ = [
    "ChanceGroup",
    "Reading",
    "Words",
    "afford_drawing",
    "answer",
    "asked",
    "chances",
    "doc",
    "fires",
    "heat_map",
    "how_sure",
    "odds",
    "percent",
    "reading",
    "varies",
    "wants_svg",
]
