"""The SALVO heat map: against full enumeration on a small board, and as an endpoint."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.engine import budget as work_budget
from service.engine.dice import SeededDice
from service.engine.errors import RuleError
from service.engine.resolution import Resolution
from service.http.document.derive import shape_schema
from service.rulesets.salvo_grid import heatmap as hm
from service.rulesets.salvo_grid.fleet import names, parse
from tests.heat_views import view_at
from tests.salvo_grid_helpers import FLEET_A, refused, resolve
from tests.worst_cases import (
    HEAT_COUNTS,
    HEAT_VIEW,
    HEAVIEST_IMPOSSIBLE,
    HEAVIEST_STEP,
    HEAVIEST_VIEW,
)

SMALL = hm.Board(5, 5, (("cruiser", 3), ("destroyer", 2)))
Fleet = dict[str, frozenset[tuple[int, int]]]


def squares(*text: str) -> tuple[tuple[int, int], ...]:
    return tuple(parse(sq) for sq in text)


# --- full enumeration, written apart from the engine -------------------------------------------


def every_fleet(columns: int, rows: int, sizes: dict[str, int]) -> list[Fleet]:
    """Every layout of the ships: straight, on the board, not overlapping."""

    def places(size: int) -> list[frozenset[tuple[int, int]]]:
        out = set()
        for c in range(columns):
            for r in range(rows):
                if c + size <= columns:
                    out.add(frozenset((c + i, r) for i in range(size)))
                if r + size <= rows:
                    out.add(frozenset((c, r + i) for i in range(size)))
        return sorted(out, key=sorted)

    ships = list(sizes)
    fleets = []
    for combo in itertools.product(*(places(sizes[s]) for s in ships)):
        if sum(len(p) for p in combo) == len(frozenset().union(*combo)):
            fleets.append(dict(zip(ships, combo, strict=True)))
    return fleets


def fits(fleet: Fleet, told: hm.Told) -> bool:
    """Whether a fleet could have produced everything told, rule by rule."""
    hits, misses = set(told.hits), set(told.misses)
    sunk = {ship: set(sqs) for ship, sqs in told.sunk}
    every = set().union(*fleet.values())
    if misses & every:
        return False
    for ship, where in fleet.items():
        if ship in sunk:
            if set(where) != sunk[ship]:
                return False
        elif set(where) <= hits:  # afloat, so not hit everywhere
            return False
    afloat = set().union(*(w for s, w in fleet.items() if s not in sunk))
    if not hits <= afloat or not set(told.contacts) <= afloat:
        return False
    for count in told.counts:
        area = set(count.squares)
        if len(every & area) != count.count + len(set(count.hit)):
            return False
    return True


def brute(told: hm.Told, board: hm.Board) -> tuple[int, list[Fraction]]:
    fitting = [
        f for f in every_fleet(board.columns, board.rows, dict(board.fleet)) if fits(f, told)
    ]
    sunk = {ship for ship, _ in told.sunk}
    p = []
    for r in range(board.rows):
        for c in range(board.columns):
            held = sum(
                1
                for f in fitting
                if any((c, r) in where for ship, where in f.items() if ship not in sunk)
            )
            p.append(Fraction(held, len(fitting)) if fitting else Fraction(0))
    return len(fitting), p


def random_views(count: int) -> list[hm.Told]:
    """Views a real battle could give: a hidden fleet, some shots, maybe a count."""
    rng = random.Random(20261201)
    fleets = every_fleet(5, 5, {"cruiser": 3, "destroyer": 2})
    views = []
    board = [(c, r) for r in range(5) for c in range(5)]
    for _ in range(count):
        fleet = rng.choice(fleets)
        shots = set(rng.sample(board, rng.randint(0, 12)))
        ship_squares = set().union(*fleet.values())
        sunk = tuple((s, tuple(sorted(w))) for s, w in fleet.items() if w <= shots)
        if len(sunk) == 2:
            continue
        sunk_squares = {sq for _, sqs in sunk for sq in sqs}
        hits = tuple(sq for sq in board if sq in shots & ship_squares - sunk_squares)
        misses = tuple(sq for sq in board if sq in shots - ship_squares)
        unhit = sorted(ship_squares - shots)
        contacts = tuple(rng.sample(unhit, 1)) if unhit and rng.random() < 0.3 else ()
        counts: tuple[hm.Count, ...] = ()
        if rng.random() < 0.5:
            row = rng.randrange(5)
            area = tuple((c, row) for c in range(5))
            hit_then = tuple(sq for sq in area if sq in shots and sq in ship_squares)
            counts = (
                hm.Count(
                    area, sum(1 for sq in area if sq in ship_squares) - len(hit_then), hit_then
                ),
            )
        views.append(hm.Told(misses, hits, contacts, sunk, counts))
    return views


VIEWS = [
    hm.Told(),
    hm.Told(misses=squares("C3")),
    hm.Told(hits=squares("C3"), misses=squares("C2", "C4")),
    hm.Told(hits=squares("A1", "B1")),
    hm.Told(sunk=(("destroyer", squares("E4", "E5")),), misses=squares("A1")),
    hm.Told(contacts=squares("B2"), misses=squares("B3", "A2")),
    hm.Told(counts=(hm.Count(tuple((c, 0) for c in range(5)), 2),)),
    *random_views(40),
]


@pytest.mark.parametrize("told", VIEWS)
def test_the_exact_heat_map_is_full_enumeration_on_a_small_board(told: hm.Told) -> None:
    total, expected = brute(told, SMALL)
    if not total:
        with pytest.raises(RuleError):
            hm.exact(hm.problem(told, SMALL))
        return
    heat = hm.exact(hm.problem(told, SMALL))
    assert heat is not None
    assert heat.placements == total
    for got, want in zip(heat.weights, expected, strict=True):
        assert Fraction(round(got), total) == want


@pytest.mark.parametrize("told", VIEWS[:8])
def test_the_sampler_comes_close_to_full_enumeration(told: hm.Told) -> None:
    """The margin covers the error, give or take its own: three standard errors estimated
    from 10 batches are themselves about a quarter off either way (below 0.01, that is a
    few thousandths)."""
    total, expected = brute(told, SMALL)
    heat = hm.sample(hm.problem(told, SMALL), seed=7, work=hm.WORK)
    worst = max(abs(p - float(e)) for p, e in zip(heat.probabilities(), expected, strict=True))
    assert worst < 0.05, worst
    assert worst <= max(1.25 * heat.margin, 0.005)


LINE = hm.Told(hits=squares("B3", "C3"), misses=squares("A3"))


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_line_of_hits_two_ships_could_cover_is_sampled_as_enumerated(seed: int) -> None:
    """B3 and C3 hit, A3 a miss: the destroyer lies on B3-C3, or the cruiser runs on to D3,
    or each stands across one of them (45 layouts). Every way of covering the hits is listed
    and weighed, so the sampler matches full enumeration closely from any seed."""
    total, expected = brute(LINE, SMALL)
    assert total == 45
    heat = hm.sample(hm.problem(LINE, SMALL), seed, work=hm.WORK)
    worst = max(abs(p - float(e)) for p, e in zip(heat.probabilities(), expected, strict=True))
    assert worst < 0.03, worst
    assert worst <= heat.margin


def test_three_ships_and_a_line_of_three_hits_come_close_to_enumeration() -> None:
    """A3, B3 and C3 hit on a 5 x 5 board with a battleship, a cruiser and a destroyer (572
    layouts): one ship along the line, or two or three sharing it."""
    board = hm.Board(5, 5, (("battleship", 4), ("cruiser", 3), ("destroyer", 2)))
    told = hm.Told(hits=squares("A3", "B3", "C3"))
    total, expected = brute(told, board)
    assert total == 572
    heat = hm.sample(hm.problem(told, board), seed=7, work=hm.WORK // 4)
    worst = max(abs(p - float(e)) for p, e in zip(heat.probabilities(), expected, strict=True))
    assert worst < 0.05, worst


SIX = hm.Board(6, 6, (("battleship", 4), ("cruiser", 3), ("destroyer", 2)))
ROW_4 = tuple((c, 3) for c in range(6))
BLOCK_E2 = tuple((c, r) for r in (0, 1, 2) for c in (3, 4, 5))
# Hits and a contact apart, a row count and a 3 x 3 count: the worst-case bench's kind of view.
BOTH_COUNTS = hm.Told(
    hits=squares("B2", "E5"),
    contacts=squares("A6"),
    misses=squares("C5"),
    counts=(hm.Count(ROW_4, 1, (), "cruiser"), hm.Count(BLOCK_E2, 2, (), "carrier")),
)
# Hits and a contact scattered, a row count and a 3 x 3 count (the contact in it): the kind
# of view whose ways are too many to list on the full board (drawn exactly there).
SCATTERED_COUNTS = hm.Told(
    hits=squares("A1", "F4"),
    contacts=squares("C6"),
    misses=squares("B3", "E2"),
    counts=(
        hm.Count(tuple((c, 2) for c in range(6)), 2, (), "cruiser"),
        hm.Count(tuple((c, r) for r in (3, 4, 5) for c in (0, 1, 2)), 2, (), "carrier"),
    ),
)
KINDS = {
    "one hit, three misses": hm.Told(hits=squares("C3"), misses=squares("C2", "B3", "D3")),
    "three hits in a line against a miss": hm.Told(
        hits=squares("B3", "C3", "D3"), misses=squares("A3")
    ),
    "a pair of hits against a miss, a contact": hm.Told(
        hits=squares("B3", "C3"), misses=squares("A3"), contacts=squares("E5")
    ),
    "three hits apart": hm.Told(hits=squares("B2", "E3", "C5")),
    "a T of five hits": hm.Told(
        hits=squares("C4", "C5", "B6", "C6", "D6"), misses=squares("A6", "E4")
    ),
    "a count of 2 in row 3": hm.Told(
        counts=(hm.Count(tuple((c, 2) for c in range(6)), 2),), misses=squares("B5")
    ),
    "hits, contacts apart and both counts": BOTH_COUNTS,
    "hits and a contact scattered, both counts": SCATTERED_COUNTS,
}


@functools.cache
def brute_six(told: hm.Told) -> tuple[int, list[Fraction]]:
    return brute(told, SIX)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_view_is_sampled_within_five_hundredths(kind: str, seed: int) -> None:
    """Each kind of view the sampler meets in a battle, on a 6 x 6 board with three ships
    (every layout enumerated apart from the engine): sampled, whatever the tree's size, from
    any of three seeds no square is 0.05 off, and the margin covers the error."""
    total, expected = brute_six(KINDS[kind])
    assert total > 0
    heat = hm.sample(hm.problem(KINDS[kind], SIX), seed=seed, work=hm.WORK)
    worst = max(abs(p - float(e)) for p, e in zip(heat.probabilities(), expected, strict=True))
    assert worst < 0.05, worst
    assert worst <= heat.margin < 0.05


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("told", [BOTH_COUNTS, SCATTERED_COUNTS], ids=["both", "scattered"])
def test_the_tree_sampler_s_margin_covers_its_error_on_scattered_counts(
    told: hm.Told, seed: int
) -> None:
    """The tree sampler (``importance``), the last resort when the ways cannot be listed
    and exact draws keep too few: on hits, a contact and both counts scattered, drawn down
    the tree on 6 x 6 with three ships, its margin still covers the error on every square
    against every layout enumerated (the margin, not 0.05, is what it answers for)."""
    total, expected = brute_six(told)
    assert total > 0
    prob = hm.problem(told, SIX)
    heat = hm._sampled(prob, hm._Bits(prob), hm._Plan(None, None, 0), seed, hm.WORK)
    assert heat.sampler is not None and heat.sampler["method"] == "importance"
    worst = max(abs(p - float(e)) for p, e in zip(heat.probabilities(), expected, strict=True))
    assert worst <= heat.margin, (worst, heat.margin)
    # Through the step, the same view is drawn exactly and comes far closer.
    listed = hm.sample(prob, seed=seed, work=hm.WORK)
    assert listed.sampler is not None and listed.sampler["method"] == "exact draws"
    worst = max(abs(p - float(e)) for p, e in zip(listed.probabilities(), expected, strict=True))
    assert worst <= listed.margin < 0.05


def exact_draws(told: hm.Told, seed: int, work: int = hm.WORK) -> hm.Heat:
    """The view on 6 x 6 drawn exactly (as the step does when its ways are too many)."""
    prob = hm.problem(told, SIX)
    bits = hm._Bits(prob)
    product, _ = hm._product(prob, bits, work)
    assert product is not None
    heat = hm._sampled(prob, bits, hm._Plan(None, product, 0), seed, work)
    assert heat.sampler is not None and heat.sampler["method"] == "exact draws"
    return heat


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("kind", list(KINDS))
def test_exact_draws_come_within_their_margin_of_enumeration(kind: str, seed: int) -> None:
    """Every kind of view, drawn exactly on 6 x 6 with three ships: no square 0.05 off the
    layouts enumerated apart from the engine, and the margin covers the error."""
    total, expected = brute_six(KINDS[kind])
    heat = exact_draws(KINDS[kind], seed)
    worst = max(abs(p - float(e)) for p, e in zip(heat.probabilities(), expected, strict=True))
    assert worst <= heat.margin < 0.05, (worst, heat.margin)


def test_exact_draws_are_unbiased() -> None:
    """Drawn long (twenty budgets, no early stop), exact draws close in on enumeration: a
    sampler that favoured some layouts would stay off by its bias."""
    total, expected = brute_six(SCATTERED_COUNTS)
    stop, hm.STOP = hm.STOP, 0.0
    try:
        heat = exact_draws(SCATTERED_COUNTS, 5, 20 * hm.WORK)
    finally:
        hm.STOP = stop
    worst = max(abs(p - float(e)) for p, e in zip(heat.probabilities(), expected, strict=True))
    assert worst <= heat.margin < 0.01, (worst, heat.margin)


HONEST_RUNS = 40


@pytest.mark.parametrize(
    "kind",
    ["a count of 2 in row 3", "hits and a contact scattered, both counts", "three hits apart"],
)
def test_the_margin_holds_for_at_least_19_runs_in_20(kind: str) -> None:
    """What ``margin`` promises: a bound the error on every square stays within for at
    least 95% of answers. Forty seeds, each at a quarter of the budget (so the margins are
    wide enough to be tested), exact draws and by strata; at most two answers in forty may
    have a square past their margin."""
    total, expected = brute_six(KINDS[kind])
    prob = hm.problem(KINDS[kind], SIX)
    bits = hm._Bits(prob)
    listed, _ = hm.ways_told(prob, bits, hm.LIST_WORK)
    assert listed is not None
    past = {"exact draws": 0, "stratified": 0}
    for seed in range(HONEST_RUNS):
        for heat in (
            exact_draws(KINDS[kind], seed, hm.WORK // 4),
            hm._sampled(prob, bits, hm._Plan(listed, None, 0), seed, hm.WORK // 4),
        ):
            assert heat.sampler is not None
            got = heat.probabilities()
            worst = max(abs(p - float(e)) for p, e in zip(got, expected, strict=True))
            past[heat.sampler["method"]] += worst > heat.margin
    assert all(times <= HONEST_RUNS // 20 for times in past.values()), past


@pytest.mark.parametrize(
    "kind",
    [
        "a pair of hits against a miss, a contact",
        "three hits apart",
        "a T of five hits",
        "hits, contacts apart and both counts",
        "hits and a contact scattered, both counts",
    ],
)
def test_a_view_whose_ways_leave_one_ship_free_is_counted_as_enumerated(kind: str) -> None:
    """With no budget for walking the whole tree, the ways of meeting what was told are
    listed; when each leaves at most one ship free (on 6 x 6 with three ships, these views)
    the answer is still exact, and it is every layout enumerated."""
    total, expected = brute_six(KINDS[kind])
    heat = hm.heat(KINDS[kind], None, SIX, exact_work=0)
    assert heat.method == "exact" and heat.placements == total and heat.margin == 0.0
    for got, want in zip(heat.weights, expected, strict=True):
        assert Fraction(round(got), total) == want


def test_the_sampler_replays_from_its_seed() -> None:
    prob = hm.problem(hm.Told(hits=squares("E5")))
    assert hm.sample(prob, 123).weights == hm.sample(prob, 123).weights
    assert hm.sample(prob, 123).weights != hm.sample(prob, 124).weights


def test_one_ship_afloat_on_the_full_board_is_counted_exactly() -> None:
    """Four ships sunk: the destroyer's places avoiding the misses, counted by hand."""
    sunk = (
        ("carrier", squares("A1", "B1", "C1", "D1", "E1")),
        ("battleship", squares("A3", "A4", "A5", "A6")),
        ("cruiser", squares("C3", "D3", "E3")),
        ("submarine", squares("G5", "G6", "G7")),
    )
    misses = squares("J10", "I10")
    heat = hm.exact(hm.problem(hm.Told(misses=misses, sunk=sunk)))
    taken = {sq for _, sqs in sunk for sq in sqs} | set(misses)
    free = {(c, r) for c in range(10) for r in range(10)} - taken
    lines = [
        {(c, r), (c + dc, r + dr)}
        for c, r in free
        for dc, dr in ((1, 0), (0, 1))
        if (c + dc, r + dr) in free
    ]
    assert heat is not None and heat.placements == len(lines)
    assert heat.p(9 * 10 + 9) == 0.0  # J10, a miss
    assert heat.p(9 * 10 + 8) == 0.0  # I10, a miss
    assert heat.p(0) == 0.0  # A1, under the sunk carrier


