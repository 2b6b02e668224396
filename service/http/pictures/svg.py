"""Pictures: the heat map, or the odds of a step, as a small SVG a player reads at a glance.

The heat map (POST /v1/rulesets/salvo-grid/heatmap) and every /odds answer an
``Accept: image/svg+xml`` request with a picture of the very answer they would give in JSON.

* An /odds picture's title says what was asked: who fires at whom, with what and at what
  range, where the request says so.
* An /odds picture draws the whole distribution, never the likeliest few with the rest
  lumped together. Outcomes told apart by one number alone (a dice total) are a histogram,
  a column for each number from the least to the most, each labelled by its number. Others,
  when they are many, first answer the questions a player asks (the chance of any hit, of
  each kind of hit, of each yes-or-no result such as sunk or silenced, and of each number of
  hits), then list every outcome in words, most likely first: outcomes that read the same
  share one bar, and past ``SHOWN`` bars each outcome takes one line. The words come from
  the outcome's result as ``_say`` reads it, after the ruleset's own rewording where the
  result's members would not read well (``StepHTTP.words``).
* A composite step's odds (a whole turn's) are named chances under a heading a ship, each
  with what the ship was declared to fire and a histogram of what it loses.
* The heat map shades each square not yet known by the chance it holds a ship afloat; misses,
  hits, sunk ships and contacts have their own marks and no percentage; a legend says what
  each mark and shade means, and a sentence says how the chances were worked out.

Every bar and square carries its numbers as ``data-*`` attributes (an outcome bar its exact
``data-probability``, the outcome bars of a picture summing to 1; a question bar its exact
``data-chance``; a square its ``data-p`` and ``data-state``), so a program can read the
picture as surely as a player. The picture is not signed (a signature covers canonical JSON,
not drawing): a client that wants the signed numbers asks the same request with
``Accept: application/json`` (the default), which with the same dice gives the same numbers.

Each picture scales to the width of the screen (``width="100%"`` over a ``viewBox`` drawn for
a phone, at most ``MAX_SCALE`` times that size on a wide screen) and uses no font, script or
file from elsewhere.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NotRequired, Required
from xml.etree import ElementTree as ET

from flask import Response
from werkzeug.exceptions import NotAcceptable

from ...engine import budget
from ...engine.typed import Headline, Hits, Landed
from ..fast.context import current_request

SVG = "image/svg+xml"
JSON = "application/json"
OFFERS = (JSON, SVG)
NS = "http://www.w3.org/2000/svg"

WIDTH = 380  # drawn for a phone's width; scaled to the screen
MAX_SCALE = 1.6  # no larger than this on a wide screen
PAD = 10
FONT = 13
LINE = 17
CHAR = 0.62  # a generous average width of a sans-serif character, in ems
SHOWN = 10  # outcome bars drawn full size; past that, each outcome takes one line
SHOWN_AFTER_QUESTIONS = 5  # fewer when the questions come first
FEW = 6  # outcomes a player takes in without the questions first
COLUMNS_HEIGHT = 90  # the tallest column of a histogram

INK = "#222"
FAINT = "#666"
BAR_COLOUR = "#c33"
QUESTION_COLOUR = "#2a6fb0"
TRACK = "#eee"

Words = Callable[[Mapping[str, Any]], Mapping[str, Any]]
Path = tuple[str, ...]

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
    accept = current_request().accept_mimetypes
    if not accept:
        return False
    best = accept.best_match(OFFERS)
    if best is None:
        raise NotAcceptable(
            f"this answer comes as {JSON} (signed) or {SVG} (a picture); the Accept header "
            "lists neither"
        )
    return best == SVG


def asked() -> Mapping[str, Any]:
    """The request's body, as the one decoder read it (and as a receipt's provenance names
    it): what a picture shows besides the answer, such as the squares already fired at."""
    body = current_request().get_json(silent=True)
    return body if isinstance(body, Mapping) else {}


# What drawing an outcome costs the request's budget, in units (about 0.1 us): its chance
# read and written, its column or line, its part of the SVG (100d10's 901 totals: 35 ms).
OUTCOME_UNITS = 400
DRAWING = "drawing these odds"
UNDRAWN = "ask for the JSON answer (Accept: application/json), which lists them undrawn"


def drawing_units(outcomes: int) -> int:
    """What a picture of ``outcomes`` outcomes costs the request's budget."""
    return outcomes * OUTCOME_UNITS


def afford_drawing(outcomes: int, units: int = 0) -> None:
    """Refuse now a picture of ``outcomes`` outcomes that would pass the budget with the
    ``units`` its answer is foreseen to take first."""
    budget.current().afford(units + drawing_units(outcomes), DRAWING, UNDRAWN)


