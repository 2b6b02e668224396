"""A whole dreadnought turn through HTTP: the turn-level to-hit modifiers one by one with
supplied dice, three turns of a four-ship action each taking the state the last handed
back, the orders each ship moves on, the lasting criticals and the refusals.

The figures are the rule text's: Queen Elizabeth is a good British Super Dreadnought (15",
8 barrels, D10 gunner die, to hit 16, damage reduction 4); Derfflinger a German
Battlecruiser (12", 8 barrels, D10, to hit 17, damage reduction 2, 40 boxes). Eight barrels
are +4 to hit (7 beyond the first, halved, rounded up) and, for a High weapon, +7 damage.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.dreadnought_helpers import (
    applied,
    card,
    check,
    declare,
    events,
    in_action,
    post,
    refused,
    turn_body,
)
from tests.http_helpers import call
from tests.receipts_helpers import receipt_hash

TURN = "/v1/rulesets/dreadnought/turn"
GF, HSF = "Grand Fleet", "High Seas Fleet"
MISS = [1, 2, 3]  # 6 on three dice, no pair: a miss at every score in these tests
LION_AT_D = 'Lion 13.5" at Derfflinger'
D_AT_LION = 'Derfflinger 12" at Lion'
BARRELS_8 = "8 barrels: +1/2 per barrel beyond the first, rounded up"


def play(client: FlaskClient, body: dict[str, Any], values: list[int]) -> dict[str, Any]:
    return call(client, TURN, body, values)


def duel(
    lion: dict[str, Any] | None = None,
    derfflinger: dict[str, Any] | None = None,
    lion_fires: dict[str, Any] | None = None,
    derfflinger_fires: bool = True,
    **extra: Any,
) -> dict[str, Any]:
    """Lion and Derfflinger at 20", each having fired at the other last turn (turn 1)."""
    ships = [
        in_action("Lion", GF, fired_at={"Derfflinger": 1}, **(lion or {})),
        in_action("Derfflinger", HSF, fired_at={"Lion": 1}, **(derfflinger or {})),
    ]
    declarations = [declare("Lion", (13.5, "Derfflinger", 20), **(lion_fires or {}))]
    if derfflinger_fires:
        declarations.append(declare("Derfflinger", (12, "Lion", 20)))
    return turn_body(ships, declarations, **extra)


# --- the turn-level modifiers, one by one ---------------------------------------------------


def test_a_duel_of_ships_that_ranged_last_turn_has_only_the_barrels_bonus(
    client: FlaskClient,
) -> None:
    data = play(client, duel(), MISS + MISS)
    assert applied(data, LION_AT_D) == {BARRELS_8: 4}
    assert check(data, LION_AT_D)["final"] == 6 + 4
    assert applied(data, D_AT_LION) == {BARRELS_8: 4}


def test_more_than_one_ship_firing_at_the_same_target(client: FlaskClient) -> None:
    body = duel()
    body["state"]["ships"].append(in_action("Queen Elizabeth", GF, fired_at={"Derfflinger": 1}))
    body["declarations"].append(declare("Queen Elizabeth", (15, "Derfflinger", 20)))
    data = play(client, body, MISS * 3)
    source = (
        "more than one ship firing at the same target: Lion, Queen Elizabeth fire at Derfflinger"
    )
    assert applied(data, LION_AT_D) == {source: -1, BARRELS_8: 4}
    free = "not under fire this turn: no gun fires at Queen Elizabeth this turn"
    assert applied(data, 'Queen Elizabeth 15" at Derfflinger') == {
        source: -1,
        free: 1,
        BARRELS_8: 4,
    }
    assert check(data, LION_AT_D)["final"] == 6 - 1 + 4
    assert applied(data, D_AT_LION) == {BARRELS_8: 4}  # Lion has one ship at it