# --- the endpoint -----------------------------------------------------------------------------


def heat(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    return resolve(client, "heatmap", {"dice": {"seed": "heat", "nonce": 3}, **body})


def test_the_answer_is_a_grid_of_probabilities(client: FlaskClient) -> None:
    data = heat(client, {"view": {"misses": ["C5"], "hits": ["E5"]}})
    result = data["result"]
    assert len(result["rows"]) == 10 and all(len(row) == 10 for row in result["rows"])
    assert result["rows"][4][4] == 1.0  # E5: a hit on a ship afloat
    assert result["rows"][4][2] == 0.0  # C5: a miss
    assert all(0.0 <= p <= 1.0 for row in result["rows"] for p in row)
    # 17 ship squares, all afloat: the probabilities add up to 17.
    assert sum(p for row in result["rows"] for p in row) == pytest.approx(17, abs=1e-3)
    best = [b["square"] for b in result["best"]]
    assert len(best) == 8 and "E5" not in best and "C5" not in best
    assert set(best[:2]) <= {"D5", "F5", "E4", "E6"}


def test_a_sampled_answer_names_its_seed_from_the_dice_and_replays(client: FlaskClient) -> None:
    data = heat(client, {"view": {}})
    result = data["result"]
    assert result["method"] == "sampled" and result["placements"] is None
    (roll,) = data["rolls"]
    assert roll["notation"] == "3d1000"
    a, b, c = roll["values"]
    seed = ((a - 1) * 1000 + (b - 1)) * 1000 + (c - 1)
    assert result["sampler"]["seed"] == seed
    assert result["sampler"]["samples"] > 0
    sampled = hm.sample(hm.problem(hm.Told()), seed, work=hm.WORK)
    assert sampled.sampler == result["sampler"]
    replay = hm.answer(sampled, hm.Told())
    assert replay["rows"] == result["rows"]
    assert heat(client, {"view": {}})["result"] == result
    assert "receipt" in data


def test_supplied_dice_give_the_sampler_seed(client: FlaskClient) -> None:
    data = resolve(client, "heatmap", {"view": {}}, values=[1, 2, 3])
    assert data["result"]["sampler"]["seed"] == 1002


def test_an_exact_answer_rolls_nothing(client: FlaskClient) -> None:
    view = {
        "misses": [],
        "sunk": [
            {"ship": "carrier", "squares": ["A1", "B1", "C1", "D1", "E1"]},
            {"ship": "battleship", "squares": ["A3", "A4", "A5", "A6"]},
            {"ship": "cruiser", "squares": ["C3", "D3", "E3"]},
        ],
        "hits": ["H8"],
    }
    data = heat(client, {"view": view})
    assert data["result"]["method"] == "exact"
    assert data["result"]["placements"] > 0 and data["result"]["sampler"] is None
    assert data["rolls"] == []
    assert data["result"]["afloat"] == ["submarine", "destroyer"]


def test_counts_narrow_the_map(client: FlaskClient) -> None:
    """A sonar sweep of row 1 that counted 0: nothing afloat in row 1."""
    row_1 = [f"{c}1" for c in "ABCDEFGHIJ"]
    data = heat(client, {"view": {}, "counts": [{"ship": "cruiser", "squares": row_1, "count": 0}]})
    assert data["result"]["rows"][0] == [0.0] * 10


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (
            {"view": {"hits": ["A1"], "misses": ["A2", "B1"]}},
            "view",
            "no ship afloat can lie on A1",
        ),
        (
            {"view": {"hits": ["C5"], "misses": ["C5"]}},
            "view.hits",
            "C5 is listed under both misses and hits",
        ),
        (
            {"view": {"sunk": [{"ship": "destroyer", "squares": ["A1", "B2"]}]}},
            "view.sunk[0].squares",
            "not a straight line of 2",
        ),
        (
            {
                "view": {},
                "counts": [{"ship": "carrier", "squares": ["A1", "B1", "A2", "B2"], "count": 5}],
            },
            "counts[0].count",
            "cannot be",
        ),
        (
            {"view": {}, "counts": [{"ship": "cruiser", "squares": ["A1", "B2"], "count": 0}]},
            "counts[0].squares",
            "not an area the cruiser counts",
        ),
        (
            {
                "view": {},
                "counts": [
                    {"ship": "carrier", "squares": ["A1", "B1", "A2", "B2"], "count": 0},
                    {"ship": "carrier", "squares": ["J9", "J10", "I9", "I10"], "count": 0},
                ],
            },
            "counts[1].ship",
            "counts once a game",
        ),
        (
            {"view": {"hits": ["A1", "J1", "A10", "J10", "E5", "C3"]}},
            "view",
            "they take 6 ships, and 5 are afloat",
        ),
        (
            # The submarine and the destroyer afloat: only the submarine can take E1-E2 (the
            # destroyer there would be hit everywhere), and then the destroyer cannot reach
            # both A1 and C1; nor can any one ship reach all four.
            {
                "view": {
                    "sunk": [
                        {"ship": "carrier", "squares": ["A10", "B10", "C10", "D10", "E10"]},
                        {"ship": "battleship", "squares": ["F10", "G10", "H10", "I10"]},
                        {"ship": "cruiser", "squares": ["J8", "J9", "J10"]},
                    ],
                    "hits": ["A1", "C1", "E1", "E2"],
                    "misses": ["D1", "F1"],
                }
            },
            "view",
            "cannot lie clear of each other",
        ),
    ],
)
def test_a_view_no_fleet_fits_is_a_422_naming_it(
    client: FlaskClient, body: dict[str, Any], field: str, words: str
) -> None:
    problem = refused(client, "heatmap", body)
    assert words in problem["detail"]
    assert field in str(problem.get("errors", problem))


