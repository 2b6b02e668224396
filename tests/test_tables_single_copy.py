"""One copy of every table: what ``/tables`` publishes is what the steps apply.

Two kinds of check, for every ruleset:

* band tables (rows with ``from`` and ``to``) are contiguous and never overlap, so moving a
  row's bound cannot go unnoticed;
* each published modifier, threshold or row is the one a resolution uses: the value is
  changed (in the published object itself where ``/tables`` hands out the engine's own
  object, else in the tables module that both ``as_data`` and the steps read), and the
  resolution must change with it. A step that kept its own copy would not change.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.engine.dice import SuppliedDice
from service.engine.resolution import Resolution, readings_in_force
from service.http.endpoints.meta import EXTENSION
from service.rulesets import REGISTERED
from service.rulesets.api import registered
from service.rulesets.dreadnought import tables as dn
from service.rulesets.fleet_action import tables as fa
from service.rulesets.salvo_grid import tables as sg
from service.rulesets.salvo_solo import steps as solo
from service.rulesets.salvo_solo import tables as ss
from service.rulesets.salvo_solo.ships import CATALOG, Ship, ShipState
from tests import dreadnought_helpers as dh
from tests import fleet_action_helpers as fh
from tests.fixtures.tiny_ruleset import EVERY


def tables_module(package: str) -> ModuleType | None:
    """A ruleset folder's ``tables.py``, or None: the file is optional (docs/rulesets.md)."""
    module = f"{package}.tables"
    return importlib.import_module(module) if importlib.util.find_spec(module) else None


# Every registered ruleset with a tables module, and the module its steps and ``as_data``
# read; the test rulesets (tests/fixtures/tiny_ruleset.py) have none.
RULESETS = {
    name.replace("_", "-"): (api.ruleset, module)
    for name, api in zip(REGISTERED, registered(), strict=True)
    if (module := tables_module(f"service.rulesets.{name}")) is not None
}


@pytest.mark.parametrize("ruleset", [api.id for api in EVERY])
def test_tables_served_are_the_engines_own(every_app: Flask, ruleset: str) -> None:
    served = every_app.test_client().get(f"/v1/rulesets/{ruleset}/tables").get_json()["tables"]
    assert json.loads(json.dumps(every_app.extensions[EXTENSION][ruleset].tables)) == served


@pytest.mark.parametrize("ruleset", RULESETS)
def test_tables_served_are_the_tables_module_data(client: FlaskClient, ruleset: str) -> None:
    served = client.get(f"/v1/rulesets/{ruleset}/tables").get_json()["tables"]
    engine, module = RULESETS[ruleset]
    assert served == json.loads(json.dumps(module.as_data()))
    assert json.loads(json.dumps(engine.tables)) == served


# --- band tables: contiguous, no overlap -------------------------------------------------------


