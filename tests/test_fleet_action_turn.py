"""A fleet-action turn played one call at a time through HTTP: initiative, then alternating
activations, each call taking the state the last handed back.

The order is reasoned here from the rule text ("Starting with the loser, players take turns
picking one of their ships ... until every ship has gone"), not read off the service."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.fleet_action_helpers import BASE, PRINTED_CLASSES, fields_at_fault, hull
from tests.http_helpers import call
from tests.receipts_helpers import receipt_hash

TURN = f"{BASE}/turn"


def fleet(**ships: tuple[str, str, str]) -> list[dict[str, Any]]:
    """Ships by name: (player, class, crew)."""
    return [
        {"name": name, "player": player, "class": cls, "crew": crew}
        for name, (player, cls, crew) in ships.items()
    ]


THREE_A_SIDE = fleet(
    Warspite=("A", "Battleship", "Veteran"),
    Arethusa=("A", "Cruiser", "Seasoned"),
    Cossack=("A", "Destroyer", "Elite"),
    Hipper=("B", "Cruiser", "Veteran"),
    Z1=("B", "Destroyer", "Seasoned"),
    Z2=("B", "Destroyer", "Green"),
)
# The rulebook's example turn: A's Veteran Battleship, B's two Seasoned Destroyers.
EXAMPLE = fleet(
    Battleship=("A", "Battleship", "Veteran"),
    **{"Destroyer 1": ("B", "Destroyer", "Seasoned")},
    **{"Destroyer 2": ("B", "Destroyer", "Seasoned")},
)


def turn(client: FlaskClient, body: dict[str, Any], status: int = 200, **extra: Any) -> Any:
    return call(client, TURN, {**body, **extra}, status=status)


def started(ships: list[dict[str, Any]], first: str, **state: Any) -> dict[str, Any]:
    """A turn whose initiative is rolled: ``first`` picks."""
    return {"turn": 1, "ships": ships, "first_pick": first, "next_pick": first, **state}


def guns(ship: str, target: str, range_: float = 10, **extra: Any) -> dict[str, Any]:
    return {
        "ship": ship,
        "weapon": "guns",
        "target": target,
        "range": range_,
        "line_of_sight": True,
        **extra,
    }


# --- the rulebook's example turn, die for die ----------------------------------------------


def test_the_rulebooks_example_turn_call_by_call(client: FlaskClient) -> None:
    state: dict[str, Any] = {"turn": 1, "ships": EXAMPLE}
    # A rolls 3, B rolls 5: B wins and goes second, so A picks first
    first = turn(client, {"state": state}, dice={"values": [3, 5]})["result"]
    assert first["call"] == "initiative"
    assert first["initiative"]["winner"] == "B" and first["initiative"]["first"] == "A"
    assert first["state"]["first_pick"] == "A" and first["state"]["next_pick"] == "A"
    assert first["next"]["call"] == "activation"
    assert first["next"]["player"] == "A" and first["next"]["ships"] == ["Battleship"]
    assert first["next"]["dice"] is None  # supplied dice: the players roll the next ones
    # the Battleship moves 10" and fires 6 dice at Destroyer 1, 40" away: 3 hits, one a 6;
    # saves 5, 2, 4 against 5+: the save against the 6 fails, a catastrophic hit
    body = {"state": first["state"], "activation": guns("Battleship", "Destroyer 1", 40, moved=10)}
    second = turn(client, body, dice={"values": [2, 4, 5, 1, 6, 3, 5, 2, 4]})["result"]
    shot = second["activation"]["guns"]
    assert (shot["hits"], shot["saves"], shot["catastrophic"]) == (3, 1, True)
    assert second["activation"]["torpedoes"] is None
    ships = {s["name"]: s for s in second["state"]["ships"]}
    assert ships["Destroyer 1"]["hull_lost"] == hull("Destroyer")  # gone
    assert second["state"]["gone"] == ["Battleship"]
    assert second["state"]["next_pick"] == "B"
    assert second["next"]["ships"] == ["Destroyer 2"]  # Destroyer 1 was removed
    assert not second["turn_over"] and not second["game_over"]
    # Destroyer 2 moves its full 14" to 18" and fires guns: 5, 2, 6 against 5+; the
    # Battleship saves on 2+: 4, 1; the 1 was against the 6, and down goes the Battleship
    body = {"state": second["state"], "activation": guns("Destroyer 2", "Battleship", 18, moved=14)}
    third = turn(client, body, dice={"values": [5, 2, 6, 4, 1]})["result"]
    assert third["activation"]["guns"]["catastrophic"] is True
    assert third["game_over"] is True and third["winner"] == "B"  # "Player B wins."
    assert third["next"] is None
    # the game is over: another call is refused
    problem = turn(client, {"state": third["state"]}, status=422)
    assert "the game is over" in problem["detail"] and "player B wins" in problem["detail"]


# --- a whole turn of three ships a side, seeded --------------------------------------------


def _expected_picker(ships: dict[str, dict[str, Any]], gone: list[str], first: str) -> str | None:
    """Whose pick it is, from the text: alternate from the loser; a player with no ship
    left to go passes."""
    left = {
        p: [n for n, s in ships.items() if s["player"] == p and n not in gone and not _sunk(s)]
        for p in "AB"
    }
    picker = first if not gone else ("B" if ships[gone[-1]]["player"] == "A" else "A")
    for player in (picker, "B" if picker == "A" else "A"):
        if left[player]:
            return player
    return None


def _sunk(ship: dict[str, Any]) -> bool:
    return bool(ship["hull_lost"] >= hull(ship["class"]))


def _activation(name: str, ships: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Fire at the first enemy afloat: torpedoes where a carrier is in 16", else guns."""
    me = ships[name]
    target = next(n for n, s in ships.items() if s["player"] != me["player"] and not _sunk(s))
    carries = PRINTED_CLASSES[me["class"]][5]
    weapon = "torpedoes" if carries and me["class"] == "Destroyer" else "guns"
    return {**guns(name, target, 12), "weapon": weapon, "moved": 4, "turned": 45}