def test_two_batteries_of_one_ship_are_one_ship_firing(client: FlaskClient) -> None:
    two = card("Battleship", (12, 4, 2), (9.2, 4, 2), name="Agincourt")
    body = turn_body(
        [
            in_action(two, GF, fired_at={"Derfflinger": 1}),
            in_action("Derfflinger", HSF, fired_at={"Agincourt": 1}),
        ],
        [
            declare("Agincourt", (12, "Derfflinger", 20), (9.2, "Derfflinger", 20)),
            declare("Derfflinger", (12, "Agincourt", 20)),
        ],
    )
    data = play(client, body, MISS * 3)
    four = "4 barrels: +1/2 per barrel beyond the first, rounded up"
    assert applied(data, 'Agincourt 12" at Derfflinger') == {four: 2}
    assert applied(data, 'Agincourt 9.2" at Derfflinger') == {four: 2}


def test_not_under_fire_this_turn(client: FlaskClient) -> None:
    data = play(client, duel(derfflinger_fires=False), MISS)
    source = "not under fire this turn: no gun fires at Lion this turn"
    assert applied(data, LION_AT_D) == {source: 1, BARRELS_8: 4}
    assert check(data, LION_AT_D)["final"] == 6 + 1 + 4


def test_first_time_firing_at_this_target(client: FlaskClient) -> None:
    body = duel()
    body["state"]["ships"][0]["fired_at"] = []
    data = play(client, body, MISS + MISS)
    source = "first time firing at this target: Lion has not fired at Derfflinger before"
    assert applied(data, LION_AT_D) == {source: -1, BARRELS_8: 4}
    assert applied(data, D_AT_LION) == {BARRELS_8: 4}


@pytest.mark.parametrize(
    ("reading", "first_time"),
    [("first-turn-at-target", False), ("since-last-turn", True)],
)
def test_first_time_firing_both_ways_after_a_turn_away(
    client: FlaskClient, reading: str, first_time: bool
) -> None:
    # Turn 3: Lion last fired at Derfflinger on turn 1, not on turn 2.
    body = duel(turn=3, rules={"first-time-firing": reading})
    data = play(client, body, MISS + MISS)
    source = "first time firing at this target: Lion did not fire at Derfflinger last turn"
    assert applied(data, LION_AT_D) == ({source: -1} if first_time else {}) | {BARRELS_8: 4}


def test_a_ship_that_fired_last_turn_is_not_firing_the_first_time_either_way(
    client: FlaskClient,
) -> None:
    body = duel(rules={"first-time-firing": "since-last-turn"})  # turn 2, fired on turn 1
    assert applied(play(client, body, MISS + MISS), LION_AT_D) == {BARRELS_8: 4}


def test_firing_ship_and_target_turned(client: FlaskClient) -> None:
    body = duel(lion_fires={"formation": "line astern", "turned": True})
    data = play(client, body, MISS + MISS)
    assert applied(data, LION_AT_D) == {
        "firing ship turned this turn: Lion turned": -1,
        BARRELS_8: 4,
    }
    assert applied(data, D_AT_LION) == {
        "target ship turned this turn: Lion turned": -1,
        BARRELS_8: 4,
    }
    orders = events(data, "orders")
    assert [(e["ship"], e["turned"], e["moves_on"]) for e in orders] == [
        ("Lion", True, "this turn's orders"),
        ("Derfflinger", False, "straight on"),
    ]


def test_director_down(client: FlaskClient) -> None:
    data = play(client, duel(lion={"director_destroyed": True}), MISS + MISS)
    source = "director down: Lion's director is destroyed"
    assert applied(data, LION_AT_D) == {source: -2, BARRELS_8: 4}
    assert check(data, LION_AT_D)["final"] == 6 - 2 + 4


def test_every_modifier_at_once_adds_up(client: FlaskClient) -> None:
    body = duel(lion={"director_destroyed": True}, lion_fires={"enemy_within_6": True})
    body["state"]["ships"][0]["fired_at"] = []
    body["declarations"][0]["turned"] = True
    body["declarations"].pop()  # Derfflinger holds its fire: Lion is not under fire
    body["state"]["ships"].append(in_action("Iron Duke", GF, fired_at={"Derfflinger": 1}))
    body["declarations"].append(declare("Iron Duke", (13.5, "Derfflinger", 20)))
    body["declarations"].append({"ship": "Derfflinger", "enemy_within_6": True, "turned": True})
    data = play(client, body, [8, 8, 1] + MISS)  # 17 on the dice
    mods = applied(data, LION_AT_D)
    assert sorted(mods.values()) == [-2, -1, -1, -1, -1, 1, 4]
    # 17 - 2 - 1 - 1 - 1 - 1 + 1 + 4 = 16: a miss against Derfflinger's 17, so no critical.
    assert check(data, LION_AT_D)["final"] == 16
    assert check(data, LION_AT_D)["outcome"] == "miss"


