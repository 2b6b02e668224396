"""What the engine hands the HTTP layer, word for word: dice descriptions, errors, the trail.

These are the members and messages a player or an app reads in every answer (``dice``,
``modifiers``, a 422's ``detail`` and ``errors[].field``); the mutation run showed that
renaming any of them went unnoticed.
"""

from __future__ import annotations

import re
import string
from fractions import Fraction
from typing import Any

import pytest

from service.engine import dice, resolution, shape
from service.engine.errors import DiceError, LimitError, NotationError, RuleError
from service.engine.notation import Notation
from service.engine.resolution import Modifier, Resolution
from service.engine.ruleset import Reading, Ruleset, Ruling, Step, run_step, step_odds

SERVER_SEED = "4mK2nVq8Yz3pL0sT7wX1cB5dF9gH6jR2uE4iO8aQ0kM"


def test_seeded_dice_describe_themselves() -> None:
    assert dice.SeededDice("game-42", 7).describe() == {
        "mode": "seeded",
        "algorithm": "fc-dice-v1",
        "seed": "game-42",
        "nonce": 7,
        "seed_source": "client",
    }
    assert dice.SeededDice("game-42").describe()["nonce"] == 0


def test_fresh_dice_describe_a_22_character_server_seed() -> None:
    fresh = dice.SeededDice.fresh()
    assert fresh.describe() == {
        "mode": "seeded",
        "algorithm": "fc-dice-v1",
        "seed": fresh.seed,
        "nonce": 0,
        "seed_source": "server",
    }
    # 16 bytes of the operating system's randomness, base64url: 22 characters
    assert len(fresh.seed) == 22
    assert set(fresh.seed) <= set(string.ascii_letters + string.digits + "-_")


def test_sealed_dice_describe_the_commitment_never_the_seed() -> None:
    sealed = dice.SealedDice(SERVER_SEED, "ajax", 3, reveal_after="2026-12-01T00:00:00Z")
    assert sealed.describe() == {
        "mode": "sealed",
        "algorithm": "fc-dice-sealed-v1",
        "commitment": dice.commitment(SERVER_SEED),
        "client_seed": "ajax",
        "nonce": 3,
        "reveal_after": "2026-12-01T00:00:00Z",
    }
    plain = dice.SealedDice(SERVER_SEED, "ajax")
    assert plain.describe() == {
        "mode": "sealed",
        "algorithm": "fc-dice-sealed-v1",
        "commitment": dice.commitment(SERVER_SEED),
        "client_seed": "ajax",
        "nonce": 0,
    }
    assert SERVER_SEED not in str(plain.describe())


def test_commitment_is_hex_sha256_of_the_utf8_seed() -> None:
    import hashlib

    assert dice.commitment("Nürnburg") == hashlib.sha256("Nürnburg".encode()).hexdigest()
    assert re.fullmatch(r"[0-9a-f]{64}", dice.commitment(SERVER_SEED))


def test_supplied_dice_describe_themselves() -> None:
    assert dice.SuppliedDice([3, 5]).describe() == {"mode": "supplied", "values": [3, 5]}