def answer(body: Mapping[str, Any], draw: Callable[[Mapping[str, Any]], str]) -> Response:
    """``draw(body)`` as the answer, its outcomes charged to the request's budget first."""
    outcomes = body.get("outcomes")
    if outcomes:
        budget.current().charge(drawing_units(len(outcomes)), DRAWING, UNDRAWN)
    return varies(Response(draw(body), mimetype=SVG))


def varies(response: Response) -> Response:
    """An answer chosen by Accept says so, picture and JSON alike, so a cache in between
    never hands one to a client that asked for the other."""
    if "Vary" in response.headers:
        response.vary.add("Accept")
    else:  # the usual case, without parsing and writing back a header set
        response.headers["Vary"] = "Accept"
    return response


# --- drawing -------------------------------------------------------------------------


def _svg(title: str, desc: str) -> ET.Element:
    """A picture's root; ``_finish`` gives it its size once everything is drawn."""
    root = ET.Element(
        "svg",
        {"xmlns": NS, "role": "img", "font-family": "sans-serif", "font-size": str(FONT)},
    )
    ET.SubElement(root, "title").text = title
    ET.SubElement(root, "desc").text = desc
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%", "fill": "#fff"})
    return root


def _finish(root: ET.Element, width: int, height: float) -> str:
    root.set("width", "100%")  # the screen's width, the height following the viewBox
    root.set("viewBox", f"0 0 {width} {height:g}")
    root.set("style", f"max-width:{round(MAX_SCALE * width)}px;height:auto")
    return ET.tostring(root, encoding="unicode", xml_declaration=False)


def _text(parent: ET.Element, x: float, y: float, text: str, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, "text", {"x": f"{x:g}", "y": f"{y:g}", **attrs})
    element.text = text
    return element


def _fits(width: float, size: int = FONT) -> int:
    """How many characters of text at ``size`` fit in ``width``."""
    return max(1, int(width / (CHAR * size)))


