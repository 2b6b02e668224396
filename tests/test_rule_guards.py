"""Rules that a mutation run showed no test would miss: one test each, named for the rule.

Each test here was checked against the mutant it is named for (the change applied by hand,
the test run and seen to fail, the change reverted); docs/testing.md lists them.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.engine import dice
from service.engine.errors import DiceError, LimitError, RuleError
from service.engine.resolution import Resolution, readings_in_force
from service.rulesets.fleet_action import steps as fleet_steps
from service.rulesets.fleet_action import tables as fleet_tables
from service.rulesets.fleet_action.ships import Ship as FleetShip
from service.rulesets.salvo_solo import steps as solo_steps
from service.rulesets.salvo_solo.ships import CATALOG, Ship, ShipCard, ShipState
from tests.http_helpers import check_of
from tests.salvo_solo_helpers import AJAX, NURNBURG, SPEE, refused, resolve

# --- salvo-solo: torpedoes in a turn hit the other ship ---------------------------------------

# Ajax (player) and Nürnburg (enemy) are both CLs with 6" guns at Short range in Fair
# weather: both may launch torpedoes. The dice, in the order the turn rolls them:
# initiative 1, enemy action 3 (OB), fire order 1 (player first), four missed fire rolls,
# then the two torpedo rolls (a hit takes one more die for its FS), then end of turn 1.
_QUIET_START = [1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1]


def _turn_at_short(values: list[int], client: FlaskClient) -> dict[str, Any]:
    body = {
        "state": {
            "turn": 1,
            "weather": "Fair",
            "range": "Short",
            "player": AJAX,
            "enemy": NURNBURG,
        },
        "player_action": "OB",
    }
    return resolve(client, "turn", body, values)


@pytest.mark.parametrize(
    ("torpedo_dice", "hit_side", "hit_ship", "spared_ship", "fs"),
    [
        ([6, 6, 2, 1, 1], "player", "enemy", "player", 2),  # the player's torpedo hits
        ([1, 1, 6, 6, 3], "enemy", "player", "enemy", 3),  # the enemy's torpedo hits
    ],
)
def test_torpedoes_in_a_turn_hit_the_other_ship_never_the_firer(
    client: FlaskClient,
    torpedo_dice: list[int],
    hit_side: str,
    hit_ship: str,
    spared_ship: str,
    fs: int,
) -> None:
    data = _turn_at_short([*_QUIET_START, *torpedo_dice, 1], client)
    state = data["result"]["state"]
    assert state[hit_ship]["state"]["flotation_hits"] == fs
    assert state[hit_ship]["state"]["speed_hits"] == fs
    assert state[spared_ship]["state"] == {
        "flotation_hits": 0,
        "turret_hits": 0,
        "speed_hits": 0,
        "fire_control": "ready",
    }
    torpedoes = [e for e in data["result"]["events"] if e["phase"] == "torpedo"]
    assert [e["side"] for e in torpedoes] == ["player", "enemy"]
    hits = {e["side"]: e["result"]["hits"] for e in torpedoes}
    assert hits[hit_side] == "F" * fs + "S" * fs


# --- salvo-solo: the enemy-action and end-of-turn rolls are a d6 ---------------------------------


@pytest.mark.parametrize(
    ("step", "body", "label"),
    [
        ("enemy-action", {"enemy": SPEE, "player": AJAX, "last_action": None}, "enemy action"),
        (
            "end-of-turn",
            {"weather": "Fair", "player_action": "OB", "enemy_action": "OB"},
            "end of turn",
        ),
        ("initiative", {"enemy": SPEE, "player": AJAX}, "initiative"),
    ],
)
def test_enemy_action_end_of_turn_and_initiative_roll_a_d6(
    client: FlaskClient, step: str, body: dict[str, Any], label: str
) -> None:
    data = resolve(client, step, body, [6])
    assert [(r["label"], r["notation"]) for r in data["rolls"]] == [(label, "1d6")]
    problem = refused(client, step, {**body, "dice": {"values": [7]}})
    assert f"1d6 for {label}" in problem["detail"]


def test_enemy_action_and_end_of_turn_seeded_dice_are_d6_faces() -> None:
    """A d7 would read the same byte stream differently: pin the seeded faces."""
    enemy, player = Ship(CATALOG["Graf Spee"]), Ship(CATALOG["Ajax"])
    for seed in range(40):
        res = Resolution(dice.SeededDice(f"guard-{seed}", 0))
        solo_steps.enemy_action(solo_steps.EnemyActionInput(enemy, player, None), res)
        solo_steps.end_of_turn(solo_steps.EndOfTurnInput("Fair", "OB", "OB"), res)
        expected = dice.SeededDice(f"guard-{seed}", 0).draw("x", 2, 6).values
        assert tuple(roll.values[0] for roll in res.rolls) == expected


# --- salvo-solo: the enemy-action modifier needs strictly smaller guns ----------------------


@pytest.mark.parametrize(("enemy", "player"), [(NURNBURG, AJAX), (SPEE, SPEE)])
def test_enemy_action_equal_guns_take_no_smaller_guns_modifier(
    client: FlaskClient, enemy: dict[str, Any], player: dict[str, Any]
) -> None:
    body = {"enemy": enemy, "player": player, "last_action": "C"}
    data = resolve(client, "enemy-action", body, [5])
    assert data["result"] == {"action": "C", "reason": "same Act as last turn"}
    assert check_of(data, "enemy action")["applied"] == []
    assert check_of(data, "enemy action")["final"] == 5


# --- salvo-solo: the gun-size rule spares armour 0-2 only -----------------------------------


def _card_with_armor(armor: int) -> ShipCard:
    base = CATALOG["Graf Spee"]
    return ShipCard(**{**base.as_dict(), "name": f"armour {armor}", "armor": armor})


@pytest.mark.parametrize(("armor", "gun_modifier"), [(2, 0), (3, -2), (4, -2)])
def test_straddle_gun_size_applies_from_armor_3(armor: int, gun_modifier: int) -> None:
    inp = solo_steps.StraddleInput(
        Ship(CATALOG["Nürnburg"]), Ship(_card_with_armor(armor)), "Medium-Long", "broadside"
    )
    by_source = {m.source: m.value for m in solo_steps.straddle_modifiers(inp)}
    assert by_source.get('gun size 6"', 0) == gun_modifier
    assert by_source[f"target armor {armor}"] == -armor


def test_straddle_gun_size_at_armor_3_over_http(client: FlaskClient) -> None:
    card = {**_card_with_armor(3).as_dict(), "provenance": "custom"}
    body = {
        "firer": NURNBURG,
        "target": {"card": card},
        "range": "Medium-Long",
        "guns_bearing": "broadside",
    }
    data = resolve(client, "straddle", body, [4, 4, 4])
    applied = check_of(data, "straddle")["applied"]
    assert {"source": 'gun size 6"', "value": -2} in applied
    # 12 - 3 armor + 1 broadside + 0 range - 2 gun size = 8: no effect
    assert check_of(data, "straddle")["final"] == 8


# --- fleet-action: "never worse than 6+" only when the number would pass 6 --------------------


@pytest.mark.parametrize(
    ("crew", "visibility", "needed", "cap"),
    [
        ("Green", "Clear", 6, None),  # exactly 6: nothing to cap
        ("Seasoned", "Poor", 6, None),  # exactly 6 again, through visibility
        ("Green", "Poor", 6, -1),  # 7 capped to 6
        ("Elite", "Terrible", 5, None),
    ],
)
def test_never_worse_than_6_adds_nothing_at_exactly_6(
    crew: str, visibility: str, needed: int, cap: int | None
) -> None:
    to_hit, mods = fleet_steps.to_hit_number(crew, visibility)
    assert to_hit == needed
    capped = [m.value for m in mods if m.source.startswith("never worse")]
    assert capped == ([] if cap is None else [cap])
    assert [m.source for m in mods][0] == f"{visibility} visibility"


def test_never_worse_than_6_trail_at_exactly_6_over_http(client: FlaskClient) -> None:
    body = {
        "firer": {"class": "Corvette", "crew": "Green"},
        "target": {"class": "Battleship"},
        "range": 10,
        "line_of_sight": True,
        "visibility": "Clear",
    }
    data = resolve_fleet(client, body, [6, 5, 6])
    to_hit = check_of(data, "To Hit number")
    assert to_hit["final"] == 6 and to_hit["applied"] == []
    assert data["result"]["hits"] == 1


def resolve_fleet(client: FlaskClient, body: dict[str, Any], values: list[int]) -> dict[str, Any]:
    response = client.post(
        "/v1/rulesets/fleet-action/fire", json={**body, "dice": {"values": values}}
    )
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def test_worst_to_hit_is_six_on_a_d6() -> None:
    assert fleet_tables.WORST_TO_HIT == fleet_tables.DIE == 6


# --- dice: fresh server dice, and what a dice source refuses --------------------------------


def test_fresh_server_dice_report_nonce_0() -> None:
    fresh = dice.SeededDice.fresh()
    described = fresh.describe()
    assert described["nonce"] == 0 and fresh.nonce == 0
    assert described["seed_source"] == "server" and described["mode"] == "seeded"
    # nonce 0 is what the stream is keyed with: the replay with the same seed agrees
    replay = dice.SeededDice(fresh.seed, 0).draw("x", 40, 6).values
    assert fresh.draw("x", 40, 6).values == replay


def test_fresh_server_dice_over_http_report_nonce_0(client: FlaskClient) -> None:
    response = client.post("/v1/dice/roll", json={"notation": "3d6"})
    assert response.status_code == 200
    described = response.get_json()["dice"]
    assert described["nonce"] == 0 and described["seed_source"] == "server"


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


# --- salvo-solo: the slow-target torpedo modifier is for speed below 5, not 5 --------------------


@pytest.mark.parametrize(("speed_hits", "speed", "modifier"), [(2, 5, None), (3, 3, 3)])
def test_torpedo_slow_target_modifier_needs_speed_below_5(
    speed_hits: int, speed: int, modifier: int | None
) -> None:
    target = Ship(CATALOG["King George V"], ShipState(speed_hits=speed_hits))  # speed 9
    assert target.speed == speed
    res = Resolution(dice.SuppliedDice([1, 1]))
    solo_steps.torpedo(solo_steps.TorpedoInput(Ship(CATALOG["Ajax"]), target, "Short", "Fair"), res)
    slow = [m["value"] for m in res.checks[0]["applied"] if m["source"].startswith("target speed")]
    assert slow == ([] if modifier is None else [modifier])


# --- salvo-solo: what a refusal names, and the plunging-fire trail --------------------------------

SUNK_SPEE = {"ship": "Graf Spee", "state": {"flotation_hits": 6}}


@pytest.mark.parametrize(
    ("step", "body", "field"),
    [
        ("critical", {"target": SUNK_SPEE, "range": "Long"}, "target"),
        ("damage", {"ship": SUNK_SPEE, "hits": "F"}, "ship"),
        (
            "straddle",
            {"firer": AJAX, "target": SUNK_SPEE, "range": "Long", "guns_bearing": "bow"},
            "target",
        ),
    ],
)
def test_a_step_aimed_at_a_sunk_ship_names_the_member_at_fault(
    client: FlaskClient, step: str, body: dict[str, Any], field: str
) -> None:
    problem = refused(client, step, body)
    assert [error["field"] for error in problem["errors"]] == [field]
    assert "sunk" in problem["detail"]


def test_plunging_fire_trail(client: FlaskClient) -> None:
    data = resolve(client, "critical", {"target": SPEE, "range": "Long"}, [6, 6, 5, 4])
    assert data["result"] == {"name": "Plunging fire", "hits": "FFFFFFFSSSSSSS"}
    assert [(r["label"], r["notation"]) for r in data["rolls"]] == [
        ("critical hit", "2d6"),
        ("critical hit: plunging fire", "2d6"),
    ]
    assert check_of(data, "critical hit: plunging fire") == {
        "roll": "critical hit: plunging fire",
        "natural": 9,
        "applied": [{"source": "target armor 2", "value": -2}],
        "final": 7,
        "compared_with": "number of FS hits (never below 0)",
        "outcome": "7 FS",
    }


def test_a_torpedo_refused_names_the_firer(client: FlaskClient) -> None:
    body = {"firer": SPEE, "target": AJAX, "range": "Short", "weather": "Fair"}
    problem = refused(client, "torpedo", body)
    assert [error["field"] for error in problem["errors"]] == ["firer"]
    assert "only a CL launches torpedoes" in problem["detail"]


@pytest.mark.parametrize(
    ("firer", "target", "field"),
    [
        (AJAX, SUNK_SPEE, "target"),
        ({"ship": "Ajax", "state": {"turret_hits": 10}}, SPEE, "firer"),  # silenced
    ],
)
def test_an_attack_refused_names_the_member_at_fault(
    client: FlaskClient, firer: dict[str, Any], target: dict[str, Any], field: str
) -> None:
    body = {
        "firer": firer,
        "target": target,
        "range": "Long",
        "weather": "Fair",
        "guns_bearing": "bow",
    }
    problem = refused(client, "attack", body)
    assert [error["field"] for error in problem["errors"]] == [field]


# --- fleet-action: what a refusal says --------------------------------------------------------


def test_fleet_torpedoes_refused_name_the_classes_that_carry_them(client: FlaskClient) -> None:
    body = {
        "firer": {"class": "Battleship", "crew": "Green"},
        "target": {"class": "Cruiser"},
        "range": 10,
        "line_of_sight": True,
    }
    response = client.post("/v1/rulesets/fleet-action/torpedo", json=body)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["detail"] == "a Battleship carries no torpedoes (only: Destroyer, Cruiser)"
    assert [error["field"] for error in problem["errors"]] == ["firer.class"]


def test_fleet_initiative_tied_every_round_says_what_to_do(client: FlaskClient) -> None:
    rounds = fleet_tables.MAX_INITIATIVE_ROUNDS
    body = {"dice": {"values": [3] * (2 * rounds)}}
    response = client.post("/v1/rulesets/fleet-action/initiative", json=body)
    assert response.status_code == 422
    assert response.get_json()["detail"] == (
        f"initiative tied {rounds} rounds in a row, the most one request rolls: roll "
        "initiative again (with seeded dice, count the nonce up)"
    )


# --- salvo-solo: a whole turn, where the mutation run found it unguarded --------------------------


def _turn(client: FlaskClient, state: dict[str, Any], action: str, values: list[int]) -> Any:
    return resolve(client, "turn", {"state": {"turn": 3, **state}, "player_action": action}, values)


def test_turn_fire_remembers_a_straddle_and_end_of_turn_reads_the_weather(
    client: FlaskClient,
) -> None:
    state = {
        "weather": "Stormy",
        "range": "Long",
        "player": {"ship": "Hood"},
        "enemy": SPEE,
        "player_has_straddled": True,
    }
    # initiative 1; enemy action 2 + 1 (smaller guns) = OB; Hood fires first (15" > 11"):
    # 1+1 -3 Stormy +2 straddled = 1, a miss; Graf Spee 1+1 -3 misses; end of turn 1 +2.
    data = _turn(client, state, "OB", [1, 2, 1, 1, 1, 1, 1])
    assert {"source": "firer has straddled the target before", "value": 2} in check_of(
        data, "player shot 1 fire"
    )["applied"]
    assert check_of(data, "enemy shot 1 fire")["applied"] == [
        {"source": "weather Stormy", "value": -3}
    ]
    assert check_of(data, "end of turn")["applied"] == [{"source": "weather Stormy", "value": 2}]
    assert data["result"]["state"]["player_has_straddled"] is True


def test_turn_a_ship_that_cannot_fire_is_passed_over_and_the_other_still_fires(
    client: FlaskClient,
) -> None:
    state = {
        "weather": "Fair",
        "range": "Long",
        "player": AJAX,
        "enemy": {"ship": "Graf Spee", "state": {"turret_hits": 10}},
    }
    data = _turn(client, state, "OB", [1, 3, 1, 1, 1])
    fire = [e for e in data["result"]["events"] if e["phase"] == "fire"]
    assert [e["side"] for e in fire] == ["enemy", "player"]
    assert fire[0]["result"]["fired"] is False and fire[0]["result"]["reason"]
    assert set(fire[0]["result"]) == {"fired", "reason"}
    assert len(fire[1]["result"]["shots"]) == 1


def test_turn_out_of_range_keeps_the_range_and_the_enemy_action(client: FlaskClient) -> None:
    state = {"weather": "Fair", "range": "Extreme", "player": AJAX, "enemy": SPEE}
    data = _turn(client, state, "W", [1, 3])  # enemy OB; the player's W takes it past Extreme
    result = data["result"]
    assert (result["game_over"], result["draw"], result["reason"]) == (True, True, "out of range")
    assert result["state"]["range"] == "Extreme"
    assert result["state"]["enemy_last_action"] == "OB"


@pytest.mark.parametrize(
    ("step", "body", "field"),
    [
        (
            "turn",
            {
                "state": {
                    "turn": 1,
                    "weather": "Fair",
                    "range": "Long",
                    "player": {"ship": "Ajax", "state": {"flotation_hits": 10}},
                    "enemy": SPEE,
                },
                "player_action": "OB",
            },
            "state.player",
        ),
        (
            "turn",
            {
                "state": {
                    "turn": 1,
                    "weather": "Fair",
                    "range": "Long",
                    "player": {"ship": "Ajax", "state": {"speed_hits": 5}},
                    "enemy": SPEE,
                },
                "player_action": "C",
            },
            "player_action",
        ),
        (
            "maneuver",
            {
                "range": "Long",
                "player_action": "OB",
                "enemy_action": "C",
                "enemy": {"ship": "Graf Spee", "state": {"speed_hits": 4}},
            },
            "enemy_action",
        ),
    ],
)
def test_turn_and_maneuver_refusals_name_the_member_at_fault(
    client: FlaskClient, step: str, body: dict[str, Any], field: str
) -> None:
    problem = refused(client, step, body)
    assert [error["field"] for error in problem["errors"]] == [field]


# --- what a refusal names and says (survivors of the first mutation run) ---------------------


def test_straddle_by_a_silenced_ship_names_the_firer_and_says_why(client: FlaskClient) -> None:
    body = {
        "firer": {"ship": "Ajax", "state": {"turret_hits": 10}},
        "target": SPEE,
        "range": "Long",
        "guns_bearing": "bow",
    }
    problem = refused(client, "straddle", body)
    assert [error["field"] for error in problem["errors"]] == ["firer"]
    assert problem["detail"] == (
        "Ajax has 10 T hits, as many as its Turret rating of 5: it can't fire anymore"
    )


@pytest.mark.parametrize(
    ("step", "body", "ship"),
    [
        (
            "maneuver",
            {
                "range": "Long",
                "player_action": "OB",
                "enemy_action": "C",
                "enemy": {"ship": "Graf Spee", "state": {"speed_hits": 4}},
            },
            "Graf Spee",
        ),
        (
            "turn",
            {
                "state": {
                    "turn": 1,
                    "weather": "Fair",
                    "range": "Long",
                    "player": {"ship": "Ajax", "state": {"speed_hits": 5}},
                    "enemy": SPEE,
                },
                "player_action": "C",
            },
            "Ajax",
        ),
    ],
)
def test_a_ship_at_speed_0_refused_an_action_is_told_which_action(
    client: FlaskClient, step: str, body: dict[str, Any], ship: str
) -> None:
    problem = refused(client, step, body)
    assert problem["detail"] == (f"{ship} has speed 0 and can only Offer Broadside (OB), not C")


_FLEET_FIRERS_WITHOUT_CREW = [
    (fleet_steps.fire, fleet_steps.FireInput),
    (fleet_steps.torpedo, fleet_steps.TorpedoInput),
]


@pytest.mark.parametrize(("step", "make_input"), _FLEET_FIRERS_WITHOUT_CREW)
def test_fleet_a_firer_without_crew_is_refused_naming_firer_crew(
    step: Any, make_input: Any
) -> None:
    # The HTTP schema already requires the firer's crew; the step refuses it too, for any
    # caller that builds the input itself, and names the same member.
    inp = make_input(
        firer=FleetShip.of("Cruiser", name="Cruiser 1"),
        target=FleetShip.of("Cruiser"),
        range=5,
        line_of_sight=True,
    )
    with pytest.raises(RuleError) as refusal:
        step(inp, Resolution(dice.SuppliedDice([6] * 12)))
    assert refusal.value.field == "firer.crew"
    assert refusal.value.detail == (
        "Cruiser 1 fires, so it needs a crew quality (Green, Seasoned, Veteran, Elite)"
    )


@pytest.mark.parametrize("step", ["fire", "torpedo"])
def test_fleet_no_line_of_sight_refusal_says_who_cannot_see_whom(
    client: FlaskClient, step: str
) -> None:
    body = {
        "firer": {"class": "Cruiser", "crew": "Green", "name": "Cruiser 1"},
        "target": {"class": "Destroyer"},
        "range": 5,
        "line_of_sight": False,
    }
    response = client.post(f"/v1/rulesets/fleet-action/{step}", json=body)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["detail"] == (
        "Cruiser 1 has no line of sight to the Destroyer: pick a target it can see"
    )
    assert [error["field"] for error in problem["errors"]] == ["line_of_sight"]


# --- fleet-action: the To Hit number of a torpedo under each visibility-torpedoes reading ------


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (
            {"visibility-torpedoes": "guns-only"},
            {
                "roll": "To Hit number",
                "natural": 4,
                "applied": [],
                "final": 4,
                "compared_with": "Veteran crew 4+; visibility does not touch torpedoes "
                "(ruling visibility-torpedoes, reading guns-only)",
                "outcome": "4+",
            },
        ),
        (
            {},
            {
                "roll": "To Hit number",
                "natural": 4,
                "applied": [{"source": "Poor visibility", "value": 1}],
                "final": 5,
                "compared_with": "Veteran crew 4+, raised by visibility, never worse than 6+",
                "outcome": "5+",
            },
        ),
    ],
)
def test_fleet_torpedo_to_hit_trail_under_each_visibility_reading(
    client: FlaskClient, rules: dict[str, str], expected: dict[str, Any]
) -> None:
    # A Veteran Destroyer (4+) in Poor visibility: guns-only leaves its torpedoes at 4+ and
    # the trail says why; the default raises them to 5+ like its guns.
    body = {
        "firer": {"class": "Destroyer", "crew": "Veteran"},
        "target": {"class": "Cruiser"},
        "range": 10,
        "line_of_sight": True,
        "visibility": "Poor",
        "rules": rules,
        "dice": {"values": [4, 4, 1]},
    }
    response = client.post("/v1/rulesets/fleet-action/torpedo", json=body)
    assert response.status_code == 200, response.get_json()
    assert check_of(response.get_json(), "To Hit number") == expected


# --- salvo-solo: one Action after the other needs to know who has the initiative -------------


def test_maneuver_in_initiative_order_without_first_is_refused_saying_what_to_add(
    client: FlaskClient,
) -> None:
    body = {
        "range": "Short",
        "player_action": "C",
        "enemy_action": "W",
        "rules": {"simultaneous-actions": "in-initiative-order"},
    }
    problem = refused(client, "maneuver", body)
    assert problem["detail"] == (
        "under the reading in-initiative-order of ruling simultaneous-actions the Actions "
        "apply one after the other: say who has the initiative in first (player or enemy)"
    )
    assert [error["field"] for error in problem["errors"]] == ["first"]


# --- salvo-solo: a step reads the readings its Resolution carries ----------------------------

# Ajax silenced (5 T hits against Turret 5), launching at Graf Spee at Short in Fair weather.
SILENCED_AJAX = Ship(CATALOG["Ajax"], ShipState(turret_hits=5))
SILENCED_AJAX_AT_SPEE = solo_steps.TorpedoInput(
    firer=SILENCED_AJAX, target=Ship(CATALOG["Graf Spee"]), range="Short", weather="Fair"
)
SILENCED_AJAX_CANNOT_LAUNCH = (
    "Ajax has 5 T hits, as many as its Turret rating of 5: it can't fire anymore, "
    "nor launch torpedoes (reading silenced-cannot-launch)"
)


@pytest.mark.parametrize(
    ("reading", "launches"), [("guns-only", True), ("silenced-cannot-launch", False)]
)
def test_torpedo_step_reads_torpedoes_are_not_guns_from_its_resolution(
    reading: str, launches: bool
) -> None:
    # The reading is carried by the Resolution only, none is in force around the call.
    inp = SILENCED_AJAX_AT_SPEE
    res = Resolution(dice.SuppliedDice([6, 6, 3]), {"torpedoes-are-not-guns": reading})
    if launches:
        assert solo_steps.torpedo(inp, res)["hits"] == "FFFSSS"
        return
    with pytest.raises(RuleError) as refusal:
        solo_steps.torpedo(inp, res)
    assert refusal.value.field == "firer"
    assert refusal.value.detail == SILENCED_AJAX_CANNOT_LAUNCH


# --- salvo-solo: a pending turn answers every field of a turn, nothing decided yet -----------


def test_pending_turn_answers_no_reason_yet(client: FlaskClient) -> None:
    # Ajax against Graf Spee at Long: initiative 3 (+1, Graf Spee slower) gives Graf Spee
    # the initiative, action die 1 (Close); the turn waits for the player's Action.
    state = {"turn": 1, "weather": "Fair", "range": "Long", "player": AJAX, "enemy": SPEE}
    result = resolve(client, "turn", {"state": state}, [3, 1])["result"]
    assert set(result) == {"game_over", "winner", "draw", "reason", "state", "events", "pending"}
    assert (result["game_over"], result["winner"], result["draw"], result["reason"]) == (
        False,
        None,
        False,
        None,
    )


# --- salvo-solo: under player-commits a turn without the player's Action is refused ----------


def test_turn_under_player_commits_without_player_action_says_to_send_it(
    client: FlaskClient,
) -> None:
    state = {"turn": 1, "weather": "Fair", "range": "Long", "player": AJAX, "enemy": SPEE}
    body = {"state": state, "rules": {"initiative-in-turn": "player-commits"}}
    problem = refused(client, "turn", body)
    assert problem["detail"] == (
        "under the reading player-commits of ruling initiative-in-turn the player's Action "
        "is committed before initiative is rolled: send player_action"
    )
    assert [error["field"] for error in problem["errors"]] == ["player_action"]


@pytest.mark.parametrize(
    ("reading", "launching"),
    [("guns-only", ["player", "enemy"]), ("silenced-cannot-launch", ["enemy"])],
)
def test_turn_reads_torpedoes_are_not_guns_from_its_resolution(
    reading: str, launching: list[str]
) -> None:
    # A turn at Short in Fair weather, Ajax silenced: under silenced-cannot-launch only
    # Nürnburg launches. The reading is carried by the Resolution only, none is in force.
    state = solo_steps.GameState(
        turn=1,
        weather="Fair",
        range="Short",
        player=SILENCED_AJAX,
        enemy=Ship(CATALOG["Nürnburg"]),
    )
    res = Resolution(dice.SuppliedDice([1, 3] + [1] * 30), {"torpedoes-are-not-guns": reading})
    result = solo_steps.turn(solo_steps.TurnInput(state, player_action="OB"), res)
    torpedoes = [e["side"] for e in result["events"] if e["phase"] == "torpedo"]
    assert torpedoes == launching


@pytest.mark.parametrize(
    ("chosen", "problem"),
    [
        ({}, None),
        (
            {"torpedoes-are-not-guns": "silenced-cannot-launch"},
            SILENCED_AJAX_CANNOT_LAUNCH,
        ),
    ],
)
def test_torpedo_problem_without_a_reading_takes_the_one_in_force(
    chosen: dict[str, str], problem: str | None
) -> None:
    # How the advisor asks (no Resolution at hand): the reading in force decides.
    inp = SILENCED_AJAX_AT_SPEE
    with readings_in_force(chosen):
        assert solo_steps.torpedo_problem(inp) == problem