def test_supplied_off_face_message_names_the_die_it_was_taken_as() -> None:
    with pytest.raises(DiceError) as raised:
        dice.SuppliedDice([3, 7, 1]).draw("straddle", 3, 6)
    assert raised.value.detail == (
        "value 7 (dice.values[1]) is not a face of a d6: it was taken as die 2 of 3d6 for straddle"
    )
    assert raised.value.field == "dice.values"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "dice notation is empty"),
        (
            "3x6",
            "cannot read dice notation '3x6' at character 2 ('x'): an operator (+, -, *, /, %, "
            "^) before the next term; write terms like 3d6, 4d6d1, 4d6kh3, 2d20kl1, 3d6!, "
            "10d6>=5, 4dF or 1d20+5",
        ),
        (
            "3d6 2d6",
            "cannot read dice notation '3d6 2d6' at character 5 ('2'): an operator (+, -, *, /, "
            "%, ^) before the next term; write terms like 3d6, 4d6d1, 4d6kh3, 2d20kl1, 3d6!, "
            "10d6>=5, 4dF or 1d20+5",
        ),
        (
            "2d6+",
            "cannot read dice notation '2d6+' at its end: a number or a die (NdS); write "
            "terms like 3d6, 4d6d1, 4d6kh3, 2d20kl1, 3d6!, 10d6>=5, 4dF or 1d20+5",
        ),
        ("101d6", "a roll has 1 to 100 dice in all, not 101"),
        ("1d1", "a die has 2 to 1000 sides"),
        ("1d6+10001", "the constant is at most 10000 either way"),
    ],
)
def test_notation_errors_word_for_word_on_the_notation_field(text: str, message: str) -> None:
    with pytest.raises((NotationError, LimitError)) as raised:
        Notation.parse(text)
    assert raised.value.detail == message
    assert raised.value.field == "notation"
    # What does not read as notation is a notation problem; only a real limit is a limit.
    unreadable = message.startswith(("dice notation", "cannot read"))
    assert isinstance(raised.value, NotationError) is unreadable


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("3d6", "3d6"),
        ("2d8+1d10+2", "2d8+1d10+2"),
        ("1d6 - 1", "1d6-1"),
        ("d20", "1d20"),
        ("4d6k3", "4d6kh3"),
        ("2d20kl", "2d20kl1"),
        ("3d6!", "3d6!"),
        ("3d6!6", "3d6!"),
        ("3d6!=5", "3d6!5"),
        ("5d10!!>=9", "5d10!!>=9"),
        ("4d6r=1", "4d6r1"),
        ("4d6r", "4d6r1"),
        ("4d6ro<3", "4d6ro<3"),
        ("6d10>=8f1", "6d10>=8f1"),
        ("4dF+1", "4dF+1"),
        ("d%", "1d%"),
        ("4d6kh3r1", "4d6r1kh3"),
        ("3d6max5min2", "3d6min2max5"),
        ("1d20 - 1d4", "1d20-1d4"),
    ],
)
def test_notation_is_written_back_plainly(text: str, written: str) -> None:
    assert str(Notation.parse(text)) == written


def test_errors_carry_their_field() -> None:
    assert RuleError("no", "firer").field == "firer"
    assert RuleError("no").field is None
    assert DiceError("no").field == "dice.values"
    assert LimitError("too many", field="notation").field == "notation"


def test_a_check_is_recorded_with_every_member() -> None:
    res = Resolution(dice.SuppliedDice([4, 4]))
    roll = res.roll("fire", 2, 6)
    final = res.check(
        "fire",
        roll.total,
        [Modifier("weather Misty", -1), Modifier("weather Fair", 0)],
        "Fire table at Long: 8+ straddles",
        "miss",
    )
    assert final == 7
    assert res.checks == [
        {
            "roll": "fire",
            "natural": 8,
            "applied": [{"source": "weather Misty", "value": -1}],
            "final": 7,
            "compared_with": "Fire table at Long: 8+ straddles",
            "outcome": "miss",
        }
    ]
    assert res.envelope("salvo-solo", "fire", {"straddle": False}) == {
        "ruleset": "salvo-solo",
        "step": "fire",
        "result": {"straddle": False},
        "rolls": [{"label": "fire", "notation": "2d6", "values": [4, 4], "total": 8}],
        "modifiers": res.checks,
        "dice": {"mode": "supplied", "values": [4, 4]},
    }


def _ruleset() -> Ruleset:
    def resolve(_: object, res: Resolution) -> dict[str, object]:
        return {"total": res.roll("x", 1, 6).total}

    steps = (
        Step(
            name="one",
            summary="One",
            description="the first",
            dice="1d6",
            resolve=resolve,
            odds=True,
        ),
        Step(name="two", summary="Two", description="the second", dice="none", resolve=resolve),
    )
    ruling = Ruling(id="r", question="question?", ruling="ruling.", reason="reason.")
    return Ruleset("demo", "Demo", "a source", "a ruleset", steps, {}, (), (ruling,))


def test_ruleset_finds_its_steps_by_name() -> None:
    ruleset = _ruleset()
    assert ruleset.step("two").summary == "Two"
    assert ruleset.step("one").summary == "One"
    with pytest.raises(KeyError) as raised:
        ruleset.step("three")
    assert raised.value.args == ("three",)