def test_every_ship_sunk_is_refused(client: FlaskClient) -> None:
    sunk = FLEET_A  # every ship of captain a's fleet, shown sunk where it lies
    problem = refused(client, "heatmap", {"view": {"sunk": sunk}})
    assert "battle is over" in problem["detail"]


def test_the_view_a_salvo_hands_back_is_taken_as_it_is(client: FlaskClient) -> None:
    from tests.salvo_grid_helpers import ocean_a, ocean_b

    body = {
        "a": {"ocean": ocean_a(), "salvo": {"shots": ["J1", "J2", "A1", "B2", "C3"]}},
        "b": {"ocean": ocean_b(), "salvo": {"shots": ["A1"]}},
        "dice": {"seed": "s", "nonce": 1},
    }
    view = resolve(client, "salvo", body)["result"]["a"]["view"]
    result = heat(client, {"view": view})["result"]
    rows = result["rows"]
    for square in view["hits"]:
        c, r = parse(square)
        assert rows[r][c] == 1.0
    for square in view["misses"]:
        c, r = parse(square)
        assert rows[r][c] == 0.0
    assert names([parse(b["square"]) for b in result["best"]])


# --- the full board, against counts and samplers written apart from the engine -----------------

GAME_SIZES = {ship: size for ship, size in hm.GAME.fleet}