# --- three turns of a four-ship action --------------------------------------------------------


def _four_ships() -> list[dict[str, Any]]:
    return [
        in_action("Queen Elizabeth", GF),
        in_action("Iron Duke", GF),
        in_action("Derfflinger", HSF),
        in_action("Seydlitz", HSF),
    ]


def _declarations(derfflinger: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        declare("Queen Elizabeth", (15, "Derfflinger", 20), formation="line astern"),
        declare("Iron Duke", (13.5, "Derfflinger", 20), formation="line astern"),
        declare("Derfflinger", (12, "Queen Elizabeth", 20), **derfflinger),
        declare("Seydlitz", (11, "Iron Duke", 24), formation="line astern"),
    ]


def test_three_turns_of_a_four_ship_action(client: FlaskClient) -> None:
    # Turn 1: Queen Elizabeth throws 6, 6, 3 at Derfflinger: 15, -1 first time, -1 with
    # Iron Duke also firing at it, +4 barrels = 17, a hit on its 17. High damage: the two
    # sixes, 12, +7 barrels, -2 damage reduction = 17. Double 6: Bridge Destroyed.
    first = turn_body(_four_ships(), _declarations({"orders": "ahead 9, turn to port"}), turn=1)
    one = play(client, first, [6, 6, 3] + MISS * 3)
    qe = check(one, 'Queen Elizabeth 15" at Derfflinger')
    assert (qe["final"], qe["outcome"]) == (17, "hit")
    assert events(one, "damage") == [
        {
            "phase": "damage",
            "ship": "Derfflinger",
            "points": 17,
            "effects": ["bridge destroyed"],
            "sunk": False,
        }
    ]
    assert events(one, "bridge") == [
        {"phase": "bridge", "ship": "Derfflinger", "no_orders_turns": 2}
    ]
    # Seydlitz is under no fire: +1.
    assert "not under fire this turn: no gun fires at Seydlitz this turn" in applied(
        one, 'Seydlitz 11" at Iron Duke'
    )
    state = one["result"]["state"]
    assert state["turn"] == 2
    derfflinger = state["ships"][2]
    assert derfflinger["ship"]["state"]["damage_taken"] == 17
    assert derfflinger["plot"] == "ahead 9, turn to port"  # out of formation: next turn's

    # Turn 2: the bridge is gone, so Derfflinger gives no orders; it moves on last turn's plot.
    no_orders = {"state": state, "declarations": _declarations({"orders": "hard a-port"})}
    problem = call(client, TURN, no_orders, MISS * 4, status=422)
    assert problem["errors"][0]["field"] == "declarations.2.orders"
    assert "gives no orders for 2 more turn(s)" in problem["detail"]
    two = play(client, {"state": state, "declarations": _declarations({})}, MISS * 4)
    moves = {e["ship"]: e["moves_on"] for e in events(two, "orders")}
    assert moves["Derfflinger"] == "last turn's plot"
    # Queen Elizabeth and Iron Duke fired at Derfflinger on turn 1: no first time now.
    assert not any("first time" in s for s in applied(two, 'Iron Duke 13.5" at Derfflinger'))
    assert events(two, "bridge") == [
        {"phase": "bridge", "ship": "Derfflinger", "no_orders_turns": 1}
    ]
    state = two["result"]["state"]

    # Turn 3: still no orders, and no plot left: straight on, so it cannot have turned.
    straight = {"state": state, "declarations": _declarations({"turned": True})}
    problem = call(client, TURN, straight, MISS * 4, status=422)
    assert problem["errors"][0]["field"] == "declarations.2.turned"
    three = play(client, {"state": state, "declarations": _declarations({})}, MISS * 4)
    assert {e["ship"]: e["moves_on"] for e in events(three, "orders")}["Derfflinger"] == (
        "straight on"
    )
    after = three["result"]
    assert after["turn"] == 3
    assert after["state"]["turn"] == 4
    assert after["state"]["ships"][2]["ship"]["state"]["no_orders_turns"] == 0
    assert [s["boxes_left"] for s in after["ships"]] == [80, 80, 40 - 17, 40]
    assert (after["action_over"], after["winner"], after["sunk"]) == (False, None, [])
    # A state handed back is the next request's state as it is: it loads again.
    post(client, "turn", {"state": after["state"], "dice": {"seed": "jutland", "nonce": 4}})