def band_tables(data: Any, path: str = "") -> list[tuple[str, list[dict[str, Any]]]]:
    """Every list of rows with ``from`` and ``to`` in the published tables, by path."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            found += band_tables(value, f"{path}.{key}")
    elif isinstance(data, list):
        if data and all(isinstance(row, dict) and {"from", "to"} <= set(row) for row in data):
            found.append((path, data))
        else:
            for index, value in enumerate(data):
                found += band_tables(value, f"{path}[{index}]")
    return found


def assert_contiguous(rows: list[dict[str, Any]], low: int | None, high: int | None) -> None:
    """Rows run from ``low`` (None: open) to ``high`` (None: open), each next to the last."""
    assert rows[0]["from"] == low, rows
    assert rows[-1]["to"] == high, rows
    for before, after in zip(rows, rows[1:], strict=False):
        assert before["to"] is not None and after["from"] is not None, rows
        assert after["from"] == before["to"] + 1, (before, after)
    for row in rows:
        if row["from"] is not None and row["to"] is not None:
            assert row["from"] <= row["to"], row


def test_salvo_solo_band_tables_are_contiguous_and_open_ended() -> None:
    found = dict(band_tables(ss.as_data()))
    assert set(found) == {
        ".weather.rows",
        ".initial_range.rows",
        ".initiative.rows",
        ".enemy_action.rows",
        ".fire_order_tie.rows",
        ".straddle.rows",
        ".straddle.gun_size_modifier",
        ".special_damage.rows",
        ".critical.rows",
        ".end_of_turn.rows",
    }
    for rows in found.values():
        assert_contiguous(rows, None, None)


def test_dreadnought_band_tables_are_contiguous() -> None:
    data = dn.as_data()
    found = dict(band_tables(data))
    assert set(found) == {".critical_hits.rudder_jam_d6"}
    assert_contiguous(found[".critical_hits.rudder_jam_d6"], 1, 6)
    # the two-turrets D6: no effect, then explodes, covering 1-6
    two = data["critical_hits"]["two_turrets"]
    rows = [{"from": two["no_effect"][0], "to": two["no_effect"][1]}]
    rows.append({"from": two["explodes"][0], "to": two["explodes"][1]})
    assert_contiguous(rows, 1, 6)
    # the range bands of every Weapons Effect row: short from 1, then medium, then long
    for weapon in data["weapons_effect"]:
        bands = [{"from": weapon[b][0], "to": weapon[b][1]} for b in ("short", "medium", "long")]
        assert_contiguous(bands, 1, weapon["long"][1])


def _calibre_rows(calibre: float) -> list[dn.WeaponRow]:
    return [row for row in dn.WEAPONS if row.covers(calibre)]


@pytest.mark.parametrize(
    "calibre",
    [0.5, 4, 5.49, 5.5, 5.51, 6.99, 7, 7.01, 8, 8.99, 9, 9.01, 10.99, 11, 12, 13.49, 13.5, 15, 18],
)
def test_dreadnought_calibre_rows_cover_every_calibre_once_per_kind_of_target(
    calibre: float,
) -> None:
    rows = _calibre_rows(calibre)
    weights = [row.targets for row in rows]
    assert rows, calibre
    assert len(weights) == len(set(weights)), (calibre, [row.weapon for row in rows])
    # only the 7"-9" row is printed for both kinds of target (ruling seven-to-nine-rows)
    assert (len(rows) == 2) is (7 <= calibre <= 9)


def test_dreadnought_calibre_rows_meet_end_to_end() -> None:
    """Within each kind of target, one row's upper end is the next row's lower end."""
    for weight in ("light", "heavy"):
        rows = [row for row in dn.WEAPONS if row.targets == weight]
        assert rows[0].low is None or weight == "heavy"
        assert rows[-1].high is None or weight == "light"
        for before, after in zip(rows, rows[1:], strict=False):
            assert before.high == after.low, (before.weapon, after.weapon)
            # exactly one of them holds the shared calibre
            assert before.high_inclusive != after.low_inclusive, (before.weapon, after.weapon)


@pytest.mark.parametrize("ruleset", ["fleet-action", "salvo-grid"])
def test_rulesets_without_band_tables_publish_none(ruleset: str) -> None:
    _, module = RULESETS[ruleset]
    assert band_tables(module.as_data()) == []


def test_fleet_action_numbers_are_faces_of_its_die() -> None:
    faces = range(1, fa.DIE + 1)
    assert all(n in faces for n in fa.CREW_QUALITY.values())
    assert all(row.armour in faces for row in fa.SHIP_CLASSES.values())
    assert fa.WORST_TO_HIT in faces and fa.CATASTROPHIC_FACE in faces


# --- each published value is the one applied ----------------------------------------------------


@dataclass(frozen=True)
class Case:
    """Change ``patches`` (module, attribute, key or None, value); the published view and the
    resolution both follow."""

    id: str
    patches: tuple[tuple[ModuleType, str, Any, Any], ...]
    published: Callable[[dict[str, Any]], Any]
    expect: Any
    run: Callable[[FlaskClient], Any]


def _at(*path: str) -> Callable[[dict[str, Any]], Any]:
    """The published value at ``path`` in a ruleset's tables view."""

    def pick(data: dict[str, Any]) -> Any:
        found: Any = data
        for key in path:
            found = found[key]
        return found

    return pick