def test_ruleset_summary_and_detail() -> None:
    ruleset = _ruleset()
    assert ruleset.summary() == {
        "id": "demo",
        "title": "Demo",
        "source": "a source",
        "steps": ["one", "two"],
    }
    assert ruleset.detail() == {
        "id": "demo",
        "title": "Demo",
        "source": "a source",
        "description": "a ruleset",
        "steps": [
            {
                "name": "one",
                "summary": "One",
                "dice": "1d6",
                "path": "/v1/rulesets/demo/one",
                "odds_path": "/v1/rulesets/demo/one/odds",
            },
            {
                "name": "two",
                "summary": "Two",
                "dice": "none",
                "path": "/v1/rulesets/demo/two",
                "odds_path": None,
            },
        ],
        "rulings": [
            {
                "id": "r",
                "question": "question?",
                "ruling": "ruling.",
                "reason": "reason.",
                "readings": [],
                "default_reading": None,
                "wording": None,
            }
        ],
    }


def test_run_step_answers_with_the_envelope() -> None:
    step = _ruleset().step("one")
    assert run_step("demo", step, None, dice.SuppliedDice([5])) == {
        "ruleset": "demo",
        "step": "one",
        "result": {"total": 5},
        "rolls": [{"label": "x", "notation": "1d6", "values": [5], "total": 5}],
        "modifiers": [],
        "dice": {"mode": "supplied", "values": [5]},
    }


def test_step_odds_enumerate_or_take_exact_odds_most_likely_first() -> None:
    def resolve(_: object, res: Resolution) -> dict[str, object]:
        return {"high": res.roll("x", 1, 4).total >= 2}

    enumerated = step_odds(
        "demo",
        Step(name="s", summary="S", description="s", dice="1d4", resolve=resolve, odds=True),
        None,
    )
    assert enumerated == {
        "ruleset": "demo",
        "step": "s",
        "outcomes": [
            {"result": {"high": True}, "probability": "3/4", "p": 0.75},
            {"result": {"high": False}, "probability": "1/4", "p": 0.25},
        ],
    }

    def exact(inputs: object) -> list[tuple[dict[str, object], Fraction]]:
        assert inputs == "the inputs"
        # the same result in two member orders is one outcome; ties are ordered by result
        return [
            ({"b": 2}, Fraction(1, 2)),
            ({"a": 1, "c": 3}, Fraction(1, 6)),
            ({"c": 3, "a": 1}, Fraction(1, 3)),
        ]

    given = step_odds(
        "demo",
        Step(
            name="e",
            summary="E",
            description="e",
            dice="1d6",
            resolve=resolve,
            odds=True,
            exact_odds=exact,
        ),
        "the inputs",
    )
    assert [(o["result"], o["probability"]) for o in given["outcomes"]] == [
        ({"a": 1, "c": 3}, "1/2"),
        ({"b": 2}, "1/2"),
    ]


def test_step_odds_resolve_with_the_inputs_given() -> None:
    def resolve(inputs: int, res: Resolution) -> dict[str, object]:
        return {"at_least": res.roll("x", 1, 6).total >= inputs}

    step = Step(name="s", summary="S", description="s", dice="1d6", resolve=resolve, odds=True)
    outcomes = step_odds("demo", step, 6)["outcomes"]
    assert [(o["result"], o["probability"]) for o in outcomes] == [
        ({"at_least": False}, "5/6"),
        ({"at_least": True}, "1/6"),
    ]


def test_enumerating_dice_describe_themselves() -> None:
    assert dice._EnumeratingDice([]).describe() == {"mode": "enumerated"}


def _exact_step(odds: list[tuple[dict[str, object], Fraction]]) -> Step:
    def resolve(_: object, res: Resolution) -> dict[str, object]:
        raise AssertionError("exact odds never resolve the step")

    return Step(
        name="e",
        summary="E",
        description="e",
        dice="1d6",
        resolve=resolve,
        odds=True,
        exact_odds=lambda _: odds,
    )