def test_a_whole_turn_of_three_ships_a_side(client: FlaskClient) -> None:
    state: dict[str, Any] = {"turn": 1, "ships": THREE_A_SIDE}
    answer = turn(client, {"state": state}, dice={"seed": "jutland", "nonce": 1})
    result = answer["result"]
    first = result["initiative"]["first"]
    calls = 1
    log = [answer]
    order: list[str] = []
    while not result["turn_over"] and not result["game_over"]:
        state = result["state"]
        ships = {s["name"]: s for s in state["ships"]}
        picker = _expected_picker(ships, state["gone"], first)
        assert state["next_pick"] == picker == result["next"]["player"]
        assert result["next"]["ships"] == [
            n
            for n, s in ships.items()
            if s["player"] == picker and n not in state["gone"] and not _sunk(s)
        ]
        name = result["next"]["ships"][0]
        body = {"state": state, "activation": _activation(name, ships)}
        answer = turn(client, body, dice=result["next"]["dice"], prev=receipt_hash(log[-1]))
        log.append(answer)
        result = answer["result"]
        calls += 1
        order.append(name)
        # what the attack did is what the next state carries
        done = result["activation"]
        attack = done["guns"] or done["torpedoes"]
        after = {s["name"]: s for s in result["state"]["ships"]}
        target = ships[done["target"]]
        lost = hull(target["class"]) if attack["catastrophic"] else attack["hull_lost"]
        assert after[done["target"]]["hull_lost"] == min(
            hull(target["class"]), target["hull_lost"] + lost
        )
        assert all(
            after[n]["hull_lost"] == s["hull_lost"] for n, s in ships.items() if n != done["target"]
        )
    # every ship went at most once, and every ship that did not go was sunk first
    assert len(order) == len(set(order)) and calls == 1 + len(order)
    final = {s["name"]: s for s in log[-1]["result"]["state"]["ships"]}
    assert all(_sunk(final[s["name"]]) for s in THREE_A_SIDE if s["name"] not in order)
    # this seed plays the whole turn: every ship goes, guns and torpedoes both fire
    assert result["turn_over"] is True and len(order) == len(THREE_A_SIDE)
    weapons = {entry["result"]["activation"]["weapon"] for entry in log[1:]}
    assert weapons == {"guns", "torpedoes"}
    assert result["state"]["turn"] == 2 and result["state"]["gone"] == []
    assert result["state"]["first_pick"] is None and result["next"]["call"] == "initiative"
    # each answer names the next call's dice: the seed, the nonce counted up
    assert [entry["dice"]["nonce"] for entry in log] == list(range(1, calls + 1))
    report = call(client, "/v1/receipts/verify", log)  # type: ignore[arg-type]
    assert report["valid"] is True and report["log"]["chain_unbroken"] is True, report