def test_the_same_state_and_seed_give_the_same_turn(client: FlaskClient) -> None:
    body = turn_body(_four_ships(), _declarations({}), turn=1)
    seeded = {**body, "dice": {"seed": "jutland", "nonce": 1}}
    first = post(client, "turn", seeded)
    again = post(client, "turn", seeded)
    assert first["result"] == again["result"] and first["rolls"] == again["rolls"]
    # Each battery rolls 2D8 and its gunner die, in the order of state.ships.
    labels = [roll["label"] for roll in first["rolls"]][:4]
    assert labels == [
        'Queen Elizabeth 15" at Derfflinger',
        'Queen Elizabeth 15" at Derfflinger: gunner die',
        'Iron Duke 13.5" at Derfflinger',
        'Iron Duke 13.5" at Derfflinger: gunner die',
    ]


def test_a_ship_broken_up_is_reported_sunk_and_the_action_ends(client: FlaskClient) -> None:
    # Derfflinger with 1 box left; Queen Elizabeth hits (as in the action above): it breaks up.
    body = turn_body(
        [in_action("Queen Elizabeth", GF), in_action("Derfflinger", HSF, damage_taken=39)],
        [declare("Queen Elizabeth", (15, "Derfflinger", 20))],
        turn=1,
    )
    # 8 + 8 + 7 = 23: -1 first time, +1 not under fire, +4 = 27, a hit for 16 + 7 less 1
    # (2 worn down to 1 box in 40, rounded up). Double 8: Turret Explodes; a German
    # battlecruiser blows up on a 6 of its D6, and the 1 keeps it whole, but the boxes are gone.
    data = play(client, body, [8, 8, 7, 1])
    result = data["result"]
    assert result["sunk"] == ["Derfflinger"]
    assert (result["action_over"], result["winner"]) == (True, GF)
    assert result["ships"][1]["boxes_left"] == 0
    # Marks stop at the boxes (ruling boxes-marked): 40, not 39 + the damage.
    assert result["state"]["ships"][1]["ship"]["state"]["damage_taken"] == 40
    assert events(data, "damage")[0]["points"] == 1
    gone = {"state": result["state"], "declarations": [declare("Derfflinger")]}
    problem = refused(client, "turn", {**gone, "dice": {"seed": "jutland"}})
    assert problem["errors"][0]["field"] == "declarations.0.ship"


# --- rudders and orders ---------------------------------------------------------------------


def test_a_rudder_jammed_over_turns_every_turn(client: FlaskClient) -> None:
    body = duel(lion={"rudder_jammed": "left"}, lion_fires={"turned": False})
    problem = call(client, TURN, body, MISS + MISS + [6], status=422)
    assert problem["errors"][0]["field"] == "declarations.0.turned"
    assert "rudder is jammed left: it turns every turn" in problem["detail"]
    body["declarations"][0].pop("turned")
    data = play(client, body, MISS + MISS + [6])
    assert "firing ship turned this turn: Lion turned" in applied(data, LION_AT_D)
    # The rudder jammed before this turn: its D6 at the end, 6 frees it.
    assert events(data, "rudder") == [{"phase": "rudder", "ship": "Lion", "repaired": True}]
    assert data["result"]["state"]["ships"][0]["ship"]["state"]["rudder_jammed"] is None


def test_a_rudder_jammed_over_as_measured(client: FlaskClient) -> None:
    body = duel(
        lion={"rudder_jammed": "right"},
        lion_fires={"turned": False},
        rules={"jammed-rudder": "as-measured"},
    )
    data = play(client, body, MISS + MISS + [4])
    assert applied(data, LION_AT_D) == {BARRELS_8: 4}
    assert events(data, "rudder") == [{"phase": "rudder", "ship": "Lion", "repaired": False}]