def _wrap(text: str, chars: int, most: int = 3) -> list[str]:
    """Lines of at most ``chars`` characters, broken between words; past ``most`` lines the
    last ends in an ellipsis (the whole text is in the element's title)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > chars:  # a word longer than a line is cut
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:chars])
            word = word[chars:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= chars:
            line = f"{line} {word}"
        else:
            lines.append(line)
            line = word
    if line or not lines:
        lines.append(line)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: chars - 1].rstrip() + "\u2026"
    return lines


def _paragraph(
    parent: ET.Element, y: float, text: str, size: int = FONT, asked: bool = False, **attrs: str
) -> float:
    """Text wrapped to the picture's width from baseline ``y``; the next free baseline. The
    lines of what the request asked are marked ``data-asked``."""
    marks = {"data-asked": ""} if asked else {}
    for line in _wrap(text, _fits(WIDTH - 2 * PAD, size), most=6):
        _text(parent, PAD, y, line, **{"font-size": str(size), **marks, **attrs})
        y += size + 4
    return y


def percent(chance: Fraction | float) -> str:
    """A chance as a player reads it: one decimal, never rounded to a sure 0% or 100%."""
    if chance <= 0:
        return "0%"
    if chance >= 1:
        return "100%"
    if chance < Fraction(1, 1000):
        return "<0.1%"
    if chance > Fraction(999, 1000):
        return ">99.9%"
    return f"{100 * float(chance):.1f}%"


def _bar(
    parent: ET.Element,
    y: float,
    label: str,
    chance: Fraction,
    colour: str,
    attrs: Mapping[str, str],
) -> float:
    """A labelled bar (label over a full-width track, the chance at the right); the y below."""
    group = ET.SubElement(parent, "g", dict(attrs))
    ET.SubElement(group, "title").text = f"{label}: {percent(chance)} ({chance})"
    shown = percent(chance)
    room = WIDTH - 2 * PAD - (len(shown) + 1) * CHAR * FONT
    lines = _wrap(label, _fits(room), most=2)
    for index, line in enumerate(lines):
        _text(group, PAD, y + FONT + index * LINE, line)
    _text(group, WIDTH - PAD, y + FONT, shown, **{"text-anchor": "end", "font-weight": "bold"})
    top = y + FONT + (len(lines) - 1) * LINE + 5
    track = WIDTH - 2 * PAD
    ET.SubElement(
        group,
        "rect",
        {"x": str(PAD), "y": f"{top:g}", "width": str(track), "height": "8", "fill": TRACK},
    )
    ET.SubElement(
        group,
        "rect",
        {
            "x": str(PAD),
            "y": f"{top:g}",
            "width": f"{track * float(chance):.2f}",
            "height": "8",
            "fill": colour,
            "data-bar": "",
        },
    )
    return top + 8 + 10


def _heading(parent: ET.Element, y: float, text: str) -> float:
    _text(parent, PAD, y + FONT + 6, text, **{"font-weight": "bold", "fill": FAINT})
    return y + FONT + 14


# --- an outcome in words ---------------------------------------------------------------
#
# A result reads member by member (a nested object's members by their path), taking only
# the members whose values differ between the outcomes (the ones that tell them apart). What
# each member is comes from the result's type (``Reading``), never from its name:
# - text its type marks ``Headline``, or the only member that differs: the headline, as it
#   is ("Fair", "Turret destroyed");
# - a whole number its type marks ``Hits``: hits, added up into one phrase
#   ("3 hits (2 flotation, 1 speed)", "2 turret hits");
# - true: its name ("sunk", "fire control lost"); false, null, 0 or empty: left out;
# - another number or text: its name and value ("damage 13", "reason rolled").
# A result with nothing left to say reads "Miss" if a member its type marks ``Landed`` is
# false, else "No effect".
# A ruleset whose result would read badly rewords it first (``StepHTTP.words``), into a
# TypedDict of its own, read the same way from its type.


@dataclass(frozen=True)
class Reading:
    """How a picture reads an outcome's result, worked out from the result's type (never
    from its member names): which members count hits, of which kind, and which name the
    outcome. Other members read by their values: true a yes-or-no, a number, words."""

    hits: Mapping[Path, str]
    headlines: frozenset[Path]
    landed: frozenset[Path]

    def is_hits(self, path: Path, value: Any) -> bool:
        return path in self.hits and isinstance(value, int) and not isinstance(value, bool)


def reading(typed: Any) -> Reading:
    """The ``Reading`` of a result's TypedDict (its markers ``Hits``, ``Headline`` and
    ``Landed``, engine/typed.py), nested ones and the variants of a union included."""
    hits: dict[Path, str] = {}
    headlines: set[Path] = set()
    landed: set[Path] = set()

    def walk(hint: Any, path: Path) -> None:
        origin = typing.get_origin(hint)
        if origin in (NotRequired, Required):
            walk(typing.get_args(hint)[0], path)
        elif origin is typing.Annotated:
            base, *extras = typing.get_args(hint)
            for extra in extras:
                if isinstance(extra, Hits):
                    hits[path] = extra.kind
                if isinstance(extra, Headline):
                    headlines.add(path)
                if isinstance(extra, Landed):
                    landed.add(path)
            walk(base, path)
        elif origin in (typing.Union, types.UnionType):
            for option in typing.get_args(hint):
                walk(option, path)
        elif typing.is_typeddict(hint):
            for key, member in typing.get_type_hints(hint, include_extras=True).items():
                walk(member, (*path, key))

    walk(typed, ())
    return Reading(hits, frozenset(headlines), frozenset(landed))


def _flat(value: Any, path: Path = ()) -> dict[Path, Any]:
    if isinstance(value, Mapping) and value:
        flat: dict[Path, Any] = {}
        for key, item in value.items():
            flat.update(_flat(item, (*path, str(key))))
        return flat
    return {path: value}


def _name(path: Path) -> str:
    return " ".join(key.replace("_", " ") for key in path)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _hits(facts: Mapping[Path, Any], reads: Reading) -> int:
    return sum(value for path, value in facts.items() if reads.is_hits(path, value))


def _hit_words(facts: Mapping[Path, Any], reads: Reading) -> str | None:
    total = _hits(facts, reads)
    if total == 0:
        return None
    kinds = [(reads.hits[p], v) for p, v in facts.items() if reads.is_hits(p, v) and v]
    kinds = [(kind, v) for kind, v in kinds if kind]
    if len(kinds) == 1 and kinds[0][1] == total:
        return _count(total, f"{kinds[0][0]} hit")
    if not kinds:
        return _count(total, "hit")
    return f"{_count(total, 'hit')} ({', '.join(f'{n} {kind}' for kind, n in kinds)})"


def _plain(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, float | int):
        return f"{value:g}" if isinstance(value, float) else str(value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _say(facts: Mapping[Path, Any], telling: Sequence[Path], reads: Reading) -> str:
    """One outcome in words, from the members that tell the outcomes apart."""
    heads: list[str] = []
    parts: list[str] = []
    hits_said = False
    for path in telling:
        value = facts.get(path)
        if reads.is_hits(path, value):
            if not hits_said:
                hits_said = True
                said = _hit_words(facts, reads)
                if said:
                    parts.append(said)
        elif value is None or value is False or value == 0 or value in ("", [], {}):
            continue
        elif value is True:
            parts.append(_name(path))
        elif isinstance(value, str) and (path in reads.headlines or len(telling) == 1):
            heads.append(value)
        else:
            parts.append(f"{_name(path)} {_plain(value)}")
    head, rest = ", ".join(heads), ", ".join(parts)
    said = f"{head}: {rest}" if head and rest else head or rest
    if not said:
        missed = any(facts.get(path) is False for path in reads.landed)
        said = "Miss" if missed else "No effect"
    return said[0].upper() + said[1:]


def _telling(all_facts: Sequence[Mapping[Path, Any]]) -> list[Path]:
    """The members whose values differ between outcomes (all of them if none do)."""
    paths = list(dict.fromkeys(path for facts in all_facts for path in facts))

    def seen(path: Path) -> set[str]:
        return {json.dumps(facts.get(path), sort_keys=True) for facts in all_facts}

    return [path for path in paths if len(seen(path)) > 1] or paths


# --- the questions a player asks ---------------------------------------------------------


def _chance(
    chances: Iterable[tuple[Mapping[Path, Any], Fraction]], test: Callable[..., bool]
) -> Fraction:
    return sum((chance for facts, chance in chances if test(facts)), Fraction(0))


def _questions(
    weighed: Sequence[tuple[Mapping[Path, Any], Fraction]],
    telling: Sequence[Path],
    reads: Reading,
) -> list[tuple[str, Fraction]]:
    """In the members' order: the chance of any hit and of each kind of hit (at the first
    hits member), of each yes-or-no member, and of each text member that is sometimes null
    ("Critical": a critical of some name)."""
    asked: list[tuple[str, Fraction]] = []
    hit_paths = [p for p in telling if any(reads.is_hits(p, facts.get(p)) for facts, _ in weighed)]
    for path in telling:
        values = [facts.get(path) for facts, _ in weighed]
        said = _name(path)
        said = said[0].upper() + said[1:]
        if hit_paths and path == hit_paths[0]:
            asked.append(("Any hit", _chance(weighed, lambda facts: _hits(facts, reads) > 0)))
            kinds = [p for p in hit_paths if reads.hits[p] and any(f.get(p) for f, _ in weighed)]
            for kind in kinds if len(kinds) > 1 else []:
                asked.append(
                    (
                        f"At least one {reads.hits[kind]} hit",
                        _chance(weighed, lambda facts, kind=kind: bool(facts.get(kind))),
                    )
                )
        elif any(isinstance(value, bool) for value in values):
            asked.append((said, _chance(weighed, lambda facts, path=path: facts.get(path) is True)))
        elif (
            path not in reads.headlines
            and None in values
            and any(isinstance(value, str) for value in values)
        ):
            asked.append((said, _chance(weighed, lambda facts, path=path: bool(facts.get(path)))))
    return asked


def _how_many(
    weighed: Sequence[tuple[Mapping[Path, Any], Fraction]], reads: Reading
) -> list[tuple[str, Fraction]]:
    """The chance of each number of hits in all, from none to the most (a number no outcome
    gives is left out), when there are more than two answers to it."""
    totals: dict[int, Fraction] = {}
    for facts, chance in weighed:
        total = _hits(facts, reads)
        totals[total] = totals.get(total, Fraction(0)) + chance
    if len(totals) <= 2:
        return []
    return [("No hits" if n == 0 else _count(n, "hit"), totals[n]) for n in sorted(totals)]


# --- what was asked, in words -------------------------------------------------------------


def _ship(value: Any) -> str | None:
    """A ship as a request names it: by its name, its card or its class."""
    if isinstance(value, Mapping):
        for key in ("name", "ship", "class"):
            if isinstance(value.get(key), str):
                return str(value[key])
        return None
    return value if isinstance(value, str) else None


def _inches(value: Any) -> str:
    return f'{_plain(value)}"'


def _at(asked: Mapping[str, Any]) -> str | None:
    """The range asked: a band by its name ("Medium range"), a distance in inches."""
    band = asked.get("range")
    if isinstance(band, str):
        return f"at {band} range"
    for key in ("range", "distance"):
        value = asked.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return f"at {_inches(value)}"
    return None


def _with(asked: Mapping[str, Any], torpedoes: bool) -> str | None:
    """What the firer fires: its battery, its torpedoes, the guns that bear, its weapon."""
    count = asked.get("torpedoes")
    if isinstance(count, int) and not isinstance(count, bool):
        return f"with {_count(count, 'torpedo').replace('torpedos', 'torpedoes')}"
    battery = asked.get("battery")
    if isinstance(battery, int | float) and not isinstance(battery, bool):
        return f"with its {_inches(battery)} guns"
    weapon = asked.get("weapon")
    if weapon == "torpedoes" or torpedoes:
        return "with torpedoes"
    if isinstance(weapon, str) and weapon != "none":
        return f"with its {weapon}"
    bearing = asked.get("guns_bearing")
    if isinstance(bearing, str):
        return f"with its {bearing} guns"
    return None


def fires(asked: Mapping[str, Any], firer: str | None = None, step: str = "") -> str | None:
    """Who fires at whom, with what and at what range, as far as the request says so: "Ajax
    fires at Graf Spee with its broadside guns at Medium range"; none if it names no target."""
    target = _ship(asked.get("target"))
    if target is None:
        return None
    firer = firer or _ship(asked.get("firer"))
    said = [f"{firer} fires at {target}" if firer else f"Fire at {target}"]
    said += [part for part in (_with(asked, step == "torpedo"), _at(asked)) if part]
    return " ".join(said)