def _drawn(result: dict[str, Any]) -> None:
    """What an app draws of a turn answer agrees with the state it hands back: each ship's
    Hull from the printed table, what is left, sunk at none left, gone as the state says;
    the targets named are the enemy ships afloat."""
    state = result["state"]
    assert [s["name"] for s in result["ships"]] == [s["name"] for s in state["ships"]]
    for status, sent in zip(result["ships"], state["ships"], strict=True):
        printed = hull(sent["class"])
        assert (status["player"], status["class"], status["crew"]) == (
            sent["player"],
            sent["class"],
            sent["crew"],
        )
        assert status["hull"] == printed and status["hull_lost"] == sent["hull_lost"]
        assert status["hull_left"] == printed - sent["hull_lost"]
        assert status["sunk"] is _sunk(sent) and status["gone"] is (sent["name"] in state["gone"])
    upcoming = result["next"]
    if upcoming is not None and upcoming["player"] is not None:
        enemies = [
            s["name"] for s in state["ships"] if s["player"] != upcoming["player"] and not _sunk(s)
        ]
        assert upcoming["targets"] == enemies


def test_each_answer_says_what_an_app_draws_and_what_it_may_fire_at(
    client: FlaskClient,
) -> None:
    state: dict[str, Any] = {"turn": 1, "ships": THREE_A_SIDE}
    result = turn(client, {"state": state}, dice={"seed": "jutland", "nonce": 1})["result"]
    seen_sunk = False
    while not result["turn_over"] and not result["game_over"]:
        _drawn(result)
        state, upcoming = result["state"], result["next"]
        mover = upcoming["ships"][0]
        # every target named is accepted; a ship of one's own and a sunk one are refused
        for target in upcoming["targets"]:
            body = {"state": state, "activation": guns(mover, target, 1)}
            turn(client, body, dice={"seed": "probe", "nonce": 1})
        ships = {s["name"]: s for s in state["ships"]}
        for name, ship in ships.items():
            if name not in upcoming["targets"]:
                seen_sunk |= _sunk(ship)
                body = {"state": state, "activation": guns(mover, name, 1)}
                problem = turn(client, body, status=422, dice={"seed": "probe", "nonce": 1})
                assert fields_at_fault(problem) == ["activation.target"]
        body = {"state": state, "activation": _activation(mover, ships)}
        result = turn(client, body, dice=upcoming["dice"])["result"]
    _drawn(result)
    assert seen_sunk  # the seed sinks a ship before the turn is out