def test_a_rudder_jammed_straight_ahead_cannot_turn_either_way(client: FlaskClient) -> None:
    for reading in ("turns-every-turn", "as-measured"):
        body = duel(
            lion={"rudder_jammed": "straight ahead"},
            lion_fires={"turned": True},
            rules={"jammed-rudder": reading},
        )
        problem = call(client, TURN, body, MISS + MISS + [6], status=422)
        assert "jammed straight ahead: it cannot turn" in problem["detail"]


@pytest.mark.parametrize("before", [None, "right"])
@pytest.mark.parametrize(("reading", "rolls"), [("next-turn", False), ("same-turn", True)])
def test_a_rudder_jammed_this_turn_even_again_moves_jammed_at_least_once(
    client: FlaskClient, reading: str, rolls: bool, before: str | None
) -> None:
    """A rudder jammed this turn rolls for repair from the next turn (or this one, under
    same-turn), whether or not it was jammed already: the old jam's repair roll must not
    free the new one (ruling rudder-repair: it "moves jammed at least once")."""
    # Lion throws 5, 5, 8 at Derfflinger: a hit (one less to hit when the target turns,
    # jammed right); double 5: Rudder Destroyed, its D6 of 1 jams it left.
    jam = {"rudder_jammed": before} if before else None
    body = duel(derfflinger=jam, rules={"rudder-repair": reading})
    values = [5, 5, 8, 1] + MISS + ([5] if rolls else [])
    data = play(client, body, values)
    assert events(data, "damage")[0]["effects"] == ["rudder jammed left"]
    repairs = events(data, "rudder")
    assert repairs == (
        [{"phase": "rudder", "ship": "Derfflinger", "repaired": True}] if rolls else []
    )
    jammed = data["result"]["state"]["ships"][1]["ship"]["state"]["rudder_jammed"]
    assert jammed == (None if rolls else "left")


@pytest.mark.parametrize(
    ("reading", "jam", "turned", "moves_on"),
    [
        ("turns-every-turn", "left", True, "its jammed rudder"),
        ("as-measured", "right", False, "its jammed rudder"),
        ("as-measured", "left", True, "its jammed rudder"),
        ("turns-every-turn", "straight ahead", False, "straight on"),
    ],
)
def test_with_no_plot_a_rudder_jammed_left_or_right_keeps_no_straight_line(
    client: FlaskClient, reading: str, jam: str, turned: bool, moves_on: str
) -> None:
    # Out of line astern with no enemy near and no plot, a ship would 'keep moving at a
    # straight line at same speed'; a rudder jammed left or right will not let it.
    body = duel(
        lion={"rudder_jammed": jam},
        rules={"jammed-rudder": reading},
        lion_fires={"turned": turned} if reading == "as-measured" else None,
    )
    data = play(client, body, MISS + MISS + [4])
    lion = events(data, "orders")[0]
    assert (lion["moves_on"], lion["turned"]) == (moves_on, turned)
    words = f"the same speed with its rudder jammed {jam}"
    assert (words in lion["reason"]) == (moves_on != "straight on")


def test_a_ship_out_of_formation_moves_on_last_turns_plot(client: FlaskClient) -> None:
    body = duel(lion_fires={"orders": "turn 60 to port", "turned": True})
    body["state"]["ships"][0]["plot"] = "ahead 9"
    data = play(client, body, MISS + MISS)
    lion = events(data, "orders")[0]
    assert (lion["moves_on"], lion["turned"], lion["plots_for_next_turn"]) == (
        "last turn's plot",
        True,
        True,
    )
    assert data["result"]["state"]["ships"][0]["plot"] == "turn 60 to port"


