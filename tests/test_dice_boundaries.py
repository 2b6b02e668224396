"""Every dice limit at its boundary: the last value inside is accepted, the first outside refused.

The limits are read from the engine's constants, so a limit that moves is tested where it
now is; the documented figures are pinned separately (docs/dice.md names them).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.engine import budget, dice, notation
from service.engine.errors import DiceError, LimitError


def test_documented_limits() -> None:
    assert dice.MAX_SIDES == 1000
    assert dice.MAX_DICE_PER_REQUEST == 1000
    assert notation.MAX_NOTATION_DICE == 100
    assert notation.MAX_NOTATION_CONSTANT == 10_000
    assert notation.MAX_NOTATION_LENGTH == 200
    assert notation.MIN_CAP == 5
    assert notation.PEER_CAP == 1000
    assert notation.CAP_CHANCE * 1_000_000 == 1
    assert notation.MAX_NOTATION_DRAWS == dice.MAX_DICE_PER_REQUEST
    assert budget.REQUEST_WORK == 400_000
    assert budget.REQUEST_MS == 40
    assert dice.MAX_NONCE == 2**53 - 1


def roll(client: FlaskClient, notation: str, **dice_member: Any) -> Any:
    body: dict[str, Any] = {"notation": notation}
    if dice_member:
        body["dice"] = dice_member
    return client.post("/v1/dice/roll", json=body)


# --- the notation constant: 10,000 either way ---------------------------------------------------

LIMIT = notation.MAX_NOTATION_CONSTANT


@pytest.mark.parametrize("constant", [LIMIT, -LIMIT, LIMIT - 1, 0])
def test_notation_constant_inside(constant: int) -> None:
    assert notation.Notation.parse(f"1d6{constant:+d}").constant == constant


@pytest.mark.parametrize("constant", [LIMIT + 1, -(LIMIT + 1)])
def test_notation_constant_outside(constant: int) -> None:
    with pytest.raises(LimitError, match=f"constant is at most {LIMIT} either way"):
        notation.Notation.parse(f"1d6{constant:+d}")


def test_notation_constant_adds_up_across_terms() -> None:
    assert notation.Notation.parse(f"1d6+{LIMIT - 1}+1").constant == LIMIT
    with pytest.raises(LimitError, match="constant"):
        notation.Notation.parse(f"1d6+{LIMIT}+1")
    assert notation.Notation.parse(f"1d6+{LIMIT}-{LIMIT}").constant == 0


def test_notation_constant_over_http(client: FlaskClient) -> None:
    inside = roll(client, f"1d6+{LIMIT}", seed="edge", nonce=1)
    assert inside.status_code == 200
    assert inside.get_json()["result"]["constant"] == LIMIT
    outside = roll(client, f"1d6+{LIMIT + 1}", seed="edge", nonce=1)
    assert outside.status_code == 422
    assert str(LIMIT) in outside.get_json()["detail"]


# --- 100 dice in one notation --------------------------------------------------------------------

MOST = notation.MAX_NOTATION_DICE


@pytest.mark.parametrize("text", [f"{MOST}d6", f"{MOST - 1}d6+1d8", f"{MOST // 2}d6+{MOST // 2}d8"])
def test_notation_dice_inside(text: str) -> None:
    parsed = notation.Notation.parse(text)
    assert sum(term.count for term in parsed.terms) <= MOST


@pytest.mark.parametrize(
    "text", [f"{MOST + 1}d6", f"{MOST}d6+1d8", f"{MOST // 2}d6+{MOST // 2 + 1}d8"]
)
def test_notation_dice_outside(text: str) -> None:
    with pytest.raises(LimitError, match=f"1 to {MOST} dice in all, not {MOST + 1}"):
        notation.Notation.parse(text)


def test_notation_dice_over_http(client: FlaskClient) -> None:
    inside = roll(client, f"{MOST}d6", seed="edge", nonce=2)
    assert inside.status_code == 200
    assert len(inside.get_json()["rolls"][0]["values"]) == MOST
    assert roll(client, f"{MOST + 1}d6", seed="edge", nonce=2).status_code == 422


# --- sides: 2 to 1000; one byte up to 256, two from 257 -------------------------------------------


@pytest.mark.parametrize("sides", [2, 256, 257, dice.MAX_SIDES])
def test_sides_inside(sides: int) -> None:
    (term,) = notation.Notation.parse(f"1d{sides}").terms
    assert (term.count, term.sides) == (1, sides)
    (value,) = dice.SeededDice("edge", 0).draw("x", 1, sides).values
    assert 1 <= value <= sides


@pytest.mark.parametrize("sides", [0, 1, dice.MAX_SIDES + 1])
def test_sides_outside(sides: int) -> None:
    with pytest.raises(LimitError, match="2 to 1000 sides"):
        notation.Notation.parse(f"1d{sides}")
    with pytest.raises(LimitError, match=f"2 to 1000 sides, not {sides}"):
        dice.SeededDice("edge", 0).draw("x", 1, sides)


def test_a_d256_reads_one_byte_and_a_d257_two() -> None:
    assert dice.die_from_stream(iter([255]), 256) == 256
    assert dice.die_from_stream(iter([0, 255]), 257) == 256  # 0x00FF = 255: face 256
    # a d257 keeps 0 to 65534 (65536 mod 257 = 1): 65535 is thrown away
    assert dice.die_from_stream(iter([255, 255, 0, 1]), 257) == 2
    assert dice.die_from_stream(iter([255, 254]), 257) == 65534 % 257 + 1


@pytest.mark.parametrize(
    ("sides", "last_kept"),
    [(6, 251), (10, 249), (100, 199), (1000, 64999), (999, 64934)],
)
def test_rejection_limit_is_exact(sides: int, last_kept: int) -> None:
    width = 1 if sides <= 256 else 2

    def as_bytes(number: int) -> list[int]:
        return list(number.to_bytes(width, "big"))

    assert dice.die_from_stream(iter(as_bytes(last_kept)), sides) == last_kept % sides + 1
    # the first number past the limit is thrown away and the next one read
    assert dice.die_from_stream(iter(as_bytes(last_kept + 1) + as_bytes(0)), sides) == 1


def test_sides_over_http(client: FlaskClient) -> None:
    assert roll(client, f"1d{dice.MAX_SIDES}", seed="edge").status_code == 200
    assert roll(client, f"1d{dice.MAX_SIDES + 1}", seed="edge").status_code == 422
    assert roll(client, "1d2", seed="edge").status_code == 200
    assert roll(client, "1d1", seed="edge").status_code == 422


# --- the nonce: 0 to 2^53 - 1 ---------------------------------------------------------------------


def test_largest_nonce_rolls_and_is_reported(client: FlaskClient) -> None:
    inside = roll(client, "3d6", seed="edge", nonce=dice.MAX_NONCE)
    assert inside.status_code == 200
    assert inside.get_json()["dice"]["nonce"] == dice.MAX_NONCE
    expected = dice.SeededDice("edge", dice.MAX_NONCE).draw("x", 3, 6).values
    assert tuple(inside.get_json()["rolls"][0]["values"]) == expected


@pytest.mark.parametrize("nonce", [dice.MAX_NONCE + 1, -1, 2**64])
def test_nonce_outside_is_refused(client: FlaskClient, nonce: int) -> None:
    outside = roll(client, "3d6", seed="edge", nonce=nonce)
    assert outside.status_code == 422
    assert outside.mimetype == "application/problem+json"
    assert any(e["field"] == "dice.nonce" for e in outside.get_json()["errors"])


def test_nonce_0_is_inside(client: FlaskClient) -> None:
    assert roll(client, "3d6", seed="edge", nonce=0).get_json()["dice"]["nonce"] == 0


# --- dice per request, added up across the rolls of one request --------------------------------

PER_REQUEST = dice.MAX_DICE_PER_REQUEST


@pytest.mark.parametrize("source", ["seeded", "supplied"])
def test_dice_per_request_add_up_across_rolls(source: str) -> None:
    make: Callable[[], dice.DiceSource] = {
        "seeded": lambda: dice.SeededDice("edge", 3),
        "supplied": lambda: dice.SuppliedDice([1] * (PER_REQUEST + 1)),
    }[source]
    exactly = make()
    exactly.draw("first", 600, 6)
    exactly.draw("second", PER_REQUEST - 600, 6)  # 1000 in all: inside
    assert exactly.used == PER_REQUEST
    with pytest.raises(LimitError, match=f"at most {PER_REQUEST} dice"):
        exactly.draw("one more", 1, 6)
    assert exactly.used == PER_REQUEST  # a refused roll rolls nothing

    over = make()
    over.draw("first", 600, 6)
    with pytest.raises(LimitError, match=f"third: a request may roll at most {PER_REQUEST}"):
        over.draw("second", 399, 6)
        over.draw("third", 2, 6)


def test_a_single_roll_of_exactly_the_limit() -> None:
    assert len(dice.SeededDice("edge", 4).draw("all", PER_REQUEST, 6).values) == PER_REQUEST
    with pytest.raises(LimitError):
        dice.SeededDice("edge", 4).draw("all", PER_REQUEST + 1, 6)


def test_supplied_values_over_http_at_the_limit(client: FlaskClient) -> None:
    too_many = client.post(
        "/v1/dice/roll", json={"notation": "1d6", "dice": {"values": [1] * (PER_REQUEST + 1)}}
    )
    assert too_many.status_code == 422
    one_left_over = client.post(
        "/v1/dice/roll", json={"notation": "1d6", "dice": {"values": [1] * PER_REQUEST}}
    )
    assert one_left_over.status_code == 422  # the roll uses one; 999 are unused
    assert "used only 1" in one_left_over.get_json()["detail"]


# --- the odds branch cap --------------------------------------------------------------------------


def play_with_branches(total: int) -> Any:
    """A play whose dice tree has exactly ``total`` leaves (dice of at most 1000 sides)."""

    def play(source: dice.DiceSource, left: int = total) -> int:
        if left == 1:
            return 0
        if left <= dice.MAX_SIDES:
            return source.draw("x", 1, left).total
        half = left // 2
        face = source.draw("split", 1, 2).total
        return face * 10_000_000 + int(play(source, half if face == 1 else left - half))

    return play


def test_odds_exactly_at_the_branch_cap() -> None:
    distribution = dice.enumerate_outcomes(play_with_branches(dice.MAX_ODDS_BRANCHES))
    assert len(distribution) == dice.MAX_ODDS_BRANCHES
    assert sum(distribution.values()) == 1


def test_odds_one_branch_past_the_cap_is_refused() -> None:
    with pytest.raises(LimitError, match=f"more than {dice.MAX_ODDS_BRANCHES} dice outcomes"):
        dice.enumerate_outcomes(play_with_branches(dice.MAX_ODDS_BRANCHES + 1))


@pytest.mark.parametrize("cap", [36, 37])
def test_odds_cap_counts_branches_not_outcomes(monkeypatch: pytest.MonkeyPatch, cap: int) -> None:
    """2d6 has 36 branches but 11 totals: the cap is on branches."""
    monkeypatch.setattr(dice, "MAX_ODDS_BRANCHES", cap)
    distribution = dice.enumerate_outcomes(lambda source: source.draw("x", 2, 6).total)
    assert distribution[7] == Fraction(1, 6)
    monkeypatch.setattr(dice, "MAX_ODDS_BRANCHES", 35)
    with pytest.raises(LimitError):
        dice.enumerate_outcomes(lambda source: source.draw("x", 2, 6).total)


# --- supplied faces: 1 to sides ------------------------------------------------------------------


@pytest.mark.parametrize(("sides", "value"), [(6, 0), (6, 7), (1000, 1001), (2, 3)])
def test_a_supplied_value_just_off_the_die_is_refused(sides: int, value: int) -> None:
    with pytest.raises(DiceError, match=f"value {value} .* is not a face of a d{sides}"):
        dice.SuppliedDice([value]).draw("x", 1, sides)


@pytest.mark.parametrize(("sides", "value"), [(6, 1), (6, 6), (1000, 1000), (2, 2)])
def test_a_supplied_value_on_the_edge_of_the_die_is_taken(sides: int, value: int) -> None:
    assert dice.SuppliedDice([value]).draw("x", 1, sides).values == (value,)


@pytest.mark.parametrize(
    "source",
    [dice.SeededDice("x", 0), dice.SuppliedDice([1]), dice.SealedDice("s" * 43, "c", 0)],
    ids=["seeded", "supplied", "sealed"],
)
def test_a_dice_source_refuses_a_d1_and_a_d1001(source: dice.DiceSource) -> None:
    with pytest.raises(LimitError, match="2 to 1000 sides, not 1"):
        source.draw("coin", 1, 1)
    with pytest.raises(LimitError, match="2 to 1000 sides, not 1001"):
        source.draw("coin", 1, 1001)
    assert source.used == 0


@pytest.mark.parametrize("value", [0, -1])
def test_supplied_dice_refuse_a_0_or_less(value: int) -> None:
    with pytest.raises(DiceError, match=rf"value {value} \(dice.values\[0\]\) is not a face"):
        dice.SuppliedDice([value]).draw("fire", 1, 6)


def test_supplied_dice_take_every_face_from_1_to_sides() -> None:
    assert dice.SuppliedDice([1, 6]).draw("fire", 2, 6).values == (1, 6)
    assert dice.SuppliedDice([2, 1]).draw("coin", 2, 2).values == (2, 1)


# --- a modifier's numbers: 1000 either way, a keep of 1000 dice ------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"1d6min{dice.MAX_SIDES}",
        f"1d6max-{dice.MAX_SIDES}",
        f"3d6>={dice.MAX_SIDES}",
        f"3d6>=1f<-{dice.MAX_SIDES}",
        f"1d6r{dice.MAX_SIDES}",
        f"1d6!>{dice.MAX_SIDES}",
        f"4d6kh{notation.MAX_NOTATION_DRAWS}",
    ],
)
def test_a_modifiers_number_inside(text: str) -> None:
    notation.Notation.parse(text)


@pytest.mark.parametrize(
    "text",
    [
        f"1d6min{dice.MAX_SIDES + 1}",
        f"1d6max-{dice.MAX_SIDES + 1}",
        f"3d6>={dice.MAX_SIDES + 1}",
        f"3d6>=1f<-{dice.MAX_SIDES + 1}",
        f"1d6r{dice.MAX_SIDES + 1}",
        f"1d6!>{dice.MAX_SIDES + 1}",
        f"4d6kh{notation.MAX_NOTATION_DRAWS + 1}",
        "1d6min99999999999999999999",
    ],
)
def test_a_modifiers_number_outside(text: str) -> None:
    with pytest.raises(LimitError, match="a modifier's number"):
        notation.Notation.parse(text)


def test_a_huge_modifier_number_is_a_limit_problem_over_http(client: FlaskClient) -> None:
    for path in ("/v1/dice/roll", "/v1/dice/odds"):
        problem = client.post(path, json={"notation": "1d6min99999999999999999"}).get_json()
        assert problem["type"] == "/problems#limit", path
        assert (
            problem["errors"] == [{"field": "notation", "message": problem["detail"]}]
            and "at most 1000 either way" in problem["detail"]
        )


# --- draws: every reroll and explosion counted before a die is drawn ----------------------------


def test_the_draws_limit_counts_every_reroll_and_explosion() -> None:
    per_die = (1 + notation.MIN_CAP) * (1 + notation.MIN_CAP)  # past the limit: each cap 5
    most = notation.MAX_NOTATION_DRAWS // per_die
    notation.Notation.parse(f"{most}d6r1!")
    with pytest.raises(LimitError, match=f"could draw {(most + 1) * per_die} dice"):
        notation.Notation.parse(f"{most + 1}d6r1!")
    once = notation.MAX_NOTATION_DRAWS // (2 * (1 + notation.MIN_CAP))  # ro: one reroll
    notation.Notation.parse(f"{once}d6ro1!")
    with pytest.raises(LimitError, match="could draw"):
        notation.Notation.parse(f"{once + 1}d6ro1!")