def game_places(size: int, clear: set[tuple[int, int]]) -> list[frozenset[tuple[int, int]]]:
    """Every straight line of ``size`` squares on the 10 x 10 board avoiding ``clear``'s
    complement (``clear``: the squares a ship may take)."""
    out = []
    for c in range(10):
        for r in range(10):
            for dc, dr in ((1, 0), (0, 1)):
                line = frozenset((c + dc * i, r + dr * i) for i in range(size))
                if line <= clear and (size > 1 or dc):
                    out.append(line)
    return out


def grid(heat: hm.Heat) -> dict[tuple[int, int], float]:
    return {(c, r): heat.p(r * 10 + c) for r in range(10) for c in range(10)}


def test_a_late_view_is_counted_exactly_as_enumerated() -> None:
    """Carrier and battleship sunk, three ships afloat on a board of misses and two hits:
    every layout listed by nested loops, checked rule by rule."""
    sunk = (
        ("carrier", squares("A1", "B1", "C1", "D1", "E1")),
        ("battleship", squares("J3", "J4", "J5", "J6")),
    )
    hits = squares("E5", "C8")
    misses = squares(*[f"{c}{r}" for c in "ABCDEFGHI" for r in (2, 4, 7, 9)], "J2", "J7", "J9")
    told = hm.Told(misses=misses, hits=hits, sunk=sunk)
    clear = {(c, r) for c in range(10) for r in range(10)} - set(misses)
    clear -= {sq for _, sqs in sunk for sq in sqs}
    afloat = ["cruiser", "submarine", "destroyer"]
    places = [game_places(GAME_SIZES[s], clear) for s in afloat]
    held: Counter[tuple[int, int]] = Counter()
    total = 0
    for combo in itertools.product(*places):
        every = frozenset().union(*combo)
        if len(every) != sum(len(p) for p in combo) or not set(hits) <= every:
            continue
        if any(p <= set(hits) for p in combo):
            continue
        total += 1
        held.update(every)
    heat = hm.exact(hm.problem(told))
    assert heat is not None and heat.placements == total and heat.margin == 0.0
    for square, p in grid(heat).items():
        assert p == pytest.approx(held[square] / total, abs=1e-9)