def _title(body: Mapping[str, Any]) -> str:
    step = str(body["step"]).replace("-", " ")
    about = body["ruleset"] if body["ruleset"] is not None else body.get("notation")
    return f"{step[0].upper()}{step[1:]}: the odds ({about})"


def _head(root: ET.Element, title: str, said: str | None) -> float:
    """The title in bold and under it, if any, what was asked; the y below."""
    _text(root, PAD, PAD + FONT + 2, title, **{"font-weight": "bold", "font-size": "15"})
    y = PAD + FONT + 10.0
    if said:
        y = _paragraph(root, y + FONT, said, asked=True) - FONT + 4
    return y


def _answers(
    root: Any, y: float, heading: str, rows: list[tuple[str, Fraction]], key: str
) -> float:
    """A heading and a bar for each of a player's questions, the question in ``key``."""
    y = _heading(root, y, heading)
    for label, chance in rows:
        y = _bar(root, y, label, chance, QUESTION_COLOUR, {key: label, "data-chance": str(chance)})
    return y


def _line(
    parent: ET.Element, y: float, label: str, chance: Fraction, attrs: Mapping[str, str]
) -> float:
    """An outcome in small, for a list too long for full bars: its words (on at most two
    lines, whole in its title) over a thin bar, the chance at the right; the y below."""
    group = ET.SubElement(parent, "g", dict(attrs))
    shown = percent(chance)
    ET.SubElement(group, "title").text = f"{label}: {shown} ({chance})"
    room = WIDTH - 2 * PAD - (len(shown) + 1) * CHAR * FONT
    lines = _wrap(label, _fits(room), most=2)
    for index, line in enumerate(lines):
        _text(group, PAD, y + FONT + index * (FONT + 2), line)
    _text(group, WIDTH - PAD, y + FONT, shown, **{"text-anchor": "end", "font-weight": "bold"})
    track = WIDTH - 2 * PAD
    below = y + FONT + (len(lines) - 1) * (FONT + 2) + 3
    _shape(group, "rect", x=PAD, y=below, width=track, height=3, fill=TRACK)
    _shape(group, "rect", x=PAD, y=below, width=round(track * float(chance), 2), height=3,
           fill=BAR_COLOUR, data_bar="")  # fmt: skip
    return below + 7