# --- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (
            lambda b: b["declarations"][0]["fire"][0].update(target="Lion"),
            "declarations.0.fire.0.target",
            "own side",
        ),
        (
            lambda b: b["declarations"][0]["fire"][0].update(target="Tiger"),
            "declarations.0.fire.0.target",
            "no ship of the action is named Tiger",
        ),
        (
            lambda b: b["declarations"][0]["fire"][0].update(distance=40),
            "declarations.0.fire.0.distance",
            "beyond",
        ),
        (
            lambda b: b["declarations"][0]["fire"][0].update(battery=12),
            "declarations.0.fire.0.battery",
            'Lion has no 12.0" battery',
        ),
        (
            lambda b: b["declarations"][0]["fire"].append(b["declarations"][0]["fire"][0]),
            "declarations.0.fire.1.battery",
            "declared twice",
        ),
        (
            lambda b: b["declarations"].append(b["declarations"][0]),
            "declarations.2.ship",
            "declared twice",
        ),
        (
            lambda b: b["state"]["ships"].append(in_action("Lion", HSF)),
            "state.ships.2.ship",
            "two ships of the action are named Lion",
        ),
        (
            lambda b: b["state"]["ships"][0].update(fired_at=[{"target": "Lion", "turn": 2}]),
            "state.ships.0.fired_at.0.turn",
            "not before turn 2",
        ),
    ],
)
def test_a_turn_the_rules_do_not_allow_is_refused(
    client: FlaskClient, change: Any, field: str, words: str
) -> None:
    body = duel()
    change(body)
    problem = refused(client, "turn", {**body, "dice": {"values": MISS + MISS}})
    assert problem["errors"][0]["field"] == field
    assert words in problem["detail"]


@pytest.mark.parametrize("left", [1, 2])
def test_a_ship_sunk_while_it_gives_no_orders_for_2_turns_counts_nothing_down(
    client: FlaskClient, left: int
) -> None:
    # Derfflinger's bridge is gone and it has 1 box left. Lion's 8, 7, 6 = 21 + 4 = 25 hits
    # and breaks it up: a sunk ship gives no more orders, so its bridge counts nothing down,
    # just as it rolls no rudder repair, and no bridge event speaks of it.
    body = duel(derfflinger={"damage_taken": 39, "no_orders_turns": left})
    data = play(client, body, [8, 7, 6] + MISS)
    assert data["result"]["sunk"] == ["Derfflinger"]
    assert events(data, "bridge") == []
    state = data["result"]["state"]["ships"][1]["ship"]["state"]
    assert state["no_orders_turns"] == left


def test_guns_fire_simultaneously_so_a_ship_sunk_this_turn_still_fires(
    client: FlaskClient,
) -> None:
    # Derfflinger has 1 box left. Lion rolls first (state order): 8, 7, 6 = 21 + 4 = 25, a
    # hit for 8 + 7 less 1 (worn down), which breaks Derfflinger up. Derfflinger's 8, 7, 6
    # still fire: 25, a hit; Medium damage, the middle die 7, +4 barrels, -2: 9 on Lion.
    body = duel(derfflinger={"damage_taken": 39})
    data = play(client, body, [8, 7, 6] + [8, 7, 6])
    assert check(data, 'Derfflinger 12" at Lion')["outcome"] == "hit"
    assert {e["ship"]: (e["points"], e["sunk"]) for e in events(data, "damage")} == {
        "Lion": (9, False),
        "Derfflinger": (1, True),
    }


def test_torpedoes_are_resolved_in_their_turn_and_lost(client: FlaskClient) -> None:
    # Four torpedoes at 8": 6 + 5 on 2D6 and 9 on the boat's D10 (German) = 20, +4 for the
    # torpedoes, -1 first time at Lion, +1 not under fire = 24 against Lion's 17: a hit.
    # All damage: 20 + 4 - 2 = 22.
    # The second salvo's firing point is 12" from Lion after movement: it misses, unrolled.
    body = turn_body(
        [in_action("Lion", GF), in_action("V-class torpedo boat", HSF)],
        [
            {
                "ship": "V-class torpedo boat",
                "torpedoes": [
                    {"target": "Lion", "distance": 8, "torpedoes": 4},
                    {"target": "Lion", "distance": 12, "torpedoes": 2},
                ],
            }
        ],
    )
    data = play(client, body, [6, 5, 9])
    salvoes = [e["result"] for e in events(data, "torpedo")]
    assert [(s["in_range"], s["hit"], s["damage"]) for s in salvoes] == [
        (True, True, 22),
        (False, False, 0),
    ]
    assert salvoes[0]["score_needed"] == 17
    assert events(data, "damage")[0]["points"] == 22
    # Nothing stays in the water, and torpedoes are not gunfire: no target recorded.
    boat = data["result"]["state"]["ships"][1]
    assert set(boat) == {"side", "ship", "plot", "fired_at"}
    assert boat["fired_at"] == []