def rejection(told: hm.Told, draws: int, seed: int) -> tuple[dict[tuple[int, int], float], int]:
    """The truth by rejection: every ship drawn uniformly among the lines clear of the misses,
    the layout kept only when it fits (no overlap, every hit and contact on a ship, no ship
    hit everywhere, the counts met). Every fitting layout is equally likely among those kept."""
    rng = random.Random(seed)
    clear = {(c, r) for c in range(10) for r in range(10)} - set(told.misses)
    hits = set(told.hits)
    needed = hits | set(told.contacts)
    ships = list(GAME_SIZES)
    places = {s: game_places(GAME_SIZES[s], clear) for s in ships}
    held: Counter[tuple[int, int]] = Counter()
    kept = 0
    for _ in range(draws):
        combo = [rng.choice(places[s]) for s in ships]
        every = frozenset().union(*combo)
        if len(every) != 17 or not needed <= every or any(p <= hits for p in combo):
            continue
        if any(len(every & set(c.squares)) != c.count + len(c.hit) for c in told.counts):
            continue
        kept += 1
        held.update(every)
    return {sq: held[sq] / kept for sq in clear}, kept


@pytest.mark.parametrize(
    "told",
    [
        hm.Told(),
        hm.Told(hits=squares("E5"), misses=squares("E4", "D5", "F5")),
        hm.Told(
            counts=(hm.Count(tuple((c, 4) for c in range(10)), 3, (), "cruiser"),),
            misses=squares("B2", "H7"),
        ),
    ],
    ids=["nothing known", "one hit, three misses", "a sonar count of row 5"],
)
def test_early_views_come_within_five_hundredths_of_rejection_sampling(told: hm.Told) -> None:
    truth, kept = rejection(told, 60_000, 11)
    # The reference's own error: at most 0.5 / sqrt(kept) a square; four of those allowed.
    slack = 4 * 0.5 / kept**0.5
    heat = grid(hm.heat(told, None))
    worst = max(abs(heat[sq] - p) for sq, p in truth.items())
    assert worst < 0.05 + slack, (worst, kept)