def histogram(
    parent: ET.Element,
    y: float,
    columns: Sequence[tuple[int, Fraction, Mapping[str, str]]],
    say: Callable[[int], str],
    axis: str,
) -> float:
    """A column for each number from the least to the most (a number no outcome gives has an
    empty column, so the spacing reads true), each labelled ``say(number)`` in its title, the
    numbers along the bottom as many as fit, and the tallest column's chance over it; the y
    below. ``columns``: (number, chance, the column's data attributes)."""
    if not columns:
        return y
    by_number = {number: (chance, attrs) for number, chance, attrs in columns}
    low, high = min(by_number), max(by_number)
    span = high - low + 1
    track = WIDTH - 2 * PAD
    step = min(track / span, 2.0 * CELL)  # a few numbers are not drawn as slabs
    tallest = max(chance for chance, _ in by_number.values())
    top = y + FONT + 8  # room for the tallest column's chance
    floor = top + COLUMNS_HEIGHT
    group = ET.SubElement(parent, "g", {"data-histogram": axis})
    labelled = False  # the tallest column's chance, written over the first of them only
    for offset in range(span):
        number = low + offset
        if number not in by_number:
            continue
        chance, attrs = by_number[number]
        column = ET.SubElement(group, "g", dict(attrs))
        ET.SubElement(column, "title").text = f"{say(number)}: {percent(chance)} ({chance})"
        height = COLUMNS_HEIGHT * float(chance / tallest) if tallest else 0.0
        x = PAD + offset * step
        # A column under a pixel tall is drawn a pixel tall, so no outcome is invisible.
        height = max(height, 1.0) if chance else 0.0
        _shape(column, "rect", x=round(x + min(1, step / 8), 2), y=round(floor - height, 2),
               width=round(max(step - min(2, step / 4), 0.5), 2), height=round(height, 2),
               fill=BAR_COLOUR, data_bar="")  # fmt: skip
        if chance == tallest and not labelled:
            labelled = True
            half = len(percent(chance)) * CHAR * 11 / 2  # kept whole inside the picture
            middle = min(max(x + step / 2, PAD + half), WIDTH - PAD - half)
            _text(column, middle, floor - height - 4, percent(chance),
                  **{"text-anchor": "middle", "font-size": "11", "fill": INK})  # fmt: skip
    _shape(group, "path", d=f"M{PAD} {floor:g}H{PAD + span * step:g}", stroke=FAINT,
           stroke_width=1)  # fmt: skip
    # Numbers along the bottom: the first, the last, and between them every multiple of the
    # roundest step that leaves room for them.
    room = max(len(str(low)), len(str(high))) * CHAR * 11 + 6
    every = next(n for n in _round_steps() if n * step >= room)
    ticks = [n for n in range(low, high + 1) if n % every == 0]
    near = [n for n in ticks if (n - low) * step < room or (high - n) * step < room]
    for number in sorted({low, high, *(set(ticks) - set(near))}):
        if number == high and high != low and (high - low) * step < room:
            continue  # the first and last too close to write both: the first stays
        _text(group, PAD + (number - low + 0.5) * step, floor + 13, str(number),
              **{"text-anchor": "middle", "font-size": "11", "fill": FAINT})  # fmt: skip
    middle = max(PAD + span * step / 2, PAD + len(axis) * CHAR * FONT / 2)
    _text(group, middle, floor + 28, axis, **{"text-anchor": "middle", "fill": FAINT})
    return floor + 36


