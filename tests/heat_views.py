"""Heavy heat-map views from real fleets, seeded: the heat map's worst cases are searched
among these (bench/heatmap_views.py) and the heaviest found go into tests/worst_cases.py.

A view: a legal fleet placed by the service's own layout code from seeded dice, then shots
fired at it (most on its ships, so 4 to 10 hits, and few misses: the open views are the
costly ones), a ship sunk now and then, one or two contacts, and a sonar (cruiser, a row or
a column) and a recon (carrier, a 3x3 block) count as the rules would give them.
"""

from __future__ import annotations

import random
from typing import Any

from service.engine.dice import SeededDice
from service.engine.resolution import Resolution
from service.rulesets.salvo_grid import tables as t
from service.rulesets.salvo_grid.fleet import LayoutInput, layout, name, parse

Square = tuple[int, int]
COLUMNS = len(t.COLUMNS)


def fleet_of(seed: str) -> dict[str, list[Square]]:
    """A legal fleet, placed by the layout step from seeded dice."""
    placed = layout(LayoutInput(), Resolution(SeededDice(seed)))["fleet"]
    assert placed is not None
    return {p["ship"]: [parse(sq) for sq in p["squares"]] for p in placed}


def _names(squares: Any) -> list[str]:
    return [name(sq) for sq in sorted(squares, key=lambda sq: (sq[1], sq[0]))]


def heavy_view(seed: str) -> dict[str, Any]:
    """A heat map request (``view``, ``counts``) from a fleet placed with ``seed``."""
    rng = random.Random(seed)
    fleet = fleet_of(seed)
    ship_squares = {sq for sqs in fleet.values() for sq in sqs}
    water = [(c, r) for r in range(t.ROWS) for c in range(COLUMNS) if (c, r) not in ship_squares]
    sunk_ships = rng.sample(sorted(fleet), rng.choice((0, 0, 0, 1, 1, 2)))
    # Hits on ships afloat, never all of one ship's squares.
    open_squares = [sq for ship, sqs in fleet.items() if ship not in sunk_ships for sq in sqs]
    hits: set[Square] = set()
    want = rng.randint(4, 10)
    for sq in rng.sample(open_squares, len(open_squares)):
        if len(hits) >= want:
            break
        ship = next(s for s, sqs in fleet.items() if sq in sqs)
        if sum(1 for x in fleet[ship] if x in hits) + 1 < len(fleet[ship]):
            hits.add(sq)
    misses = set(rng.sample(water, rng.randint(0, 12)))
    left = [sq for sq in open_squares if sq not in hits]
    contacts = set(rng.sample(left, min(len(left), rng.randint(0, 2))))
    sunk_squares = {sq for ship in sunk_ships for sq in fleet[ship]}
    known_hit = hits | sunk_squares
    counts = []
    if "cruiser" not in sunk_ships or rng.random() < 0.5:
        index = rng.randrange(COLUMNS)
        if rng.random() < 0.5:
            area = [(c, index) for c in range(COLUMNS)]
        else:
            area = [(index, r) for r in range(t.ROWS)]
        counts.append(_count("cruiser", area, ship_squares, known_hit))
    if "carrier" not in sunk_ships or rng.random() < 0.5:
        c0, r0 = rng.randrange(COLUMNS), rng.randrange(t.ROWS)
        area = [
            (c, r)
            for r in range(r0 - 1, r0 + 2)
            for c in range(c0 - 1, c0 + 2)
            if 0 <= c < COLUMNS and 0 <= r < t.ROWS
        ]
        counts.append(_count("carrier", area, ship_squares, known_hit))
    return {
        "view": {
            "misses": _names(misses),
            "hits": _names(hits),
            "contacts": _names(contacts),
            "sunk": [{"ship": ship, "squares": _names(fleet[ship])} for ship in sunk_ships],
        },
        "counts": counts,
    }


def _count(
    ship: str, area: list[Square], ship_squares: set[Square], known_hit: set[Square]
) -> dict[str, Any]:
    hit = [sq for sq in area if sq in known_hit]
    count = sum(1 for sq in area if sq in ship_squares) - len(hit)
    return {"ship": ship, "squares": [name(sq) for sq in area], "count": count, "hit": _names(hit)}


def mutated(body: dict[str, Any], seed: str) -> dict[str, Any]:
    """A view one step from ``body``: a hit moved, a miss added or dropped, a count off by
    one, or a hit turned into a contact; it may still fit a fleet, or not."""
    rng = random.Random(seed)
    view = {k: list(v) for k, v in body["view"].items()}
    counts = [dict(c) for c in body["counts"]]
    every = [name((c, r)) for r in range(t.ROWS) for c in range(COLUMNS)]
    used = {sq for key in ("misses", "hits", "contacts") for sq in view[key]}
    used |= {sq for s in view["sunk"] for sq in s["squares"]}
    free = [sq for sq in every if sq not in used]
    kind = rng.randrange(5)
    if kind == 0 and view["hits"]:
        view["hits"].remove(rng.choice(view["hits"]))
        view["hits"].append(rng.choice(free))
    elif kind == 1:
        view["misses"].append(rng.choice(free))
    elif kind == 2 and view["misses"]:
        view["misses"].remove(rng.choice(view["misses"]))
    elif kind == 3 and counts:
        count = rng.choice(counts)
        count["count"] = max(0, count["count"] + rng.choice((-1, 1)))
    elif view["hits"]:
        sq = rng.choice(view["hits"])
        view["hits"].remove(sq)
        for count in counts:
            count["hit"] = [x for x in count["hit"] if x != sq]
        view["contacts"].append(sq)
    return {"view": view, "counts": counts}


def view_at(path: str) -> dict[str, Any]:
    """The view a bench names: ``heavy-49`` as generated, ``heavy-150/m133`` one step
    from it (each step seeded by the path so far)."""
    first, *steps = path.split("/")
    body, at = heavy_view(first), first
    for step in steps:
        at = f"{at}/{step}"
        body = mutated(body, at)
    return body
