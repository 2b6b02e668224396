"""Rich dice notation: what each operator rolls, in which order the dice are drawn, what the
answer says of each die, and the exact odds of a notation against two oracles (the walk of
every face of every die the roll draws, and seeded rolls by chi-square)."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from fractions import Fraction
from typing import Any, cast
from unittest import mock

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.engine import budget, dice
from service.engine import notation as notation_module
from service.engine.budget import REQUEST_MS
from service.engine.errors import LimitError, NotationError, RuleError
from service.engine.notation import Notation, Term, roll
from service.engine.notation_odds import foreseen_units, odds
from service.engine.resolution import Resolution


def rolled(client: FlaskClient, notation: str, values: list[int]) -> Any:
    return client.post("/v1/dice/roll", json={"notation": notation, "dice": {"values": values}})


def fates(term: dict[str, Any]) -> list[tuple[int, str, bool]]:
    return [(die["face"], die["fate"], die["exploded"]) for die in term["dice"]]


# --- known values, reasoned by hand ------------------------------------------------------------


def test_4d6_keep_highest_3_totals_18_with_probability_21_in_1296(client: FlaskClient) -> None:
    # 18 needs three sixes among the kept: four sixes (1 way) or exactly three sixes and any
    # other face on the fourth die (4 places x 5 faces = 20 ways): 21 of 6^4 = 1296 throws.
    answer = client.post("/v1/dice/odds", json={"notation": "4d6kh3"}).get_json()
    by_total = {o["result"]["total"]: o["probability"] for o in answer["outcomes"]}
    assert Fraction(by_total[18]) == Fraction(21, 1296)
    assert Fraction(by_total[3]) == Fraction(1, 1296)  # four ones
    assert answer["notation"] == "4d6kh3" and answer["ruleset"] is None


def test_the_odds_answer_in_the_form_of_every_odds(client: FlaskClient) -> None:
    answer = client.post("/v1/dice/odds", json={"notation": "2d6"}).get_json()
    assert answer["step"] == "roll"
    first = answer["outcomes"][0]
    assert first == {"result": {"total": 7}, "probability": "1/6", "p": 1 / 6}  # most likely
    chances = [Fraction(o["probability"]) for o in answer["outcomes"]]
    assert sum(chances) == 1 and chances == sorted(chances, reverse=True)
    assert {o["result"]["total"] for o in answer["outcomes"]} == set(range(2, 13))


def test_the_odds_count_successes_where_the_notation_does(client: FlaskClient) -> None:
    # 3 dice needing 4+: successes are binomial(3, 1/2)
    answer = client.post("/v1/dice/odds", json={"notation": "3d6>=4"}).get_json()
    by_total = {o["result"]["total"]: o["probability"] for o in answer["outcomes"]}
    assert by_total == {0: "1/8", 1: "3/8", 2: "3/8", 3: "1/8"}


def test_an_exploding_die_is_exact_up_to_its_cap(client: FlaskClient) -> None:
    # 1d6!: a 6 adds another die, at most 8 times (8 sixes in a row: 1 in 1.7 million, the
    # first cap past one in a million): 54 needs nine sixes in a row (the ninth cannot
    # explode), 1/6^9; 53 needs eight sixes then a 5.
    assert Notation.parse("1d6!").terms[0].explosion_cap == 8
    answer = client.post("/v1/dice/odds", json={"notation": "1d6!"}).get_json()
    by_total = {o["result"]["total"]: Fraction(o["probability"]) for o in answer["outcomes"]}
    assert by_total[54] == Fraction(1, 6**9)
    assert by_total[53] == Fraction(1, 6**9)
    assert 6 not in by_total and 12 not in by_total  # a six always goes on
    assert by_total[7] == Fraction(1, 36)
    assert max(by_total) == 54


def test_a_chain_stops_where_reaching_it_has_one_chance_in_a_million() -> None:
    caps = {
        text: (term.explosion_cap, term.reroll_cap)
        for text in ("1d2!", "1d6!", "1d20!", "1d6r<6", "1d%!>=2", "1d6r<3", "1d6ro<3", "1d6")
        for term in Notation.parse(text).terms
    }
    assert caps == {
        "1d2!": (20, 0),  # 1/2^20 < 1/10^6 < 1/2^19
        "1d6!": (8, 0),
        "1d20!": (5, 0),  # never below 5
        "1d6r<6": (0, 76),  # (5/6)^76 < 1/10^6 < (5/6)^75
        "1d%!>=2": (5, 0),  # 1000 (rpg-dice-roller's cap) could draw 1001 dice: 5
        "1d6r<3": (0, 13),
        "1d6ro<3": (0, 1),
        "1d6": (0, 0),
    }
    # where those caps could draw more than 1000 dice, each is 5
    (term,) = Notation.parse("27d6r6!").terms
    assert (term.explosion_cap, term.reroll_cap) == (5, 5)


# --- rpg-dice-roller's forms and order, from the dice the audit quoted -----------------


@pytest.mark.parametrize(
    ("text", "values", "total"),
    [
        ("1d6min2!", [6, 1], 7),  # min first: the 6 explodes; the explosion's 1 stays a 1
        ("1d6max4r=4", [4, 6], 6),  # max first: the 4 is rerolled into a 6, which stays
        ("1d6min2r=1", [1], 2),  # min first: the 1 counts 2, which is no longer rerolled
        ("4d6d1 + 5", [3, 5, 2, 6], 19),  # d1 drops the lowest
        ("4d6kh3dl1", [3, 5, 2, 6], 14),  # both leave out the 2
        ("4d6kh2dh1", [3, 5, 2, 6], 5),  # kh2 keeps 5 and 6, dh1 drops the 6
        ("4d6dh1dl1", [3, 5, 2, 6], 8),  # both ends dropped
        ("1d6ro<7", [3, 4], 4),  # a reroll once always stops
        ("2d6!p", [6, 6, 3, 2], 15),  # 6 + (3 - 1) + 6 + (2 - 1)
        ("3d6<>3", [1, 3, 6], 2),  # successes: every die but a 3
        ("4dF.1", [1, 6, 3, 2], 0),  # -1, +1, 0, 0
        ("3d6u", [2, 2, 5, 2, 4], 11),  # die 2 (a 2) shows 5; die 3 (2) shows 2, then 4
        ("5", [], 5),
        ("3 + 4", [], 7),
        ("(1+1)d(2*3)", [2, 6], 8),  # a count and sides worked out from numbers
        ("3d6 # fire", [1, 2, 3], 6),  # comments stand where a blank may
        ("12d% /* note */ - 2", [1] * 12, 10),
        ("1d6 // a line\n+ 2", [4], 6),
    ],
)
def test_the_peers_forms_total_as_the_peer_totals_them(
    client: FlaskClient, text: str, values: list[int], total: int
) -> None:
    if values:
        answer = rolled(client, text, values)
    else:  # no dice to supply: seeded, and none drawn
        answer = client.post("/v1/dice/roll", json={"notation": text, "dice": {"seed": "s"}})
        assert answer.get_json()["rolls"] == []
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["result"]["total"] == total


def test_arithmetic_over_the_terms_totals(client: FlaskClient) -> None:
    # floor((3 + 5 + 6) / 2) with 4d6kh3 keeping 3, 5 and 6
    answer = rolled(client, "floor(4d6kh3 / 2) + max(1d20, 1d20)", [3, 5, 2, 6, 7, 15]).get_json()
    assert answer["result"]["total"] == 7 + 15
    assert answer["result"]["notation"] == "floor(4d6kh3/2)+max(1d20, 1d20)"
    assert [t["total"] for t in answer["result"]["terms"]] == [14, 7, 15]
    odds_answer = client.post("/v1/dice/odds", json={"notation": "floor(4d6kh3/2)"}).get_json()
    by_total = {o["result"]["total"]: Fraction(o["probability"]) for o in odds_answer["outcomes"]}
    exact = odds(Notation.parse("4d6kh3"))
    assert by_total == {
        t: sum((p for s, p in exact.items() if s // 2 == t), Fraction(0)) for t in range(1, 10)
    }


@pytest.mark.parametrize(
    ("text", "where", "why"),
    [
        ("1d6/2", "character 4 ('/')", "the total would not always be a whole number"),
        ("floor(1d6/2) + 1.5", "character 16 ('1')", "the total would not always be"),
        ("floor(1d6/(1d4-1d4))", "character 10 ('/')", "it could divide by 0"),
        ("2^1d100", "character 2 ('^')", "an exponent is a whole number from 0 to 64"),
        ("1d1000^4", "character 7 ('^')", "a value could pass 1,000,000,000 either way"),
        ("(1d6+2", "its end", "a ) to close the ( at character 1"),
        ("1d6 /* open", "character 5 ('/')", "a */ to close the comment"),
        ("(1d6)d6", "character 1 ('(')", "a count of dice in parentheses is worked out from"),
        ("3d(5/2)", "character 3 ('(')", "the sides of the die in parentheses is a whole"),
        ("{2d6}kh1", "character 1 ('{')", "a group of one sub-roll with modifiers is not read"),
        ("{1d6, 1d8", "its end", "a , or a } in the group opened at character 1"),
    ],
)
def test_arithmetic_a_roll_cannot_total_is_refused_at_its_character(
    client: FlaskClient, text: str, where: str, why: str
) -> None:
    for path in ("/v1/dice/roll", "/v1/dice/odds"):
        problem = client.post(path, json={"notation": text}).get_json()
        assert problem["type"] == "/problems#notation", problem
        assert f"at {where}: {why}" in problem["errors"][0]["message"]


def test_a_roll_group_keeps_its_best_sub_roll(client: FlaskClient) -> None:
    # {4d6+2d8, 3d20+3}kh1: 1+2+3+4 + 5+6 = 21 against 7+8+9 + 3 = 27: the second is kept
    answer = rolled(client, "{4d6+2d8, 3d20+3}kh1", [1, 2, 3, 4, 5, 6, 7, 8, 9]).get_json()
    assert answer["result"]["total"] == 27
    assert answer["result"]["notation"] == "{4d6+2d8, 3d20+3}kh1"
    # six ability scores, the best three: answered exactly within the budget
    stats = "{" + ", ".join(["4d6kh3"] * 6) + "}kh3"
    odds_answer = client.post("/v1/dice/odds", json={"notation": stats})
    assert odds_answer.status_code == 200
    by_total = {
        o["result"]["total"]: Fraction(o["probability"]) for o in odds_answer.get_json()["outcomes"]
    }
    assert sum(by_total.values()) == 1 and min(by_total) == 9 and max(by_total) == 54
    # three 18s among the best three: at least three of the six scores are 18
    p18 = Fraction(21, 1296)
    assert by_total[54] == sum(math.comb(6, k) * p18**k * (1 - p18) ** (6 - k) for k in range(3, 7))


def test_penetrating_and_critical_dice_are_marked(client: FlaskClient) -> None:
    answer = rolled(client, "2d6!pcs=6cf<2sd", [6, 1, 3]).get_json()
    (term,) = answer["result"]["terms"]
    assert [(d["face"], d["value"], d.get("penetrated", False)) for d in term["dice"]] == [
        (6, 6, True),
        (1, 1, False),
        (3, 2, False),
    ]
    assert [d.get("critical") for d in term["dice"]] == ["success", "failure", None]
    assert term["values"] == [6, 2, 1]  # sorted, highest first; `dice` in the order drawn
    assert answer["rolls"][1]["label"] == "2d6!pcs6cf<2sd: explosion of die 1"


@pytest.mark.parametrize(
    "text", ["7d%+8", "6d20dh1", "5d%kl2", "6d20!", "100d10", "2d1000kh1", "10d10dl3", "5"]
)
def test_the_odds_the_audit_found_refused_are_answered(client: FlaskClient, text: str) -> None:
    answer = client.post("/v1/dice/odds", json={"notation": text})
    assert answer.status_code == 200, answer.get_json()
    total = sum(Fraction(o["probability"]) for o in answer.get_json()["outcomes"])
    assert total == 1


def _keep_by_multisets(count: int, sides: int, lo: int, hi: int) -> dict[int, Fraction]:
    """An independent count: every sorted multiset of faces with its multinomial weight,
    summing the kept places lo..hi-1 of the ascending order."""
    ways: Counter[int] = Counter()
    for faces in itertools.combinations_with_replacement(range(1, sides + 1), count):
        weight = math.factorial(count)
        for n in Counter(faces).values():
            weight //= math.factorial(n)
        ways[sum(faces[lo:hi])] += weight
    return {total: Fraction(n, sides**count) for total, n in ways.items()}


@pytest.mark.parametrize(
    ("text", "count", "sides", "lo", "hi"),
    [
        ("6d20dh1", 6, 20, 0, 5),
        ("10d10dl3", 10, 10, 3, 10),
        ("10d10kh3", 10, 10, 7, 10),
        ("8d6kh4dl2", 8, 6, 4, 8),
        ("8d6kl5dh1", 8, 6, 0, 5),
        ("7d8kh5dh2", 7, 8, 2, 5),
        ("6d6dh1dl1", 6, 6, 1, 5),
        ("7d6kh5kl3dl1", 7, 6, 2, 3),
    ],
)
def test_keep_and_drop_odds_equal_an_independent_count(
    text: str, count: int, sides: int, lo: int, hi: int
) -> None:
    assert odds(Notation.parse(text)) == _keep_by_multisets(count, sides, lo, hi)


def test_2d1000_keep_highest_is_the_chance_of_the_higher_die() -> None:
    # the higher of two d1000 is t in 2t - 1 of the 1,000,000 throws
    exact = odds(Notation.parse("2d1000kh1"))
    assert exact == {t: Fraction(2 * t - 1, 1000**2) for t in range(1, 1001)}


def test_the_odds_past_the_work_budget_are_a_limit_problem(client: FlaskClient) -> None:
    answer = client.post("/v1/dice/odds", json={"notation": "20d%"})
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["type"] == "/problems#limit"
    assert "more work than one request may do" in problem["detail"]
    assert f"a request's work budget is {REQUEST_MS} ms" in problem["detail"]
    assert "roll fewer dice" in problem["detail"]
    assert problem["errors"][0]["field"] == "notation"


def test_the_odds_refuse_what_does_not_read_at_its_character(client: FlaskClient) -> None:
    problem = client.post("/v1/dice/odds", json={"notation": "4d6kh3?"}).get_json()
    assert problem["type"] == "/problems#notation"
    assert "at character 7 ('?')" in problem["errors"][0]["message"]


# --- supplied dice: the documented order of draws --------------------------------------------


def test_explosions_then_rerolls_take_the_next_values(client: FlaskClient) -> None:
    # 4d6r1!kh3 from 1, 6, 3, 2, then 4 and 5, in rpg-dice-roller's order: the four dice;
    # then the explosions (die 2, a 6, adds a 4); then the rerolls (die 1, a 1, shows 5). The
    # pool is 5, 6, 4, 3, 2: the highest three (6, 5, 4) make 15; 3 and 2 are dropped.
    answer = rolled(client, "4d6r1!kh3", [1, 6, 3, 2, 4, 5]).get_json()
    (term,) = answer["result"]["terms"]
    assert answer["result"]["total"] == 15
    assert fates(term) == [
        (1, "rerolled", False),
        (6, "kept", True),
        (3, "dropped", False),
        (2, "dropped", False),
        (4, "kept", False),
        (5, "kept", False),
    ]
    assert [(d["cause"], d["of"]) for d in term["dice"][4:]] == [("explosion", 2), ("reroll", 1)]
    assert [r["notation"] for r in answer["rolls"]] == ["4d6", "1d6", "1d6"]
    assert [r["label"] for r in answer["rolls"][1:]] == [
        "4d6!r1kh3: explosion of die 2",
        "4d6!r1kh3: reroll of die 1",
    ]


def test_an_explosion_is_rerolled_but_a_reroll_does_not_explode(client: FlaskClient) -> None:
    # 2d6r1!: 6 and 3; die 1 explodes: a 1, which stops the chain; then the rerolls: the 1
    # shows a 6, which does not explode (explosions come before rerolls). 6 + 6 + 3 = 15.
    answer = rolled(client, "2d6r1!", [6, 3, 1, 6]).get_json()
    (term,) = answer["result"]["terms"]
    assert answer["result"]["total"] == 15
    assert [(d["die"], d["cause"], d["of"], d["fate"]) for d in term["dice"]] == [
        (1, "rolled", None, "kept"),
        (2, "rolled", None, "kept"),
        (3, "explosion", 1, "rerolled"),
        (4, "reroll", 3, "kept"),
    ]


def test_compounding_adds_the_explosions_to_their_die(client: FlaskClient) -> None:
    # 2d6!!: 6 and 6, then 2 for die 1's explosion and 3 for die 2's: two dice of 8 and 9.
    answer = rolled(client, "2d6!!", [6, 6, 2, 3]).get_json()
    (term,) = answer["result"]["terms"]
    assert term["values"] == [8, 9] and answer["result"]["total"] == 17
    assert [d["fate"] for d in term["dice"]] == ["kept", "kept", "compounded", "compounded"]


def test_successes_less_failures_and_min_max_apply_first(client: FlaskClient) -> None:
    # 6d6>=5f1: 5 and 6 succeed, the two 1s fail, 3 and 4 are neither: 2 - 2 = 0
    answer = rolled(client, "6d6>=5f1", [5, 6, 1, 1, 3, 4]).get_json()
    (term,) = answer["result"]["terms"]
    assert answer["result"]["total"] == 0 and term["counts"] == "successes"
    assert [d["success"] for d in term["dice"]] == [
        "success",
        "success",
        "failure",
        "failure",
        "neither",
        "neither",
    ]
    # min2 turns the 1 into a 2 before the count: no failure left; kh2 keeps 6 and 5 only
    answer = rolled(client, "4d6min2kh2>=5f<=1", [1, 6, 5, 4]).get_json()
    (term,) = answer["result"]["terms"]
    assert answer["result"]["total"] == 2
    # every die of the pool is marked, as rpg-dice-roller marks it; the dropped count nothing
    assert [d.get("success") for d in term["dice"]] == ["neither", "success", "success", "neither"]
    assert term["dice"][0]["value"] == 2


def test_fate_dice_are_supplied_as_a_d3(client: FlaskClient) -> None:
    answer = rolled(client, "4dF+1", [1, 2, 3, 3]).get_json()
    (term,) = answer["result"]["terms"]
    assert [d["face"] for d in term["dice"]] == [-1, 0, 1, 1]
    assert answer["result"]["total"] == 2
    assert answer["rolls"][0]["notation"] == "4d3"


def test_dice_may_be_taken_away(client: FlaskClient) -> None:
    answer = rolled(client, "1d20-1d4+2", [15, 3]).get_json()
    assert answer["result"]["total"] == 14
    assert [t["sign"] for t in answer["result"]["terms"]] == [1, -1]
    assert all("dice" not in t for t in answer["result"]["terms"])  # plain terms


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            [6, 3],
            "2 dice supplied, but the step wants another: die 1 of 1d6 for 2d6!: "
            "explosion of die 1",
        ),
        ([5, 3, 4], "3 dice supplied, but the step used only 2; unused from dice.values[2]"),
    ],
)
def test_too_few_or_too_many_supplied_dice_are_a_dice_problem(
    client: FlaskClient, values: list[int], message: str
) -> None:
    problem = rolled(client, "2d6!", values).get_json()
    assert problem["status"] == 422 and problem["type"] == "/problems#dice"
    assert problem["detail"] == message


# --- every operator's odds against two oracles -------------------------------------------------

OPERATORS = [
    "3d4",
    "d%",
    "4dF",
    "3d4kh2",
    "3d4k",
    "3d4kl2",
    "3d4dh1",
    "3d4dl1",
    "2d4!",
    "1d3!>=2",
    "1d4!!",
    "2d4!!kh1",
    "2d4r1",
    "1d4r<3",
    "2d4ro1",
    "3d4>=3",
    "3d4>=3f1",
    "3d4<2",
    "3d4=4",
    "3d4min2",
    "3d4max3",
    "1d4min2max3!3",
    "2d4!dl1",
    "2d2ro1!kh1>=2",
    "1d4-1d3+2",
    "2dF!kl1",
    "4d4d1",
    "3d4kh2dl1",
    "3d4kl2dh1",
    "2d3!p",
    "1d3!!p",
    "3d4<>2",
    "2dF.1",
    "1d4ro<7",
    "2d4cs=4cf1sd",
    "1d3min2!r=3",
    "2d3max2r2!kh1",
    "2d3!!r>=5",
    "5",
    "3-1",
    "floor(3d4kh2/2)",
    "2d4*2+1",
    "(1d4+2)*1d3",
    "max(1d6, 1d6)+5",
    "1d4^2",
    "2**3+1d4",
    "round(1d6/4)",
    "round(-1d6/4)",
    "-7%1d4",
    "abs(1dF-1)",
    "sign(1d6-4)",
    "pow(1d3,1d2)",
    "ceil(1d6*1.5)",
    "min(2d3!, 1d6)",
    "floor(1d6/1d3)",
    "-(1d4+2)*1d3",
    "{1d4+1d3, 2d3}kh1",
    "{1d4, 1d6, 1d3}dl1",
    "{1d4, 1d6}>=3f<2",
    "{1d4, 1d6, 1d3}kh2dl1sd",
    "2*{1d4, 1d3!}kl1",
    "{1d3, 1d3, 1d3, 1d3}kh3dl1",
    "{2d3}",
    "4d3dh1dl1",
    "4d3kh3kl2",
    "{1d3, 1d4, 1d2, 1d3}dh1dl1",
]


def short_chains(monkeypatch: pytest.MonkeyPatch) -> None:
    """Caps of 2 for notations read after this (a chain stops where it has a chance of 1/4
    left), so the walk of every face stays small; the odds read the caps the term carries."""
    monkeypatch.setattr(notation_module, "MIN_CAP", 2)
    monkeypatch.setattr(notation_module, "CAP_CHANCE", Fraction(1, 4))


def walk_every_face(notation: Notation) -> dict[int, Fraction]:
    """The brute-force oracle: the roll itself, played once per face of every die it draws
    (rerolls and explosions open their own branches), each branch weighed by its dice."""

    def play(source: dice.DiceSource) -> int:
        return roll(notation, Resolution(source).roll)["total"]

    found = dice.enumerate_outcomes(play)
    return {cast(int, total): p for total, p in found.items()}


@pytest.mark.parametrize("text", OPERATORS)
def test_every_operators_odds_are_the_walk_of_every_face(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dice, "MAX_ODDS_BRANCHES", 200_000)  # the oracle walks far more
    short_chains(monkeypatch)
    notation = Notation.parse(text)
    exact = odds(notation)
    assert sum(exact.values()) == 1
    assert exact == walk_every_face(notation)


def chi_square_bound(k: int) -> float:
    """99.99th percentile of chi-square with k degrees of freedom (Wilson-Hilferty)."""
    return float(k * (1 - 2 / (9 * k) + 3.719 * (2 / (9 * k)) ** 0.5) ** 3)


SEEDED = ["4d6kh3", "3d6!", "2d6!!", "4d6r1", "4d6ro<3", "8d6>=5f1", "4dF", "3d6min2max5dl1"]


@pytest.mark.parametrize("text", SEEDED)
def test_seeded_rolls_follow_the_exact_odds_chi_square(text: str) -> None:
    notation = Notation.parse(text)
    exact = odds(notation)
    rolls = 3000
    seen = Counter(
        roll(notation, Resolution(dice.SeededDice(f"chi-{text}", nonce)).roll)["total"]
        for nonce in range(rolls)
    )
    # bins of at least 5 expected rolls; the rare totals pooled into one
    common = {t for t, p in exact.items() if p * rolls >= 5}
    rare_p = sum((p for t, p in exact.items() if t not in common), Fraction(0))
    bins = [(seen[t], float(exact[t]) * rolls) for t in common]
    if rare_p * rolls >= 5:
        bins.append((sum(n for t, n in seen.items() if t not in common), float(rare_p) * rolls))
    assert set(seen) <= set(exact)  # no total the odds call impossible
    chi_square = sum((observed - expected) ** 2 / expected for observed, expected in bins)
    assert chi_square < chi_square_bound(len(bins) - 1)


def test_keep_highest_agrees_with_an_independent_count() -> None:
    """A third oracle for keep and drop: every throw of the pool, written out here."""
    for keep in ("kh", "kl", "dh", "dl"):
        counts: Counter[int] = Counter()
        for throw in itertools.product(range(1, 7), repeat=4):
            ordered = sorted(throw, reverse=keep in ("kh", "dh"))
            kept = ordered[:2] if keep in ("kh", "kl") else ordered[2:]
            counts[sum(kept)] += 1
        expected = {total: Fraction(n, 6**4) for total, n in counts.items()}
        assert odds(Notation.parse(f"4d6{keep}2")) == expected, keep


# --- the odds' work, foreseen and charged ---------------------------------------------------

MODIFIERS = [
    "r1",
    "ro<2",
    "r>=3",
    "min2",
    "max3",
    "!",
    "!!",
    "!>=3",
    "!p",
    "!!p",
    "kh1",
    "kl2",
    "dh1",
    "dl1",
    "d1",
    "cs",
    "cf<2",
    "sd",
]
SUCCESSES = ["", ">=3", ">2f1", "<2", "=2f>=4", "<>2"]


@st.composite
def small_notations(draw: st.DrawFn) -> str:
    """Notations across the grammar small enough to walk face by face."""
    terms: list[str] = []
    for _ in range(draw(st.integers(1, 2))):
        count = draw(st.integers(1, 2))
        sides = draw(st.sampled_from(["2", "3", "4", "F", "F.1"]))
        mods = draw(st.lists(st.sampled_from(MODIFIERS), max_size=2, unique=True))
        sign = draw(st.sampled_from(["+", "-"])) if terms else ""
        terms.append(f"{sign}{count}d{sides}{''.join(mods)}{draw(st.sampled_from(SUCCESSES))}")
    constant = draw(st.integers(-3, 3))
    text = "".join(terms) + (f"{constant:+d}" if constant else "")
    wrap = draw(
        st.sampled_from(
            ["{}", "floor(({})/2)", "({})*2", "max({}, 1)", "abs({})", "({})%3", "{{{}, 1d3}}kh1"]
        )
    )
    return wrap.format(text)


def _readable(text: str) -> Notation:
    """The notation ``text`` writes, its chains capped at 2; a generated text that does not
    read is set aside."""
    try:
        with (
            mock.patch.object(notation_module, "MIN_CAP", 2),
            mock.patch.object(notation_module, "CAP_CHANCE", Fraction(1, 4)),
        ):
            return Notation.parse(text)
    except RuleError:
        assume(False)
        raise


GENERATED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GENERATED
@given(small_notations())
def test_generated_odds_are_the_walk_of_every_face(text: str) -> None:
    notation = _readable(text)
    try:
        with mock.patch.object(dice, "MAX_ODDS_BRANCHES", 20_000):
            walked = walk_every_face(notation)
    except LimitError:
        assume(False)
    assert odds(notation) == walked


@GENERATED
@given(small_notations())
def test_the_odds_spend_no_more_than_foreseen(text: str) -> None:
    notation = _readable(text)
    foreseen = foreseen_units(notation)
    with budget.scope() as spent:
        exact = odds(notation)
    assert sum(exact.values()) == 1
    assert 0 < spent.spent <= foreseen <= budget.REQUEST_WORK


@pytest.mark.parametrize("text", ["1d1000r<=999+" * 13 + "1d1000r<=999", "20d%", "80d20kh40"])
def test_odds_past_the_budget_are_refused_before_the_work(text: str) -> None:
    """The refusal comes from foreseeing the work: nothing is charged to the budget."""
    notation = Notation.parse(text)
    with budget.scope() as spent, pytest.raises(LimitError, match="work budget"):
        odds(notation)
    assert spent.spent == 0
    assert foreseen_units(notation) > budget.REQUEST_WORK


def test_the_odds_charge_the_requests_budget_not_one_of_their_own() -> None:
    """Two notations' odds in one request draw on one budget: the second is refused when
    the first has spent most of it."""
    heavy = Notation.parse("100d10")
    with budget.scope() as spent:
        odds(heavy)
        assert spent.spent > budget.REQUEST_WORK // 2
        with pytest.raises(LimitError, match="work budget"):
            odds(heavy)


def test_each_request_has_a_work_budget_of_its_own(client: FlaskClient) -> None:
    """100d10's odds spend most of a request's budget: asked twice, both are answered, as
    each request draws on its own; and in one request, twice, the second is refused."""
    for _ in range(2):
        assert client.post("/v1/dice/odds", json={"notation": "100d10"}).status_code == 200
    assert foreseen_units(Notation.parse("100d10")) > budget.REQUEST_WORK // 2


# --- a third oracle: the documented rules written out plainly, for dice too many to walk -------


def _one_die(term: Term) -> dict[int, Fraction]:
    """The value one of a term's N dice stands on, with its chain and rerolls, written out
    straight from docs/dice.md (recursion over the chain, fractions throughout)."""
    faces = {face: Fraction(ways, term.sides) for face, ways in term.face_ways().items()}

    def rerolled(value: int) -> dict[int, Fraction]:
        # a die whose value meets the reroll is replaced, up to the cap
        if term.reroll is None or not term.reroll(value):
            return {value: Fraction(1)}
        out: dict[int, Fraction] = {}
        going = Fraction(1)  # the chance the rerolls have gone on this far
        for attempt in range(term.reroll_cap):
            last = attempt == term.reroll_cap - 1
            for face, q in faces.items():
                if last or not term.reroll(face):
                    out[face] = out.get(face, Fraction(0)) + going * q
            going *= sum((q for face, q in faces.items() if term.reroll(face)), Fraction(0))
        return out

    def scored(value: int) -> dict[int, Fraction]:
        # what one die of the chain adds: its value once rerolled, scored (compounding: the
        # value itself, rerolled and scored once the chain is summed)
        if term.compound:
            return {value: Fraction(1)}
        out: dict[int, Fraction] = {}
        for v, r in rerolled(value).items():
            out[term.score(v)] = out.get(term.score(v), Fraction(0)) + r
        return out

    memo: dict[tuple[int, int, int], dict[int, Fraction]] = {}

    def chain(value: int, compare: int, links: int) -> dict[int, Fraction]:
        # a die of ``value`` (compared as ``compare``) and the chain it explodes into
        key = (value, compare, links)
        if key not in memo:
            own = scored(value)
            if term.explode is None or links == 0 or not term.explode(compare):
                memo[key] = own
            else:
                rest: dict[int, Fraction] = {}
                for face, q in faces.items():
                    shown = face - (1 if term.penetrate else 0)
                    for t, r in chain(shown, face, links - 1).items():
                        rest[t] = rest.get(t, Fraction(0)) + q * r
                memo[key] = _add(own, rest)
        return memo[key]

    result: dict[int, Fraction] = {}
    for face, p in faces.items():
        first = term.value(face)
        for total, q in chain(first, first, term.explosion_cap).items():
            if term.compound:  # the summed chain is one die: rerolled, then scored
                for v, r in rerolled(total).items():
                    s = term.score(v)
                    result[s] = result.get(s, Fraction(0)) + p * q * r
            else:
                result[total] = result.get(total, Fraction(0)) + p * q
    return result


def _add(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def reference_odds(text: str) -> dict[int, Fraction]:
    """The odds of a sum of terms with no keep, drop or unique, from ``_one_die``."""
    notation = Notation.parse(text)
    total = {notation.constant: Fraction(1)}
    for term in notation.terms:
        die = _one_die(term)
        dice = {0: Fraction(1)}
        for _ in range(term.count):
            dice = _add(dice, die)
        total = _add(total, {term.sign * v: p for v, p in dice.items()})
    return {t: p for t, p in total.items() if p}


@st.composite
def medium_notations(draw: st.DrawFn) -> str:
    """Sums of up to two terms of up to three dice of up to 8 sides, any modifier but keep,
    drop and unique, at their full caps: past what the walk of every face can reach."""
    terms = []
    for index in range(draw(st.integers(1, 2))):
        sides = draw(st.sampled_from(["4", "6", "8", "F", "F.1"]))
        mods = draw(
            st.lists(
                st.sampled_from(
                    ["min2", "max5", "!", "!!", "!p", "!>=5", "r1", "ro<3", "r>=7", "!!p"]
                ),
                max_size=2,
                unique=True,
            )
        )
        if sum(m.startswith("!") for m in mods) > 1 or sum(m[0] == "r" for m in mods) > 1:
            mods = mods[:1]
        success = draw(st.sampled_from(["", "", ">=4", ">3f1", "<>2"]))
        sign = draw(st.sampled_from(["+", "-"])) if index else ""
        terms.append(f"{sign}{draw(st.integers(1, 3))}d{sides}{''.join(mods)}{success}")
    return "".join(terms) + draw(st.sampled_from(["", "+3", "-2"]))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(medium_notations())
def test_generated_odds_equal_the_rules_written_out(text: str) -> None:
    try:
        notation = Notation.parse(text)
        exact = odds(notation)
    except RuleError:
        assume(False)
        raise
    assert exact == reference_odds(text)


PIECES = [
    "1",
    "2",
    "6",
    "d",
    "d6",
    "d%",
    "dF",
    ".1",
    "+",
    "-",
    "*",
    "/",
    "%",
    "^",
    "**",
    "(",
    ")",
    ",",
    "floor(",
    "max(",
    "round(",
    "abs(",
    "!",
    "!!",
    "!p",
    "r",
    "ro",
    "u",
    "kh",
    "kl",
    "k",
    "dl",
    "dh",
    "cs",
    "cf",
    "s",
    "sd",
    ">",
    ">=",
    "<",
    "<>",
    "=",
    "f",
    "min",
    "max",
    " ",
    "#",
    "//",
    "/*",
    "*/",
    "\n",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12).map("".join))
def test_any_text_reads_or_is_refused_at_a_character_and_never_fails_inside(text: str) -> None:
    """Text made of the grammar's pieces: it reads, and then rolls and has odds or a named
    refusal; or it is refused naming a character of the text. No other exception."""
    try:
        notation = Notation.parse(text)
    except LimitError:
        return
    except NotationError as error:
        found = re.search(r"at character (\d+) \((.*?)\):", error.detail)
        if found is None:
            assert "at its end" in error.detail or error.detail == "dice notation is empty"
        else:
            assert found.group(2) == repr(text[int(found.group(1)) - 1]), error.detail
        return
    with budget.scope():
        result = roll(notation, Resolution(dice.SeededDice("any", 1)).roll)
    assert isinstance(result["total"], int)
    try:
        with budget.scope():
            exact = odds(notation)
    except LimitError:
        return
    assert sum(exact.values()) == 1 and result["total"] in exact