def _round_steps() -> Iterable[int]:
    """1, 2, 5, 10, 20, 50, 100, ...: the steps between the numbers along a histogram."""
    scale = 1
    while True:
        yield from (scale, 2 * scale, 5 * scale)
        scale *= 10


def _numbered(telling: Sequence[Path], all_facts: Sequence[Mapping[Path, Any]]) -> Path | None:
    """The one member that tells the outcomes apart, if it is a whole number in each (a dice
    total): such outcomes are a histogram."""
    if len(telling) != 1:
        return None
    path = telling[0]
    for facts in all_facts:
        value = facts.get(path)
        if not isinstance(value, int) or isinstance(value, bool):
            return None
    return path


def odds(
    body: Mapping[str, Any],
    reads: Reading,
    words: Words | None = None,
    asked: Mapping[str, Any] | None = None,
) -> str:
    """The odds of a step, whole: a histogram where one number tells the outcomes apart,
    otherwise the questions first when the outcomes are many, then every outcome in words,
    most likely first. ``reads`` says how an outcome's result reads (its type's, or that of
    ``words``, the ruleset's rewording). The title says what was ``asked``, as far as the
    request says."""
    outcomes = body["outcomes"]
    chances = [Fraction(outcome["probability"]) for outcome in outcomes]
    all_facts = [
        _flat(dict(words(outcome["result"]) if words else outcome["result"]))
        for outcome in outcomes
    ]
    telling = _telling(all_facts)
    title = _title(body)
    said = fires(asked or {}, step=str(body["step"]))
    root = _svg(
        f"{title}: {said}" if said else title,
        f"{len(outcomes)} outcomes, exact over every face of every die, each drawn; the JSON "
        "answer (Accept: application/json) lists each with its result and is signed.",
    )
    y = _head(root, title, said)
    numbered = _numbered(telling, all_facts)
    if numbered is not None:
        name = _name(numbered)
        name = name[0].upper() + name[1:]
        by_number: dict[int, list[int]] = {}
        for index, facts in enumerate(all_facts):
            by_number.setdefault(int(facts[numbered]), []).append(index)
        columns = []
        for number, indices in by_number.items():
            chance = sum((chances[i] for i in indices), Fraction(0))
            attrs = {**_outcome_attrs(indices, chance), "data-value": str(number)}
            columns.append((number, chance, attrs))
        y = histogram(root, y + 6, columns, lambda n: f"{name} {n}", name)
        return _finish(root, WIDTH, y + PAD)
    weighed = list(zip(all_facts, chances, strict=True))
    groups: dict[str, list[int]] = {}
    for index, facts in enumerate(all_facts):
        groups.setdefault(_say(facts, telling, reads), []).append(index)
    ranked = sorted(
        groups.items(), key=lambda item: -sum((chances[i] for i in item[1]), Fraction(0))
    )
    questions = _questions(weighed, telling, reads) if len(outcomes) > FEW else []
    if questions:
        y = _answers(root, y, "Chances", questions, "data-question")
        how_many = _how_many(weighed, reads)
        if how_many:
            y = _answers(root, y, "How many hits", how_many, "data-hits")
    full = SHOWN_AFTER_QUESTIONS if questions else SHOWN
    y = _heading(root, y, f"Every outcome ({len(ranked)}), most likely first")
    for label, indices in ranked:
        chance = sum((chances[i] for i in indices), Fraction(0))
        attrs = _outcome_attrs(indices, chance)
        if len(ranked) <= full + 2:
            y = _bar(root, y, label, chance, BAR_COLOUR, attrs)
        else:
            y = _line(root, y, label, chance, attrs)
    return _finish(root, WIDTH, y + PAD)