def test_step_odds_order_chances_over_different_denominators_most_likely_first() -> None:
    step = _exact_step(
        [({"n": 1}, Fraction(1, 6)), ({"n": 2}, Fraction(1, 3)), ({"n": 3}, Fraction(1, 2))]
    )
    outcomes = step_odds("demo", step, None)["outcomes"]
    assert [o["probability"] for o in outcomes] == ["1/2", "1/3", "1/6"]


def test_step_odds_order_chances_too_close_for_floats_exactly() -> None:
    # (2^55 + 1) / 2^57 is more likely than 2^55 / 2^57 = 1/4, yet both are the same float
    more = Fraction(2**55 + 1, 2**57)
    assert float(more) == float(Fraction(1, 4))
    step = _exact_step([({"a": "less"}, Fraction(1, 4)), ({"b": "more"}, more)])
    outcomes = step_odds("demo", step, None)["outcomes"]
    assert [o["result"] for o in outcomes] == [{"b": "more"}, {"a": "less"}]


def test_enumerate_outcomes_adds_up_an_outcome_reached_by_different_numbers_of_dice() -> None:
    # a 6 hits at once; any other face rolls again, and a 6 then hits too
    def play(source: dice.DiceSource) -> str:
        if source.draw("first", 1, 6).total == 6:
            return "hit"
        return "hit" if source.draw("again", 1, 6).total == 6 else "miss"

    assert dice.enumerate_outcomes(play) == {"hit": Fraction(11, 36), "miss": Fraction(25, 36)}


def _two_readings(default: str) -> Ruling:
    return Ruling(
        id="demo-two-readings",
        question="question?",
        ruling="ruling.",
        reason="reason.",
        readings=(
            Reading(id="strict", text="Strictly", default=default == "strict"),
            Reading(id="loose", text="Loosely", default=default == "loose"),
        ),
    )


def _with_ruling(ruleset_id: str, ruling: Ruling) -> Ruleset:
    return Ruleset(ruleset_id, "Demo", "a source", "a ruleset", _ruleset().steps, rulings=(ruling,))


def test_two_rulesets_may_give_one_ruling_id_different_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(resolution, "_DEFAULTS", {})
    strict = _with_ruling("demo-strict", _two_readings("strict"))
    loose = _with_ruling("demo-loose", _two_readings("loose"))
    assert strict.readings_in_force() == {"demo-two-readings": "strict"}
    assert loose.readings_in_force() == {"demo-two-readings": "loose"}
    assert loose.readings_in_force({"demo-two-readings": "strict"}) == strict.readings_in_force()

    def read(_: object, res: Resolution) -> dict[str, object]:
        return {"reading": res.reading("demo-two-readings")}

    step = Step(name="read", summary="Read", description="Its reading.", dice="none", resolve=read)
    for ruleset, reading in (("demo-strict", "strict"), ("demo-loose", "loose")):
        assert run_step(ruleset, step, None, dice.SuppliedDice([]))["result"] == {
            "reading": reading
        }
        assert step_odds(ruleset, step, None)["outcomes"][0]["result"] == {"reading": reading}
    # Outside a run no ruleset is in force, and the id alone names no one default.
    with pytest.raises(KeyError, match="different defaults in rulesets .'demo-loose', 'demo-st"):
        resolution.Readings().reading("demo-two-readings")
    assert resolution.Readings({"demo-two-readings": "loose"}).reading("demo-two-readings") == (
        "loose"
    )
    with pytest.raises(KeyError, match="no ruling 'unknown' declares readings"):
        resolution.Readings().reading("unknown")


def test_a_ruling_with_two_readings_is_read_by_its_default_outside_a_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(resolution, "_DEFAULTS", {})
    ruling = _two_readings("loose")
    with pytest.raises(KeyError, match="no ruling 'demo-two-readings' declares readings"):
        resolution.Readings().reading("demo-two-readings")  # no ruleset declares it yet
    _with_ruling("demo", ruling)
    _with_ruling("demo-again", _two_readings("loose"))  # another, with the same default
    assert resolution.Readings().reading("demo-two-readings") == "loose"
    assert Resolution(dice.SuppliedDice([])).reading("demo-two-readings") == "loose"
    assert [shape.to_json(reading) for reading in ruling.readings] == [
        {"id": "strict", "text": "Strictly", "default": False, "wording_supports": False},
        {"id": "loose", "text": "Loosely", "default": True, "wording_supports": False},
    ]