T_VIEW = hm.Told(
    misses=squares("F1", "E3", "C4", "C5", "C6", "D6", "C7", "G8", "B10", "C10"),
    hits=squares("E8", "E9", "D10", "E10", "F10"),
)


def test_the_t_of_five_hits_is_near_the_truth() -> None:
    """The outside audit's view: its independent sampler put D9 at 0.310 and G10 at 0.978
    (the Gibbs chain before said 0.725 and 0.783)."""
    heat = hm.heat(T_VIEW, None)
    p = grid(heat)
    assert p[parse("D9")] == pytest.approx(0.310, abs=0.05)
    assert p[parse("G10")] == pytest.approx(0.978, abs=0.05)
    assert heat.margin < 0.1


# Two hits and a contact scattered, a sonar row and a recon block, from a random fleet under
# random shots: too many ways to list (down the tree, such views had margins of 0.1 to 0.45).
SCATTERED_EARLY = hm.Told(
    misses=(
        squares("A2", "A4", "A7", "B10", "C4", "C9", "E3", "E4", "E7", "F1", "F2", "F3")
        + squares("F5", "F6", "G2", "G6", "G7", "G8", "G9", "H4", "H10", "I4", "J5", "J7")
    ),
    hits=squares("C8", "I9"),
    contacts=squares("I7"),
    counts=(
        hm.Count(tuple((c, 2) for c in range(10)), 1, (), "cruiser"),
        hm.Count(tuple((c, r) for r in (1, 2, 3) for c in (4, 5, 6)), 1, (), "carrier"),
    ),
)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scattered_hits_and_both_counts_are_drawn_within_their_margin(seed: int) -> None:
    """On the full board, against the whole tree walked with fifty times the budget (the
    exact count the tests hold to enumeration): drawn exactly, no square 0.05 off, and the
    margin covers the error."""
    whole = hm.exact(hm.problem(SCATTERED_EARLY), budget=1_000_000)
    assert whole is not None
    heat = hm.sample(hm.problem(SCATTERED_EARLY), seed)
    assert heat.sampler is not None and heat.sampler["method"] == "exact draws"
    got, want = heat.probabilities(), whole.probabilities()
    worst = max(abs(p - q) for p, q in zip(got, want, strict=True))
    assert worst <= heat.margin < 0.05, (worst, heat.margin)