@dataclass(frozen=True)
class ChanceGroup:
    """One heading's part of a composite step's odds (for a turn, one ship's): named chances
    as bars, and how much it loses as a histogram (``spread``: number, chance)."""

    heading: str
    bars: Sequence[tuple[str, Fraction]]
    said: str | None = None  # what it was asked to do, in words
    spread: Sequence[tuple[int, Fraction]] = ()
    spread_name: str = ""  # the histogram's axis, such as "Boxes marked off"
    spread_says: Callable[[int], str] = str  # one column's label, such as "3 boxes marked off"


def chances(title: str, desc: str, groups: Sequence[ChanceGroup]) -> str:
    """Named chances under headings, as bars, each group in the order given, then its
    histogram."""
    root = _svg(title, desc)
    y = _head(root, title, None)
    for number, group in enumerate(groups):
        y = _heading(root, y, group.heading)
        if group.said:
            y = _paragraph(root, y + FONT, group.said, asked=True, fill=FAINT)
            y += 4 - FONT
        for label, chance in group.bars:
            attrs = {
                "data-group": str(number),
                "data-chance": label,
                "data-probability": str(chance),
            }
            y = _bar(root, y, label, chance, BAR_COLOUR, attrs)
        if group.spread:
            columns = [
                (value, chance, {"data-group": str(number), "data-value": str(value),
                                 "data-probability": str(chance)})
                for value, chance in group.spread
            ]  # fmt: skip
            y = histogram(root, y, columns, group.spread_says, group.spread_name)
    return _finish(root, WIDTH, y + PAD)


def _outcome_attrs(indices: Sequence[int], chance: Fraction) -> dict[str, str]:
    return {
        "data-outcome": " ".join(map(str, sorted(indices))),
        "data-probability": str(chance),
        "data-p": repr(float(chance)),
    }


# --- the heat map ----------------------------------------------------------------------

CELL = 34
GRID_X = 26  # room for the row numbers
MISS_FILL, MISS_MARK = "#dbe9f6", "#3b6ea5"
HIT_FILL = "#a01010"
SUNK_FILL = "#37474f"
CONTACT_FILL, CONTACT_MARK = "#fff3c4", "#2e7d32"

# How sure the heat map is, one sentence for each ``method`` of the result; a method this
# table does not know yet is said by its name, so a new one never breaks the picture.
HOW_SURE: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "exact": lambda result: (
        f"Exact: counted over all {result['placements']:,} ways the rival's fleet can lie "
        "that fit what you know."
    ),
    "sampled": lambda result: (
        f"Estimated from {result['sampler']['samples']:,} sampled layouts of the rival's "
        "fleet that fit what you know: close, not exact."
    ),
}


def how_sure(result: Mapping[str, Any]) -> str:
    """In words, how the heat map's chances were worked out."""
    method = result.get("method")
    say = HOW_SURE.get(str(method))
    if say is None:
        return f"Worked out by the {method} method."
    try:
        return say(result)
    except (KeyError, TypeError):  # a member it reads is missing: say no more than the name
        return f"Worked out by the {method} method."


def _shade(p: float) -> str:
    """White (0) to deep orange (1): apart from a hit's crimson and a miss's blue."""
    p = min(1.0, max(0.0, p))
    return f"rgb({255 - round(25 * p)},{255 - round(165 * p)},{255 - round(255 * p)})"


def _told(asked: Mapping[str, Any]) -> dict[str, str]:
    """What the captain was told of each square, from the request's ``view``."""
    view = asked.get("view") or {}
    told: dict[str, str] = {}
    for state, squares in (
        ("miss", view.get("misses") or []),
        ("contact", view.get("contacts") or []),
        ("hit", view.get("hits") or []),
        ("sunk", [sq for ship in view.get("sunk") or [] for sq in ship.get("squares") or []]),
    ):
        for square in squares:
            told[str(square).upper()] = state  # later states win: a sunk ship's hits are sunk
    return told


def _shape(parent: ET.Element, tag: str, **attrs: float | str) -> ET.Element:
    """An element whose numbers are written short (``stroke_width`` for ``stroke-width``)."""
    written = {
        key.replace("_", "-"): f"{value:g}" if isinstance(value, float | int) else value
        for key, value in attrs.items()
    }
    return ET.SubElement(parent, tag, written)


def _mark(parent: ET.Element, state: str, x: float, y: float, size: float) -> None:
    """A told square's sign, drawn (no font needed) in the square at (x, y)."""
    cx, cy = x + size / 2, y + size / 2
    if state == "miss":
        _shape(parent, "circle", cx=cx, cy=cy, r=size / 5, fill="none", stroke=MISS_MARK,
               stroke_width=2)  # fmt: skip
    elif state in ("hit", "sunk"):
        d = size / 4
        a, b, c, e = cx - d, cy - d, cx + d, cy + d
        cross = f"M{a:g} {b:g}L{c:g} {e:g}M{c:g} {b:g}L{a:g} {e:g}"
        _shape(parent, "path", d=cross, stroke="#fff", stroke_width=3, stroke_linecap="round")
    elif state == "contact":
        for r in (size / 4, size / 10):
            _shape(parent, "circle", cx=cx, cy=cy, r=r, fill="none", stroke=CONTACT_MARK,
                   stroke_width=2)  # fmt: skip