def test_a_turn_answer_is_one_of_two_shapes_told_apart_by_call(client: FlaskClient) -> None:
    document = client.get("/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    result = schemas["FleetActionTurnResponse"]["properties"]["result"]
    assert result["discriminator"]["propertyName"] == "call"
    variants = {
        tag: schemas[ref.rsplit("/", 1)[-1]]
        for tag, ref in result["discriminator"]["mapping"].items()
    }
    assert set(variants) == {"initiative", "activation"}
    for tag, variant in variants.items():
        assert variant["properties"]["call"]["const"] == tag
        assert tag in variant["required"] and "call" in variant["required"]
        other = ({"initiative", "activation"} - {tag}).pop()
        assert other not in variant["properties"]


def test_a_measure_is_echoed_as_it_was_sent(client: FlaskClient) -> None:
    """40 stays 40 and 12.5 stays 12.5: the answer writes the numbers the players sent."""
    activation = {**guns("Hipper", "Warspite", 12.5), "moved": 4, "turned": 45}
    body = {
        "state": started(THREE_A_SIDE, "B"),
        "activation": activation,
        "dice": {"values": [1, 1, 1, 1]},
    }
    raw = client.post(TURN, json=body).get_data(as_text=True)
    assert '"range":12.5' in raw and '"moved":4,' in raw and '"turned":45,' in raw
    assert '"moved":4.0' not in raw and '"turned":45.0' not in raw


def test_the_same_state_and_dice_give_the_same_answer(client: FlaskClient) -> None:
    body = {
        "state": started(THREE_A_SIDE, "B"),
        "activation": {**guns("Hipper", "Warspite", 30), "weapon": "torpedoes", "range": 16},
        "dice": {"seed": "same", "nonce": 7},
    }
    one, two = turn(client, body), turn(client, body)
    assert one["result"] == two["result"] and one["rolls"] == two["rolls"]


# --- the order -----------------------------------------------------------------------------


def test_a_pick_out_of_order_says_whose_pick_it_is(client: FlaskClient) -> None:
    body = {"state": started(THREE_A_SIDE, "A"), "activation": guns("Hipper", "Warspite", 20)}
    problem = turn(client, body, status=422)
    assert fields_at_fault(problem) == ["activation.ship"]
    assert "it is player A's pick (Warspite, Arethusa, Cossack)" in problem["detail"]


def test_a_ship_goes_once_a_turn(client: FlaskClient) -> None:
    state = started(THREE_A_SIDE, "A", next_pick="A", gone=["Warspite", "Hipper"])
    problem = turn(client, {"state": state, "activation": guns("Warspite", "Z1")}, status=422)
    assert "Warspite has already gone this turn" in problem["detail"]
    assert "player A's pick (Arethusa, Cossack)" in problem["detail"]


def test_a_sunk_ship_cannot_be_picked(client: FlaskClient) -> None:
    ships = [dict(s) for s in THREE_A_SIDE]
    ships[0]["hull_lost"] = hull("Battleship")
    body = {"state": started(ships, "A"), "activation": guns("Warspite", "Z1")}
    problem = turn(client, body, status=422)
    assert fields_at_fault(problem) == ["activation.ship"]
    assert "Warspite is sunk" in problem["detail"] and "(Arethusa, Cossack)" in problem["detail"]


def test_a_sunk_ship_cannot_be_fired_at(client: FlaskClient) -> None:
    ships = [dict(s) for s in THREE_A_SIDE]
    ships[4]["hull_lost"] = hull("Destroyer")
    body = {"state": started(ships, "A"), "activation": guns("Warspite", "Z1")}
    problem = turn(client, body, status=422)
    assert fields_at_fault(problem) == ["activation.target"]
    assert "already sunk" in problem["detail"]


def test_initiative_first_then_activations(client: FlaskClient) -> None:
    fresh = {"turn": 1, "ships": THREE_A_SIDE}
    problem = turn(client, {"state": fresh, "activation": guns("Warspite", "Z1")}, status=422)
    assert fields_at_fault(problem) == ["activation"]
    assert "roll initiative first" in problem["detail"]
    problem = turn(client, {"state": started(THREE_A_SIDE, "B")}, status=422)
    assert fields_at_fault(problem) == ["activation"]
    assert "it is player B's pick" in problem["detail"]


def test_a_state_whose_next_pick_breaks_the_order_is_refused(client: FlaskClient) -> None:
    state = started(THREE_A_SIDE, "A", next_pick="A", gone=["Warspite"])  # B's pick now
    problem = turn(client, {"state": state, "activation": guns("Arethusa", "Z1")}, status=422)
    assert fields_at_fault(problem) == ["state.next_pick"]
    assert "player B's pick" in problem["detail"]


def test_a_player_with_no_ship_left_passes(client: FlaskClient) -> None:
    # ruling picks-when-one-side-is-out: A's one ship has gone, B picks its three in a row
    ships = fleet(
        Hood=("A", "Battleship", "Elite"),
        Z1=("B", "Corvette", "Green"),
        Z2=("B", "Corvette", "Green"),
        Z3=("B", "Corvette", "Green"),
    )
    state = started(ships, "A", next_pick="B", gone=["Hood", "Z1"])
    hold = {"ship": "Z2", "weapon": "none"}
    result = turn(client, {"state": state, "activation": hold})["result"]
    assert result["state"]["next_pick"] == "B" and result["next"]["ships"] == ["Z3"]
    last = turn(client, {"state": result["state"], "activation": {**hold, "ship": "Z3"}})
    assert last["result"]["turn_over"] is True and last["rolls"] == []


def test_a_ship_that_fires_nothing_rolls_no_dice(client: FlaskClient) -> None:
    body = {
        "state": started(THREE_A_SIDE, "A"),
        "activation": {"ship": "Cossack", "weapon": "none"},
    }
    answer = turn(client, body)
    assert answer["rolls"] == []
    assert answer["result"]["activation"]["guns"] is None
    assert answer["result"]["state"]["gone"] == ["Cossack"]
    with_target = {**body, "activation": {**body["activation"], "target": "Z1"}}
    problem = turn(client, with_target, status=422)
    assert fields_at_fault(problem) == ["activation.target"]


@pytest.mark.parametrize(
    ("activation", "field", "words"),
    [
        (guns("Cossack", "Z1", moved=14.5), "activation.moved", 'more than its Speed of 14"'),
        (guns("Cossack", "Z1", turned=91), "activation.turned", "one turn of up to 90"),
        (
            {**guns("Warspite", "Z1"), "weapon": "torpedoes"},
            "activation.weapon",
            "a Battleship carries no torpedoes",
        ),
        ({**guns("Cossack", "Z1"), "weapon": "torpedoes", "range": 16.5}, "activation.range", "16"),
        (guns("Arethusa", "Z1", 36.5), "activation.range", 'gun range of 36"'),
        ({**guns("Arethusa", "Z1"), "line_of_sight": False}, "activation.line_of_sight", "sight"),
        (guns("Arethusa", "Cossack"), "activation.target", "own ship"),
        (guns("Arethusa", "Bismarck"), "activation.target", "no ship named 'Bismarck'"),
        ({"ship": "Arethusa", "weapon": "guns", "target": "Z1"}, "activation.range", "range"),
    ],
)
def test_an_activation_the_rules_do_not_allow(
    client: FlaskClient, activation: dict[str, Any], field: str, words: str
) -> None:
    problem = turn(client, {"state": started(THREE_A_SIDE, "A"), "activation": activation}, 422)
    assert fields_at_fault(problem) == [field]
    assert words in problem["detail"]


def test_moving_exactly_the_speed_and_turning_90_is_allowed(client: FlaskClient) -> None:
    body = {
        "state": started(THREE_A_SIDE, "A"),
        "activation": {
            **guns("Cossack", "Z1", 16),
            "weapon": "torpedoes",
            "moved": 14,
            "turned": 90,
        },
        "dice": {"values": [1, 1, 1]},
    }
    assert turn(client, body)["result"]["activation"]["torpedoes"]["hits"] == 0


@pytest.mark.parametrize(
    ("ships", "words"),
    [
        (THREE_A_SIDE + [dict(THREE_A_SIDE[0])], "'Warspite' is used twice"),
        ([s for s in THREE_A_SIDE if s["player"] == "A"], "player B has 0 ships"),
        (
            THREE_A_SIDE + fleet(**{f"X{i}": ("A", "Corvette", "Green") for i in range(4)}),
            "player A has 7 ships: a player has 1 to 6 ships",
        ),
    ],
)
def test_a_state_no_turn_could_hand_back(
    client: FlaskClient, ships: list[dict[str, Any]], words: str
) -> None:
    problem = turn(client, {"state": {"turn": 1, "ships": ships}}, status=422)
    assert fields_at_fault(problem) == ["state.ships"]
    assert words in problem["detail"]


# --- the end of the turn, and ruling initiative-each-turn ----------------------------------


def _last_of_the_turn(rules: dict[str, str]) -> dict[str, Any]:
    ships = fleet(Hood=("A", "Corvette", "Green"), Z1=("B", "Corvette", "Green"))
    body = {
        "state": started(ships, "B", next_pick="A", gone=["Z1"]),
        "activation": {"ship": "Hood", "weapon": "none"},
    }
    return {**body, "rules": rules} if rules else body


def test_the_last_activation_starts_a_new_turn_with_initiative(client: FlaskClient) -> None:
    result = turn(client, _last_of_the_turn({}))["result"]
    assert result["turn_over"] is True and result["game_over"] is False
    state = result["state"]
    assert (state["turn"], state["first_pick"], state["next_pick"], state["gone"]) == (
        2,
        None,
        None,
        [],
    )
    assert result["next"]["call"] == "initiative"
    again = turn(client, {"state": state}, dice={"values": [6, 2]})["result"]
    assert again["initiative"]["first"] == "B"


def test_initiative_once_a_game_keeps_the_first_pick(client: FlaskClient) -> None:
    answer = turn(client, _last_of_the_turn({"initiative-each-turn": "once-a-game"}))
    state = answer["result"]["state"]
    assert (state["turn"], state["first_pick"], state["next_pick"]) == (2, "B", "B")
    assert answer["rules"]["initiative-each-turn"] == "once-a-game"
    following = answer["result"]["next"]
    assert {key: following[key] for key in ("call", "player", "ships", "detail")} == {
        "call": "activation",
        "player": "B",
        "ships": ["Z1"],
        "detail": "player B's pick: send the state with an activation of one of Z1",
    }
    # no dice were sent: the next call may go on with the seed the service chose, nonce 1
    assert following["dice"] == {"seed": answer["dice"]["seed"], "nonce": 1}


def test_the_turn_count_stops_at_its_limit(client: FlaskClient) -> None:
    body = _last_of_the_turn({})
    body["state"]["turn"] = 10_000
    assert turn(client, body)["result"]["state"]["turn"] == 10_000