def _applied_to_hit(name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda data: dh.applied(data, "to hit")[name]


def _apply(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    for module, name, key, value in case.patches:
        if key is None:
            monkeypatch.setattr(module, name, value)
        else:
            monkeypatch.setitem(getattr(module, name), key, value)


def _solo(step: Callable[..., object], inp: Any, values: list[int], **kw: Any) -> Any:
    res = Resolution(SuppliedDice(values))
    result = step(inp, res, **kw) if kw else step(inp, res)
    return result, res.checks


def _mod(checks: list[dict[str, Any]], prefix: str) -> int | None:
    found = [m["value"] for c in checks for m in c["applied"] if m["source"].startswith(prefix)]
    assert len(found) <= 1, found
    return found[0] if found else None


def _ship(name: str, **state: Any) -> Ship:
    return Ship(CATALOG[name], ShipState(**state))


def _solo_mod(
    step: Any, inp: Any, values: list[int], prefix: str, rules: dict[str, str] | None = None
) -> Callable[[Any], Any]:
    """The modifier ``prefix`` names in the step's trail, under ``rules`` where the table
    is one reading's."""

    def run(_: Any) -> Any:
        with readings_in_force(rules, "salvo-solo"):
            return _mod(_solo(step, inp, values)[1], prefix)

    return run


def _solo_result(
    step: Any, inp: Any, values: list[int], pick: Callable[[Any], Any]
) -> Callable[[Any], Any]:
    def run(_: Any) -> Any:
        result, checks = _solo(step, inp, values)
        return pick(result), [c["compared_with"] for c in checks]

    return run


def _fire_order(values: list[int]) -> Callable[[Any], Any]:
    def run(_: Any) -> Any:
        res = Resolution(SuppliedDice(values))
        first = solo._fire_order(_ship("Ajax"), _ship("Nürnburg"), res, [])
        return first, res.checks[0]["compared_with"]

    return run


SOLO_CASES = [
    Case(
        "initiative: enemy slower",
        ((ss, "INITIATIVE_MODIFIERS", "enemy slower than player", 3),),
        lambda d: d["initiative"]["modifiers"]["enemy slower than player"],
        3,
        _solo_mod(
            solo.initiative,
            solo.InitiativeInput(_ship("Hood"), _ship("Graf Spee")),
            [1],
            "enemy slower",
        ),
    ),
    Case(
        "initiative: enemy faster",
        ((ss, "INITIATIVE_MODIFIERS", "enemy faster than player", -3),),
        lambda d: d["initiative"]["modifiers"]["enemy faster than player"],
        -3,
        _solo_mod(
            solo.initiative,
            solo.InitiativeInput(_ship("Graf Spee"), _ship("Hood")),
            [1],
            "enemy faster",
        ),
    ),
    Case(
        "initiative: bands",
        ((ss, "INITIATIVE", None, ((None, 2, "player"), (3, None, "enemy"))),),
        lambda d: d["initiative"]["rows"][0]["to"],
        2,
        _solo_result(
            solo.initiative,
            solo.InitiativeInput(_ship("Ajax"), _ship("Nürnburg")),
            [3],
            lambda r: r["first"],
        ),
    ),
    Case(
        "enemy action: smaller guns",
        ((ss, "ENEMY_ACTION_MODIFIERS", "enemy gun size smaller than player's", 2),),
        lambda d: d["enemy_action"]["modifiers"]["enemy gun size smaller than player's"],
        2,
        _solo_mod(
            solo.enemy_action,
            solo.EnemyActionInput(_ship("Graf Spee"), _ship("Hood"), None),
            [1],
            "enemy gun size smaller",
        ),
    ),
    Case(
        "enemy action: bands",
        (
            (
                ss,
                "ENEMY_ACTION",
                None,
                ((None, 1, "C"), (2, 4, "OB"), (5, 5, "same"), (6, None, "W")),
            ),
        ),
        lambda d: d["enemy_action"]["rows"][0]["to"],
        1,
        _solo_result(
            solo.enemy_action,
            solo.EnemyActionInput(_ship("Ajax"), _ship("Nürnburg"), None),
            [2],
            lambda r: r["action"],
        ),
    ),
    Case(
        "enemy action: first turn's last action",
        ((ss, "FIRST_TURN_LAST_ACTION", None, "C"),),
        lambda d: d["enemy_action"]["first_turn_last_action"],
        "C",
        _solo_result(
            solo.enemy_action,
            solo.EnemyActionInput(_ship("Ajax"), _ship("Nürnburg"), None),
            [5],
            lambda r: r["action"],
        ),
    ),
    Case(
        "fire order tie: bands",
        ((ss, "FIRE_ORDER_TIE", None, ((None, 2, "player"), (3, None, "enemy"))),),
        lambda d: d["fire_order_tie"]["rows"][0]["to"],
        2,
        _fire_order([3]),
    ),
    Case(
        "weather: initial range modifier",
        ((ss, "WEATHER_RANGE_MODIFIER", "Fine", 5),),
        lambda d: d["weather"]["initial_range_modifier"]["Fine"],
        5,
        _solo_mod(solo.initial_range, solo.RangeInput("Fine"), [1, 1], "weather Fine"),
    ),
    Case(
        "fire: weather modifier",
        ((ss, "FIRE_WEATHER_MODIFIER", "Misty", -2),),
        lambda d: d["fire"]["weather_modifier"]["Misty"],
        -2,
        _solo_mod(solo.fire, solo.FireInput("Long", "Misty"), [1, 1], "weather Misty"),
    ),
    Case(
        "fire: previously straddled",
        ((ss, "FIRE_PREVIOUSLY_STRADDLED", None, 4),),
        lambda d: d["fire"]["previously_straddled_modifier"],
        4,
        _solo_mod(solo.fire, solo.FireInput("Long", "Fair", True), [1, 1], "firer has straddled"),
    ),
    Case(
        "fire: straddle from",
        ((ss, "FIRE_STRADDLE_FROM", "Long", 9),),
        lambda d: d["fire"]["straddle_from"]["Long"],
        9,
        _solo_result(solo.fire, solo.FireInput("Long", "Fair"), [4, 4], lambda r: r["straddle"]),
    ),
    Case(
        "fire: shots per turn",
        ((ss, "SHOTS_PER_TURN", "Long", 3),),
        lambda d: d["fire"]["shots_per_turn"]["Long"],
        3,
        _solo_result(
            solo.fire, solo.FireInput("Long", "Fair"), [1, 1], lambda r: r["shots_per_turn"]
        ),
    ),
    Case(
        "straddle: range modifier",
        ((ss, "STRADDLE_RANGE_MODIFIER", "Long", -4),),
        lambda d: d["straddle"]["range_modifier"]["Long"],
        -4,
        _solo_mod(
            solo.straddle,
            solo.StraddleInput(_ship("Ajax"), _ship("Graf Spee"), "Long", "bow"),
            [1, 1, 1],
            "range Long",
        ),
    ),
    Case(
        "straddle: per firer T hit",
        ((ss, "STRADDLE_PER_FIRER_T_HIT", None, -2),),
        lambda d: d["straddle"]["per_firer_t_hit"],
        -2,
        _solo_mod(
            solo.straddle,
            solo.StraddleInput(_ship("Graf Spee", turret_hits=1), _ship("Ajax"), "Long", "bow"),
            [1, 1, 1],
            "firer has 1 T hits",
        ),
    ),
    Case(
        "straddle: gun size bands",
        ((ss, "STRADDLE_GUN_SIZE", None, ((None, 6, -3), (7, 8, -1), (9, None, 0))),),
        lambda d: d["straddle"]["gun_size_modifier"][0]["result"],
        -3,
        _solo_mod(
            solo.straddle,
            solo.StraddleInput(_ship("Nürnburg"), _ship("King George V"), "Long", "bow"),
            [1, 1, 1],
            "gun size",
            {"gun-size-bands": "bands"},
        ),
    ),
    Case(
        "straddle: gun size as printed",
        ((ss, "STRADDLE_GUN_SIZE_PRINTED", 6, -3),),
        lambda d: d["straddle"]["gun_size_modifier_printed"]["6"],
        -3,
        _solo_mod(
            solo.straddle,
            solo.StraddleInput(_ship("Nürnburg"), _ship("King George V"), "Long", "bow"),
            [1, 1, 1],
            "gun size",
        ),
    ),
    Case(
        "straddle: gun size exempt up to armor",
        ((ss, "STRADDLE_GUN_SIZE_EXEMPT_ARMOR", None, 6),),
        lambda d: d["straddle"]["gun_size_exempt_up_to_armor"],
        6,
        lambda _: (
            _solo_mod(
                solo.straddle,
                solo.StraddleInput(_ship("Nürnburg"), _ship("King George V"), "Long", "bow"),
                [1, 1, 1],
                "gun size",
            )(None),
        ),
    ),
    Case(
        "straddle: rows",
        ((ss, "STRADDLE", None, ((None, 2, "NE"), (3, None, "F"))),),
        lambda d: d["straddle"]["rows"][0]["to"],
        2,
        _solo_result(
            solo.straddle,
            solo.StraddleInput(_ship("Ajax"), _ship("Graf Spee"), "Medium", "bow"),
            [1, 1, 1],
            lambda r: r["outcome"],
        ),
    ),
    Case(
        "torpedo: hit from",
        ((ss, "TORPEDO_HIT_FROM", None, 11),),
        lambda d: d["torpedo"]["hit_from"],
        11,
        _solo_result(
            solo.torpedo,
            solo.TorpedoInput(_ship("Ajax"), _ship("Graf Spee"), "Short", "Fair"),
            [5, 5, 1],
            lambda r: r["hit"],
        ),
    ),
    Case(
        "torpedo: target type modifier",
        ((ss, "TORPEDO_TARGET_TYPE_MODIFIER", "CA", -3),),
        lambda d: d["torpedo"]["target_type_modifier"]["CA"],
        -3,
        _solo_mod(
            solo.torpedo,
            solo.TorpedoInput(_ship("Ajax"), _ship("Prinz Eugen"), "Short", "Fair"),
            [1, 1],
            "target is a CA",
        ),
    ),
    Case(
        "torpedo: slow target modifier",
        ((ss, "TORPEDO_SLOW_TARGET", "modifier", 5),),
        lambda d: d["torpedo"]["slow_target"]["modifier"],
        5,
        _solo_mod(
            solo.torpedo,
            solo.TorpedoInput(_ship("Ajax"), _ship("Graf Spee", speed_hits=2), "Short", "Fair"),
            [1, 1],
            "target speed",
        ),
    ),
    Case(
        "torpedo: slow target below speed",
        ((ss, "TORPEDO_SLOW_TARGET", "below_speed", 9),),
        lambda d: d["torpedo"]["slow_target"]["below_speed"],
        9,
        lambda _: (  # the slow-target modifier now applies to a ship at speed 8
            _mod(
                _solo(
                    solo.torpedo,
                    solo.TorpedoInput(_ship("Ajax"), _ship("Graf Spee"), "Short", "Fair"),
                    [1, 1],
                )[1],
                "target speed 8 is below 9",
            ),
        ),
    ),
    *(
        Case(
            f"end of turn: {key}",
            ((ss, "END_OF_TURN_MODIFIERS", key, value),),
            _at("end_of_turn", "modifiers", key),
            value,
            _solo_mod(solo.end_of_turn, inputs, [1], prefix),
        )
        for key, value, inputs, prefix in (
            (
                "either ship closed",
                -3,
                solo.EndOfTurnInput("Fair", "C", "OB"),
                "either ship closed",
            ),
            (
                "either ship withdrew",
                3,
                solo.EndOfTurnInput("Fair", "W", "OB"),
                "either ship withdrew",
            ),
            ("Misty", 4, solo.EndOfTurnInput("Misty", "OB", "OB"), "weather Misty"),
            ("Stormy", 5, solo.EndOfTurnInput("Stormy", "OB", "OB"), "weather Stormy"),
        )
    ),
    Case(
        "end of turn: bands",
        ((ss, "END_OF_TURN", None, ((None, 4, "continue"), (5, None, "game over"))),),
        lambda d: d["end_of_turn"]["rows"][0]["to"],
        4,
        _solo_result(
            solo.end_of_turn,
            solo.EndOfTurnInput("Fair", "OB", "OB"),
            [5],
            lambda r: r["game_over"],
        ),
    ),
]


def _dn_fire(values: list[int], pick: Callable[[dict[str, Any]], Any], **kw: Any) -> Any:
    return lambda client: pick(dh.fire(client, values, **kw))


def _dn_critical(tgt: dict[str, Any], throw: str, values: list[int] | None) -> Any:
    def run(client: FlaskClient) -> Any:
        data = dh.resolve(client, "critical", {"target": tgt, "throw": throw}, values)
        return data["result"], [c["compared_with"] for c in data["modifiers"]]

    return run


_DN_FLAGS = {
    "firing ship turned this turn": "firer_turned",
    "target ship turned this turn": "target_turned",
    "first time firing at this target": "first_time_at_target",
    "more than one ship firing at the same target": "more_than_one_ship_firing",
    "not under fire this turn": "not_under_fire",
}

DREADNOUGHT_CASES = [
    *(
        Case(
            f"to hit: {name}",
            ((dn, "TO_HIT_MODIFIERS", name, 5),),
            _at("to_hit", "modifiers", name),
            5,
            _dn_fire([1, 1, 1], _applied_to_hit(name), **{flag: True}),
        )
        for name, flag in _DN_FLAGS.items()
    ),
    Case(
        "to hit: director down",
        ((dn, "TO_HIT_MODIFIERS", "director down", -5),),
        lambda d: d["to_hit"]["modifiers"]["director down"],
        -5,
        _dn_fire(
            [1, 1, 1],
            lambda data: dh.applied(data, "to hit")["director down"],
            firer=dh.ship(dh.card("Dreadnought", (12, 1)), director_destroyed=True),
        ),
    ),
    Case(
        "range changes the score needed",
        ((dn, "RANGE_TARGET_NUMBER", "long", 5),),
        lambda d: d["to_hit"]["range_changes_score_needed"]["long"],
        5,
        _dn_fire([1, 1, 1], lambda data: (data["result"]["score_needed"],), distance=30),
    ),
    Case(
        "gunner die sides",
        ((dn, "GUNNER_DIE_SIDES", "d8", 12),),
        lambda d: dn.GUNNER_DIE_SIDES[d["gunner_die"]["otherwise"]],
        12,
        _dn_fire([1, 1, 1], lambda data: data["result"]["gunner_die"]),
    ),
    Case(
        "two turrets",
        ((dn, "TWO_TURRETS_NO_EFFECT", None, (1, 2)), (dn, "TWO_TURRETS_EXPLODES", None, (3, 6))),
        lambda d: d["critical_hits"]["two_turrets"]["explodes"],
        [3, 6],
        _dn_critical(dh.ship("Pommern"), "double 8", [3]),
    ),
    Case(
        "rudder jam",
        ((dn, "RUDDER_JAM", None, ((1, 1, "left"), (2, 4, "right"), (5, 6, "straight ahead"))),),
        lambda d: d["critical_hits"]["rudder_jam_d6"][1]["from"],
        2,
        _dn_critical(dh.ship("Lion"), "double 5", [2]),
    ),
    Case(
        "blow up in d6",
        ((dn, "BLOW_UP_IN_D6", ("British", "Battlecruiser"), 3),),
        lambda d: next(
            row["chances"]
            for row in d["critical_hits"]["blow_up_in_d6"]
            if (row["nationality"], row["class"]) == ("British", "Battlecruiser")
        ),
        3,
        _dn_critical(dh.ship("Lion"), "double 8", [4]),
    ),
    Case(
        "critical hits rows",
        ((dn, "CRITICAL_HITS", "double 6", {"name": "Bridge hit", "effect": "no effect"}),),
        lambda d: d["critical_hits"]["rows"]["double 6"]["name"],
        "Bridge hit",
        _dn_critical(dh.ship("Lion"), "double 6", None),
    ),
    Case(
        "rudder repair from",
        ((dn, "RUDDER_REPAIR_FROM", None, 6),),
        lambda d: d["critical_hits"]["rudder_repair_from"],
        6,
        lambda client: dh.resolve(
            client, "rudder", {"ship": dh.ship("Lion", rudder_jammed="right")}, [5]
        )["result"]["repaired"],
    ),
    Case(
        "torpedo range",
        ((dn, "TORPEDO_RANGE", None, (0, 5)),),
        lambda d: d["torpedo"]["range"],
        [0, 5],
        lambda client: dh.post(  # out of range rolls no dice: the service's own are unused
            client, "torpedo", {"firer": dh.gun(), "target": dh.target(), "distance": 8}
        )["result"]["in_range"],
    ),
    Case(
        "torpedoes bonus",
        ((dn, "TORPEDO_BONUS", None, "half"),),
        lambda d: d["torpedo"]["torpedoes_to_hit"],
        "half",
        lambda client: dh.applied(
            dh.resolve(
                client,
                "torpedo",
                {"firer": dh.gun(), "target": dh.target(), "distance": 8, "torpedoes": 3},
                [1, 1, 1],
            ),
            "torpedo",
        ),
    ),
]


def _fa_post(step: str, body: dict[str, Any], values: list[int]) -> Callable[[Any], Any]:
    def run(client: FlaskClient) -> Any:
        response = client.post(f"{fh.BASE}/{step}", json={**body, "dice": {"values": values}})
        data = response.get_json()
        if response.status_code != 200:
            return response.status_code, data["detail"]
        return data["result"], [c["final"] for c in data["modifiers"]], data["rolls"]

    return run


_FA_FIRE = fh.shot(fh.ship("Corvette", "Veteran"), fh.ship("Battleship"), 10, "Poor")

FLEET_CASES = [
    Case(
        "visibility",
        ((fa, "VISIBILITY", "Poor", 2),),
        lambda d: d["visibility"]["rows"][1]["to_hit_modifier"],
        2,
        _fa_post("fire", _FA_FIRE, [5, 1, 1]),
    ),
    Case(
        "crew quality",
        ((fa, "CREW_QUALITY", "Veteran", 5),),
        lambda d: d["crew_quality"]["rows"][2]["to_hit"],
        5,
        _fa_post("fire", _FA_FIRE, [5, 1, 1]),
    ),
    Case(
        "worst to hit",
        ((fa, "WORST_TO_HIT", None, 5),),
        lambda d: d["visibility"]["worst_to_hit"],
        5,
        _fa_post("fire", fh.shot(fh.ship("Corvette", "Green"), fh.ship("Battleship"), 10), [5, 1]),
    ),
    Case(
        "catastrophic face",
        ((fa, "CATASTROPHIC_FACE", None, 5),),
        lambda d: d["guns"]["catastrophic_face"],
        5,
        _fa_post("fire", fh.shot(fh.ship("Corvette", "Elite"), fh.ship("Cruiser"), 10), [5, 1, 1]),
    ),
    Case(
        "hull per unsaved hit",
        ((fa, "HULL_PER_UNSAVED_HIT", None, 2),),
        lambda d: d["guns"]["hull_per_unsaved_hit"],
        2,
        _fa_post("fire", fh.shot(fh.ship("Corvette", "Elite"), fh.ship("Cruiser"), 10), [4, 1, 1]),
    ),
    Case(
        "torpedo range",
        ((fa, "TORPEDO_RANGE", None, 8),),
        lambda d: d["torpedoes"]["range"],
        8,
        _fa_post(
            "torpedo", fh.shot(fh.ship("Destroyer", "Elite"), fh.ship("Cruiser"), 10), [1, 1, 1]
        ),
    ),
    Case(
        "torpedo dice",
        ((fa, "TORPEDO_DICE", None, 2),),
        lambda d: d["torpedoes"]["dice"],
        2,
        _fa_post("torpedo", fh.shot(fh.ship("Destroyer", "Elite"), fh.ship("Cruiser"), 10), [1, 1]),
    ),
    Case(
        "ship class attack",
        ((fa, "SHIP_CLASSES", "Corvette", replace(fa.SHIP_CLASSES["Corvette"], attack=1)),),
        lambda d: d["ship_classes"]["rows"][0]["attack"],
        1,
        _fa_post("fire", fh.shot(fh.ship("Corvette", "Elite"), fh.ship("Cruiser"), 10), [1]),
    ),
    Case(
        "initiative rounds",
        ((fa, "MAX_INITIATIVE_ROUNDS", None, 1),),
        lambda d: d["initiative"]["max_rounds"],
        1,
        _fa_post("initiative", {}, [3, 3, 4, 2]),
    ),
]


def _rating(a: int, b: int, result: str) -> Callable[[FlaskClient], Any]:
    def run(client: FlaskClient) -> Any:
        body = {"a": a, "b": b, "result": result}
        return client.post("/v1/rulesets/salvo-grid/rating", json=body).get_json()["result"]

    return run


GRID_CASES = [
    Case(
        f"rating {key}",
        ((sg, "RATING", key, value),),
        _at("rating", key),
        value,
        _rating(*game),
    )
    for key, value, game in (
        ("k", 16, (1000, 1100, "a-wins")),
        ("scale", 800, (1000, 1100, "a-wins")),
        ("score", {"win": 0.75, "draw": 0.5, "loss": 0.25}, (1000, 1100, "a-wins")),
        ("highest", 10_005, (9990, 9990, "a-wins")),
        ("lowest", -100, (10, 10, "b-wins")),
    )
]

CASES = [
    *(("salvo-solo", case) for case in SOLO_CASES),
    *(("dreadnought", case) for case in DREADNOUGHT_CASES),
    *(("fleet-action", case) for case in FLEET_CASES),
    *(("salvo-grid", case) for case in GRID_CASES),
]


def test_a_ruleset_folder_without_tables_is_left_out_not_refused() -> None:
    assert tables_module("service.rulesets.dreadnought") is dn
    assert tables_module("tests.fixtures") is None  # a package with no tables.py
    assert list(RULESETS) == [api.id for api in registered()]  # each of today's has tables


def test_every_registered_ruleset_with_tables_has_cases_here() -> None:
    with_tables = {api.id for api in registered() if api.ruleset.tables}
    assert {ruleset for ruleset, _ in CASES} == with_tables


@pytest.mark.parametrize(("ruleset", "case"), CASES, ids=[f"{r}: {c.id}" for r, c in CASES])
def test_each_published_value_is_the_one_applied(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, ruleset: str, case: Case
) -> None:
    _, module = RULESETS[ruleset]
    before = case.run(client)
    assert case.published(module.as_data()) != case.expect, "pick a value that differs"
    _apply(case, monkeypatch)
    assert case.published(module.as_data()) == case.expect
    after = case.run(client)
    assert after != before, "the published value changed but the resolution did not"
    if isinstance(after, int) and not isinstance(after, bool):  # a modifier: the value itself
        assert after == case.expect


def test_modifiers_as_applied_equal_the_published_values(client: FlaskClient) -> None:
    """Unpatched: the trail of each salvo-solo modifier case shows the published value."""
    published = ss.as_data()
    for case in SOLO_CASES:
        value = case.run(client)  # salvo-solo's cases call the steps and leave the client be
        if isinstance(value, int) and not isinstance(value, bool):
            (module, name, key, _), *_ = case.patches
            table = getattr(module, name)
            if isinstance(table, tuple):
                continue  # a band table: its rows are checked by the cases above
            assert value == (table if key is None else table[key]), case.id
    assert published["initiative"]["modifiers"] is ss.INITIATIVE_MODIFIERS
    assert published["enemy_action"]["modifiers"] is ss.ENEMY_ACTION_MODIFIERS
    assert published["end_of_turn"]["modifiers"] is ss.END_OF_TURN_MODIFIERS


# --- the trail's printed bands are read from the same rows -------------------------------------


def _compared_with(step: Any, inp: Any, values: list[int]) -> str:
    text: str = _solo(step, inp, values)[1][0]["compared_with"]
    return text


@pytest.mark.parametrize(
    ("table", "rows", "step", "inp", "text"),
    [
        (
            "INITIATIVE",
            ((None, 2, "player"), (3, None, "enemy")),
            solo.initiative,
            solo.InitiativeInput(_ship("Ajax"), _ship("Nürnburg")),
            "1-2 player, 3+ enemy",
        ),
        (
            "ENEMY_ACTION",
            ((None, 1, "C"), (2, 4, "OB"), (5, 5, "same"), (6, None, "W")),
            solo.enemy_action,
            solo.EnemyActionInput(_ship("Ajax"), _ship("Nürnburg"), None),
            "1 C, 2-4 OB, 5 same as last turn, 6+ W",
        ),
        (
            "END_OF_TURN",
            ((None, 4, "continue"), (5, None, "game over")),
            solo.end_of_turn,
            solo.EndOfTurnInput("Fair", "OB", "OB"),
            "1-4 new turn, 5+ game over",
        ),
    ],
)
def test_salvo_solo_trail_prints_the_published_bands(
    monkeypatch: pytest.MonkeyPatch, table: str, rows: Any, step: Any, inp: Any, text: str
) -> None:
    assert _compared_with(step, inp, [1]) != text
    monkeypatch.setattr(ss, table, rows)
    assert _compared_with(step, inp, [1]) == text


def test_salvo_solo_fire_order_prints_the_published_bands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ss, "FIRE_ORDER_TIE", ((None, 2, "player"), (3, None, "enemy")))
    order, text = _fire_order([1])(None)
    assert order == ("player", "enemy")
    assert text == "gun sizes tied: 1-2 player first, 3+ enemy"


def test_dreadnought_trail_prints_the_published_d6_bands(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        dn, "RUDDER_JAM", ((1, 1, "left"), (2, 4, "right"), (5, 6, "straight ahead"))
    )
    monkeypatch.setattr(dn, "TWO_TURRETS_NO_EFFECT", (1, 2))
    monkeypatch.setattr(dn, "TWO_TURRETS_EXPLODES", (3, 6))
    _, texts = _dn_critical(dh.ship("Lion"), "double 5", [1])(client)
    assert texts == ["1 left, 2-4 right, 5-6 straight ahead"]
    _, texts = _dn_critical(dh.ship("Pommern"), "double 8", [1])(client)
    assert texts == ["2 main turret(s): 1-2 no effect, 3-6 the turret explodes"]