# --- a turn is one entry of a game's log ------------------------------------------------------


def test_three_seeded_turns_make_a_log_that_verifies(client: FlaskClient) -> None:
    # A seed under which all four ships come through three turns (six hits in all), so the
    # same declarations serve each turn.
    body = turn_body(_four_ships(), _declarations({}), turn=1)
    log: list[dict[str, Any]] = []
    for nonce in (1, 2, 3):
        request = {**body, "dice": {"seed": "falklands", "nonce": nonce}}
        if log:
            request["prev"] = receipt_hash(log[-1])
        log.append(post(client, "turn", request))
        body = {"state": log[-1]["result"]["state"], "declarations": _declarations({})}
    report = call(client, "/v1/receipts/verify", log)  # type: ignore[arg-type]
    assert report["valid"] is True, report
    assert [e["dice_valid"] and e["signature_valid"] for e in report["entries"]] == [True] * 3


def test_a_sealed_turn_asked_twice_is_the_same_turn(client: FlaskClient) -> None:
    sealed = client.post("/v1/seeds", json={"reveal_in": 3600}).get_json()
    dice = {"sealed": sealed["sealed"], "client_seed": "scheer", "nonce": 1}
    body = {**turn_body(_four_ships(), _declarations({}), turn=1), "dice": dice}
    first, again = post(client, "turn", body), post(client, "turn", body)
    assert first["result"] == again["result"] and first["rolls"] == again["rolls"]
    assert first["dice"]["mode"] == "sealed"
    assert first["dice"]["commitment"] == sealed["commitment"]


def test_an_inline_card_at_the_turn_cap_comes_back_and_loads_again(client: FlaskClient) -> None:
    agincourt = card("Battleship", (12, 4, 2), (9.2, 4, 2), name="Agincourt", speed=6)
    body = turn_body(
        [in_action(agincourt, GF), in_action("Derfflinger", HSF)],
        [declare("Agincourt", (12, "Derfflinger", 20))],
        turn=10_000,
    )
    first = post(client, "turn", {**body, "dice": {"seed": "cap", "nonce": 1}})["result"]
    state = first["state"]
    assert state["turn"] == 10_000  # the count stops at its cap
    assert state["ships"][0]["ship"]["card"]["name"] == "Agincourt"
    assert state["ships"][0]["fired_at"] == [{"target": "Derfflinger", "turn": 10_000}]
    again = {"state": state, "declarations": body["declarations"], "dice": {"seed": "cap"}}
    assert post(client, "turn", again)["result"]["turn"] == 10_000


def _name(ship: dict[str, Any]) -> str:
    """A ship of a state, by its catalog name or its inline card's."""
    name: str = ship["ship"] if "ship" in ship else ship["card"]["name"]
    return name


def test_each_ship_of_the_answer_carries_its_side_as_the_state_does(
    client: FlaskClient,
) -> None:
    own = card("Protected Cruiser", (6, 8), name="Arethusa")
    body = turn_body(
        [
            in_action("Lion", GF),
            in_action("Derfflinger", HSF),
            in_action(own, GF),
            in_action("Seydlitz", HSF),
        ],
        [declare("Lion", (13.5, "Derfflinger", 20)), declare("Seydlitz", (11, "Lion", 20))],
        dice={"seed": "sides", "nonce": 1},
    )
    result = post(client, "turn", body)["result"]
    ships = [(ship["name"], ship["side"]) for ship in result["ships"]]
    assert ships == [(_name(ship["ship"]), ship["side"]) for ship in result["state"]["ships"]]
    assert ships == [("Lion", GF), ("Derfflinger", HSF), ("Arethusa", GF), ("Seydlitz", HSF)]