def fleet_of(**where: str) -> dict[str, set[tuple[int, int]]]:
    out = {}
    for ship, span in where.items():
        first, last = (parse(sq) for sq in span.split("-"))
        out[ship] = {
            (c, r) for c in range(first[0], last[0] + 1) for r in range(first[1], last[1] + 1)
        }
    return out


def test_a_full_row_and_a_full_recon_block_are_answered_as_enumerated() -> None:
    """A real fleet fills row 5 (a sonar count of 10) and the 3 x 3 around E5 (a recon count
    of 9). The heat map refused it before ("not found within the search's limit"). Here 16
    of the 17 ship squares are known, so every ship has at most one square off them: the
    layouts are listed that way and checked against both counts."""
    fleet = fleet_of(
        carrier="A5-E5", battleship="F5-I5", cruiser="D4-F4", submarine="D6-F6", destroyer="J5-J6"
    )
    every = set().union(*fleet.values())
    row = tuple((c, 4) for c in range(10))
    block = tuple((c, r) for r in (3, 4, 5) for c in (3, 4, 5))
    counts = tuple(
        hm.Count(area, sum(1 for sq in area if sq in every), (), ship)
        for area, ship in ((row, "cruiser"), (block, "carrier"))
    )
    assert [c.count for c in counts] == [10, 9]
    told = hm.Told(counts=counts)
    known = set(row) | set(block)
    board = {(c, r) for c in range(10) for r in range(10)}
    places = [
        [p for p in game_places(GAME_SIZES[s], board) if len(p - known) <= 1] for s in GAME_SIZES
    ]
    held: Counter[tuple[int, int]] = Counter()
    total = 0
    for combo in itertools.product(*places):
        squares_of = frozenset().union(*combo)
        if len(squares_of) != 17 or not known <= squares_of:
            continue
        total += 1
        held.update(squares_of)
    assert total > 0
    heat = hm.heat(told, None)
    assert heat.method == "exact" and heat.placements == total
    for square, p in grid(heat).items():
        assert p == pytest.approx(held[square] / total, abs=1e-9)


SUB_BOARD = hm.Board(5, 5, (("submarine", 3), ("destroyer", 2)))


def test_a_dive_contact_is_the_submarine() -> None:
    """A contact a dive gave away is the submarine's: the destroyer cannot lie on it."""
    contact = squares("C3")
    plain = hm.Told(contacts=contact)
    dived = hm.Told(contacts=contact, dived=contact)
    fleets = every_fleet(5, 5, {"submarine": 3, "destroyer": 2})
    with_sub = [f for f in fleets if contact[0] in f["submarine"]]
    heat = hm.exact(hm.problem(dived, SUB_BOARD))
    assert heat is not None and heat.placements == len(with_sub)
    for index, (c, r) in enumerate(SUB_BOARD.squares()):
        want = sum(1 for f in with_sub if (c, r) in f["submarine"] | f["destroyer"])
        assert heat.weights[index] == want
    before = hm.exact(hm.problem(plain, SUB_BOARD))
    assert before is not None and (before.placements or 0) > (heat.placements or 0)


def test_a_dive_contact_must_be_in_the_view(client: FlaskClient) -> None:
    problem = refused(client, "heatmap", {"view": {"dive_contacts": ["C3"]}})
    assert "list it under contacts" in problem["detail"]
    ok = heat(client, {"view": {"contacts": ["C3"], "dive_contacts": ["C3"]}})["result"]
    assert ok["rows"][2][2] == 1.0 and 0 < ok["margin"] < 0.1


def count_of(body: dict[str, Any]) -> hm.Count:
    """A count as the endpoint takes it (``ship``, ``squares``, ``count``, ``hit``)."""
    hit: list[str] = body.get("hit", [])
    return hm.Count(squares(*body["squares"]), int(body["count"]), squares(*hit), str(body["ship"]))