FILLS = {"miss": MISS_FILL, "hit": HIT_FILL, "sunk": SUNK_FILL, "contact": CONTACT_FILL}
LEGEND = (("miss", "Miss"), ("hit", "Hit"), ("sunk", "Sunk ship"), ("contact", "Contact"))
STATE_WORDS = {
    "miss": "a miss: open water",
    "hit": "hit, on a ship still afloat",
    "sunk": "a sunk ship",
    "contact": "a contact: a ship is there, not yet hit",
}


def heat_map(envelope: Mapping[str, Any], asked: Mapping[str, Any]) -> str:
    """The grid: told squares marked, the others shaded by the chance a ship afloat is there,
    with a legend and a sentence on how sure the chances are."""
    result = envelope["result"]
    rows: list[list[float]] = result["rows"]
    columns = len(rows[0]) if rows else 0
    told = _told(asked)
    sure = how_sure(result)
    width = max(WIDTH, GRID_X + columns * CELL + PAD)
    title = "Where the rival's ships afloat may lie"
    desc = sure
    if result.get("sampler"):
        desc += (
            f" Sampler seed {result['sampler'].get('seed')}: the same request draws the same map."
        )
    root = _svg(title, desc)
    root.set("data-method", str(result["method"]))
    _text(root, PAD, PAD + FONT + 2, title, **{"font-weight": "bold", "font-size": "15"})
    y = PAD + FONT + 10.0
    afloat = result.get("afloat") or []
    if afloat:
        y = _paragraph(root, y + FONT, f"Afloat: {', '.join(afloat)}.", fill=FAINT) - FONT
    top = y + 18
    for c in range(columns):
        _text(root, GRID_X + c * CELL + CELL / 2, top - 5, chr(ord("A") + c),
              **{"text-anchor": "middle", "fill": FAINT})  # fmt: skip
    for r, row in enumerate(rows):
        _text(root, GRID_X - 5, top + r * CELL + CELL / 2 + 4, str(r + 1),
              **{"text-anchor": "end", "fill": FAINT})  # fmt: skip
        for c, p in enumerate(row):
            square = f"{chr(ord('A') + c)}{r + 1}"
            state = told.get(square, "open")
            x, cell_y = GRID_X + c * CELL, top + r * CELL
            cell = ET.SubElement(
                root,
                "rect",
                {
                    "x": str(x),
                    "y": f"{cell_y:g}",
                    "width": str(CELL),
                    "height": str(CELL),
                    "fill": FILLS.get(state) or _shade(p),
                    "stroke": "#999",
                    "data-square": square,
                    "data-state": state,
                    "data-p": repr(p),
                },
            )
            said = STATE_WORDS.get(state) or f"{percent(p)} chance a ship afloat is here"
            ET.SubElement(cell, "title").text = f"{square}: {said}"
            if state == "open":
                _text(root, x + CELL / 2, cell_y + CELL / 2 + 4, f"{round(100 * p)}%",
                      **{"text-anchor": "middle", "font-size": "10",
                         "fill": "#fff" if p > 0.6 else INK})  # fmt: skip
            else:
                _mark(root, state, x, cell_y, CELL)
    y = top + len(rows) * CELL + 10
    y = _legend(root, y)
    y = _paragraph(root, y + FONT, sure)
    return _finish(root, width, y - FONT + PAD)


def _legend(root: ET.Element, y: float) -> float:
    """The four marks in a row, then the shades with the chance each stands for."""
    legend = ET.SubElement(root, "g", {"data-legend": ""})
    step = (WIDTH - 2 * PAD) / len(LEGEND)
    swatch = 18
    for index, (state, label) in enumerate(LEGEND):
        x = PAD + index * step
        _shape(legend, "rect", x=x, y=y, width=swatch, height=swatch, fill=FILLS[state],
               stroke="#999")  # fmt: skip
        _mark(legend, state, x, y, swatch)
        _text(legend, x + swatch + 5, y + swatch / 2 + 4, label, **{"font-size": "12"})
    y += swatch + 10
    _text(legend, PAD, y + 12, "Other squares: the chance a ship afloat is there",
          **{"font-size": "12"})  # fmt: skip
    y += 18
    shades = (0.0, 0.25, 0.5, 0.75, 1.0)
    step = (WIDTH - 2 * PAD) / len(shades)
    for index, p in enumerate(shades):
        x = PAD + index * step
        _shape(legend, "rect", x=x, y=y, width=swatch, height=swatch, fill=_shade(p),
               stroke="#999")  # fmt: skip
        _text(legend, x + swatch + 5, y + swatch / 2 + 4, f"{round(100 * p)}%",
              **{"font-size": "12"})  # fmt: skip
    return y + swatch + 4