def test_a_ruling_is_written_with_its_default_reading_and_its_wording_or_null() -> None:
    written = shape.to_json(_two_readings("loose"))
    assert (written["default_reading"], written["readings"][1]["default"]) == ("loose", True)
    assert list(written) == [
        "id",
        "question",
        "ruling",
        "reason",
        "readings",
        "default_reading",
        "wording",
    ]
    plain = Ruling(id="plain", question="Q?", ruling="R.", reason="Why.", wording="")
    assert shape.to_json(plain) == {
        "id": "plain",
        "question": "Q?",
        "ruling": "R.",
        "reason": "Why.",
        "readings": [],
        "default_reading": None,
        "wording": None,
    }
    with pytest.raises(ValueError, match="its default reading is 'loose'"):
        Ruling(
            id="demo",
            question="Q?",
            ruling="R.",
            reason="Why.",
            readings=_two_readings("loose").readings,
            default_reading="strict",
        )


def test_a_ruleset_names_each_step_and_ruling_once_and_has_a_step() -> None:
    steps, ruling = _ruleset().steps, _two_readings("loose")
    with pytest.raises(ValueError, match="^ruleset 'demo': two rulings named .'demo-two-readin"):
        Ruleset("demo", "Demo", "a source", "a ruleset", steps, rulings=(ruling, ruling))
    with pytest.raises(ValueError, match="^ruleset 'demo': two steps named .'one'.$"):
        Ruleset("demo", "Demo", "a source", "a ruleset", (steps[0], steps[0]))
    with pytest.raises(ValueError, match="^ruleset 'demo' has no step$"):
        Ruleset("demo", "Demo", "a source", "a ruleset", ())
    small = Ruleset("demo", "Demo", "a source", "a ruleset", steps)
    assert (small.tables, small.ships, small.rulings, small.readings_in_force()) == ({}, (), (), {})


def test_a_flat_record_as_a_dict_is_what_asdict_gives_in_its_order() -> None:
    from dataclasses import asdict

    from service.engine.records import fields_dict
    from service.rulesets.dreadnought.ships import ShipState as DreadnoughtState
    from service.rulesets.fleet_action.tables import SHIP_CLASSES
    from service.rulesets.salvo_solo.ships import CATALOG, ShipState

    records: list[Any] = [
        *CATALOG.values(),
        *SHIP_CLASSES.values(),
        ShipState(),
        ShipState(3, 1, 2, "lost-next-turn"),
        DreadnoughtState(4, 1, True, 2, "left", False),
    ]
    for record in records:
        made = fields_dict(record)
        assert made == asdict(record)
        assert list(made) == list(asdict(record))


def test_a_second_ruleset_of_one_id_replaces_no_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resolution, "_DEFAULTS", {})
    strict = _with_ruling("demo-again", _two_readings("strict"))
    _with_ruling("demo-again", _two_readings("strict"))  # the same defaults: nothing to choose
    assert resolution.Readings(None, "demo-again").reading("demo-two-readings") == "strict"
    loose = _with_ruling("demo-again", _two_readings("loose"))

    def read(_: object, res: Resolution) -> dict[str, object]:
        return {"reading": res.reading("demo-two-readings")}

    step = Step(name="read", summary="Read", description="Its reading.", dice="none", resolve=read)
    # Each Ruleset's own readings in force still say its defaults ...
    for ruleset, reading in ((strict, "strict"), (loose, "loose")):
        answer = run_step(
            "demo-again", step, None, dice.SuppliedDice([]), ruleset.readings_in_force()
        )
        assert answer["result"] == {"reading": reading}
    # ... while the id alone names neither (not the last one made).
    with pytest.raises(
        KeyError, match="two rulesets of id 'demo-again' give their rulings different"
    ):
        run_step("demo-again", step, None, dice.SuppliedDice([]))