def test_the_worst_case_benchs_view_is_counted_as_the_whole_tree_walked(
    client: FlaskClient,
) -> None:
    """Four hits and two contacts apart with a sonar row and a recon block (the worst-case
    bench's view, 2,694 layouts): every way of meeting it places every ship, so the step
    answers it exactly, as the search walked whole, with no budget, counts it."""
    told = hm.Told(
        misses=squares(*HEAT_VIEW["misses"]),
        hits=squares(*HEAT_VIEW["hits"]),
        contacts=squares(*HEAT_VIEW["contacts"]),
        counts=tuple(count_of(c) for c in HEAT_COUNTS),
    )
    whole = hm.exact(hm.problem(told), budget=10**8)
    assert whole is not None and whole.placements == 2694
    result = heat(client, {"view": HEAT_VIEW, "counts": HEAT_COUNTS})["result"]
    assert result["method"] == "exact" and result["margin"] == 0
    assert result["placements"] == 2694 and result["sampler"] is None
    want = whole.probabilities()
    for r, row in enumerate(result["rows"]):
        for c, p in enumerate(row):
            assert p == pytest.approx(want[r * 10 + c], abs=1e-6)


# --- the request's work budget -------------------------------------------------------------


def told_at(path: str) -> hm.Told:
    """A generated heavy view (tests/heat_views.py), read as the step reads it."""
    loaded: hm.HeatmapInput = shape_schema(hm.HeatmapInput)().load(view_at(path))
    return hm.told_of(loaded.view, loaded.counts)


def heat_within(told: hm.Told, limit: int) -> tuple[str, int]:
    """The heat map's answer (its method, or the refusal's kind) and the work it charged,
    under a budget of ``limit`` units."""
    with work_budget.scope(limit) as funds:
        try:
            found = hm.heat(told, None)
        except RuleError as refused:
            return type(refused).__name__, funds.spent
    return found.method, funds.spent


@pytest.mark.parametrize("limit", [work_budget.REQUEST_WORK, work_budget.REQUEST_WORK // 3])
@pytest.mark.parametrize("path", [HEAVIEST_VIEW, HEAVIEST_STEP, HEAVIEST_IMPOSSIBLE])
def test_a_heavy_view_s_search_stays_within_the_request_s_budget(path: str, limit: int) -> None:
    """Every part of the search draws on the request's budget: a heavy view is answered
    (counted, or sampled with its margin) or, on a third of the budget, refused by the
    search's own limit, never by the budget running short, having charged at most the
    budget, and the same each time."""
    told = told_at(path)
    kind, spent = heat_within(told, limit)
    assert kind in {"exact", "sampled", "SearchLimit"}, kind  # not LimitError
    assert spent <= limit
    if limit == work_budget.REQUEST_WORK:
        assert kind == ("sampled" if path == HEAVIEST_VIEW else "exact")
    else:
        assert spent > limit // 2  # the search is bounded by the budget, not its own counters
    assert heat_within(told, limit) == (kind, spent)


# Generated heavy views (tests/heat_views.py) that the search found hardest before it
# counted them down the product's states: 72 to 31,442 layouts, many answered by the tree
# sampler with margins far past their error, and some refused.
HARD_VIEWS = [f"heavy-{i}" for i in (27, 47, 49, 52, 85, 88, 108, 136, 150, 174, 181)]


@functools.cache
def truth_of(path: str) -> hm.Heat:
    """The heat of a view with the whole tree walked (no budget: outside a request)."""
    whole = hm.exact(hm.problem(told_at(path)), budget=10**9)
    assert whole is not None
    return whole


@pytest.mark.parametrize("path", [*HARD_VIEWS, HEAVIEST_STEP, HEAVIEST_IMPOSSIBLE])
def test_a_heavy_view_is_right_on_every_square(path: str) -> None:
    """Hits, contacts and counts on a real fleet: within the request's budget the step
    counts every layout (each square as the whole tree walked counts it), or samples them
    and every square is within the margin it answers."""
    told = told_at(path)
    want = truth_of(path)
    with work_budget.scope():
        found = hm.heat(told, resolve_dice(path))
    worst = max(
        abs(a - b) for a, b in zip(found.probabilities(), want.probabilities(), strict=True)
    )
    if found.method == "exact":
        assert found.placements == want.placements and found.margin == 0
        assert worst < 1e-9, worst
    else:
        assert found.margin > 0 and worst <= found.margin, (worst, found.margin)


def resolve_dice(path: str) -> Resolution:
    return Resolution(SeededDice(f"heavy-check {path}", 1))


def test_no_legal_generated_view_is_refused() -> None:
    """200 heavy legal views of real fleets, each within a request's budget: none is
    refused, and most are counted."""
    methods: Counter[str] = Counter()
    for i in range(200):
        with work_budget.scope():
            found = hm.heat(told_at(f"heavy-{i}"), resolve_dice(str(i)))
        methods[found.method] += 1
        assert found.method == "exact" or 0 < found.margin <= 1
    assert methods["exact"] >= 160, methods


def test_an_ordinary_view_charges_its_exact_count() -> None:
    """A view counted exactly charges the exact count's work, far under the budget."""
    told = hm.Told(
        hits=squares("E8"),
        sunk=(
            ("carrier", squares("A1", "B1", "C1", "D1", "E1")),
            ("battleship", squares("A3", "B3", "C3", "D3")),
            ("cruiser", squares("A5", "B5", "C5")),
        ),
    )
    kind, spent = heat_within(told, 10**6)
    assert kind == "exact" and 0 < spent < work_budget.REQUEST_WORK // 4
