"""The Salvo! turn as the rules play it: the enemy acts first, the player reacts; or the
player has the initiative and commits first.

Ajax (speed 10) against Graf Spee (speed 8): the enemy is slower, +1 to the initiative
roll, so a 3 or more gives the enemy the initiative and a 1 or 2 gives it to the player.
"""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.receipts.checking import finishes_pending_turn, left_pending
from service.rulesets.salvo_solo.ships import CATALOG
from service.rulesets.salvo_solo.steps import MAX_TURN
from tests.http_helpers import check_of
from tests.receipts_helpers import Doc, drop_at, receipt_hash, set_at, verify, verify_dice
from tests.salvo_solo_helpers import AJAX, BASE, NURNBURG, SPEE, refused, resolve

START = {"turn": 1, "weather": "Fair", "range": "Long", "player": AJAX, "enemy": SPEE}
TURN = f"{BASE}/turn"


def post(client: FlaskClient, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post(TURN, json=body)
    assert response.status_code == status, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def same_opening(pending: dict[str, Any], finished: dict[str, Any]) -> None:
    """The finished turn rolled the pending answer's dice again and read them the same way."""
    used = pending["result"]["pending"]["dice_used"]
    assert used == sum(len(roll["values"]) for roll in pending["rolls"])
    assert finished["rolls"][: len(pending["rolls"])] == pending["rolls"]
    assert finished["modifiers"][: len(pending["modifiers"])] == pending["modifiers"]
    events = pending["result"]["events"]
    assert finished["result"]["events"][: len(events)] == events
    assert "pending" not in finished["result"]


# --- the enemy acts first: a pending answer, then the whole turn ----------------------------


def test_graf_spee_has_the_initiative_and_ajax_waits_to_see_its_action(
    client: FlaskClient,
) -> None:
    """Supplied dice: initiative 3 (+1 slower) = 4, Graf Spee first; action 1, Close."""
    pending = post(client, {"state": START, "dice": {"values": [3, 1]}})
    result = pending["result"]
    assert result["pending"] == {
        "first": "enemy",
        "enemy_action": "C",
        "choose": "player_action",
        "choices": ["C", "OB", "W"],
        "dice_used": 2,
        "dice": None,
        "detail": "Graf Spee has the initiative and will Close (C): send the same request "
        "with player_action, one of C, OB, W, and the same dice (supplied dice: these 2, then "
        "the rest of the turn's) to finish the turn",
    }
    # Nothing is applied: the state goes back as it came, no winner, no turn counted.
    assert result["state"]["turn"] == 1 and result["state"]["range"] == "Long"
    assert result["state"]["enemy_last_action"] is None
    assert (result["game_over"], result["winner"], result["draw"]) == (False, None, False)
    assert [event["phase"] for event in result["events"]] == ["initiative", "enemy-action"]
    assert [roll["label"] for roll in pending["rolls"]] == ["initiative", "enemy action"]

    # Seeing Graf Spee close, Ajax withdraws: no net change, Long, Graf Spee's bow guns.
    # Graf Spee (11") fires first: 1+1 misses at Long; Ajax 1+1 misses; End of Turn 1.
    values = [3, 1, 1, 1, 1, 1, 1]
    body = {"state": START, "player_action": "W", "dice": {"values": values}}
    finished = post(client, body)
    same_opening(pending, finished)
    moved = finished["result"]["events"][2]["result"]
    assert (moved["range"], moved["player_guns_bearing"], moved["enemy_guns_bearing"]) == (
        "Long",
        "stern",
        "bow",
    )
    assert finished["result"]["state"]["turn"] == 2
    assert finished["result"]["state"]["enemy_last_action"] == "C"


def test_a_seeded_turn_asked_twice_rolls_the_same_initiative_and_enemy_action(
    client: FlaskClient,
) -> None:
    found = {"player": 0, "enemy": 0}
    for nonce in range(1, 40):
        dice = {"seed": "river-plate", "nonce": nonce}
        pending = post(client, {"state": START, "dice": dice})
        waiting = pending["result"]["pending"]
        assert waiting["dice"] == dice  # what the finishing call sends
        for action in waiting["choices"]:
            finished = post(client, {"state": START, "player_action": action, "dice": dice})
            same_opening(pending, finished)
            assert finished["dice"] == pending["dice"]
            assert finished["result"]["events"][2]["phase"] == "maneuver"
            enemy = finished["result"]["events"][1]["result"]["action"]
            assert waiting["enemy_action"] in (None, enemy)
        found[waiting["first"]] += 1
    # The enemy has the initiative two times in three; either way the turn waits.
    assert found["enemy"] >= 10 and found["player"] >= 5, found


def test_a_sealed_turn_asked_twice_rolls_the_same_initiative_and_enemy_action(
    client: FlaskClient,
) -> None:
    sealed = client.post("/v1/seeds", json={"reveal_in": 3600}).get_json()
    pendings = 0
    for nonce in range(1, 7):
        dice = {"sealed": sealed["sealed"], "client_seed": "ajax", "nonce": nonce}
        pending = post(client, {"state": START, "dice": dice})
        assert pending["result"]["pending"]["dice"] == dice
        finished = post(client, {"state": START, "player_action": "OB", "dice": dice})
        same_opening(pending, finished)
        assert finished["dice"]["mode"] == pending["dice"]["mode"] == "sealed"
        assert finished["dice"]["commitment"] == sealed["commitment"]
        pendings += 1
    assert pendings == 6


def test_a_fresh_turn_names_the_seed_its_finishing_call_sends(client: FlaskClient) -> None:
    """Without dice the service chooses a seed: the pending answer names it and its nonce,
    and the finishing call that sends them plays the very opening the player reacted to
    (the same request again, without them, would roll a new seed and another enemy Action)."""
    pending = post(client, {"state": START})
    named = pending["result"]["pending"]["dice"]
    assert named == {"seed": pending["dice"]["seed"], "nonce": pending["dice"]["nonce"]}
    assert pending["dice"]["seed_source"] == "server"
    assert "dice as pending.dice" in pending["result"]["pending"]["detail"]
    body = {"state": START, "player_action": "W", "dice": named, "prev": receipt_hash(pending)}
    finished = post(client, body)
    same_opening(pending, finished)
    assert finished["dice"]["seed"] == named["seed"]
    report = verify(client, [pending, finished])  # one turn, not a repeated nonce
    assert report["valid"] is True, report["log"]


def test_the_two_calls_give_the_answer_a_single_call_gives(client: FlaskClient) -> None:
    """With player_action up front the turn is what it always was; asking first changes nothing."""
    firsts = set()
    for nonce in range(1, 7):
        dice = {"seed": "one-or-two-calls", "nonce": nonce}
        body = {"state": START, "player_action": "C", "dice": dice}
        once = post(client, body)
        asked = post(client, {"state": START, "dice": dice})  # the pending call
        firsts.add(asked["result"]["pending"]["first"])
        again = post(client, body)
        assert {k: v for k, v in once.items() if k not in ("receipt", "provenance")} == {
            k: v for k, v in again.items() if k not in ("receipt", "provenance")
        }
    assert firsts == {"player", "enemy"}


# --- the player acts first: a pending answer without the enemy's Action ----------------------


def test_ajax_has_the_initiative_and_the_turn_waits_for_its_action_first(
    client: FlaskClient,
) -> None:
    """Initiative 2 (+1) = 3: Ajax acts first, so it commits before the enemy's Action is
    rolled: the answer shows the initiative only, and the finishing call rolls the rest."""
    pending = post(client, {"state": START, "dice": {"values": [2]}})
    result = pending["result"]
    assert result["pending"] == {
        "first": "player",
        "enemy_action": None,
        "choose": "player_action",
        "choices": ["C", "OB", "W"],
        "dice_used": 1,
        "dice": None,
        "detail": "Ajax has the initiative and acts first: send the same request with "
        "player_action, one of C, OB, W, and the same dice (supplied dice: these 1, then the "
        "rest of the turn's) to finish the turn",
    }
    assert (
        result["state"]
        == post(client, {"state": START, "dice": {"values": [2]}})["result"]["state"]
    )
    assert result["state"]["turn"] == 1 and result["state"]["enemy_last_action"] is None
    assert (result["game_over"], result["winner"], result["draw"]) == (False, None, False)
    assert result["events"] == [{"phase": "initiative", "result": {"first": "player"}}]
    assert [roll["label"] for roll in pending["rolls"]] == ["initiative"]

    # Ajax withdraws; Graf Spee's Action is rolled only now: 1, Close. No net change, Long;
    # Graf Spee (11") fires first: 1+1 misses; Ajax 1+1 misses; End of Turn 1.
    body = {"state": START, "player_action": "W", "dice": {"values": [2, 1, 1, 1, 1, 1, 1]}}
    finished = post(client, body)
    same_opening(pending, finished)
    events = finished["result"]["events"]
    assert [event["phase"] for event in events[:3]] == ["initiative", "enemy-action", "maneuver"]
    assert events[1]["result"] == {"action": "C", "reason": "rolled"}
    assert (events[2]["result"]["range"], events[2]["result"]["range_change"]) == ("Long", 0)
    assert finished["result"]["state"]["turn"] == 2
    assert finished["result"]["state"]["enemy_last_action"] == "C"


def test_a_player_first_turn_finishes_as_one_call_with_the_action_plays_it(
    client: FlaskClient,
) -> None:
    """Seeded: the finishing call is the turn a single call with player_action plays."""
    dice = next(
        {"seed": "player-first", "nonce": n}
        for n in range(1, 40)
        if post(client, {"state": START, "dice": {"seed": "player-first", "nonce": n}})["result"][
            "pending"
        ]["first"]
        == "player"
    )
    pending = post(client, {"state": START, "dice": dice})
    assert pending["result"]["pending"]["dice"] == dice
    assert pending["result"]["pending"]["enemy_action"] is None
    finished = post(client, {"state": START, "player_action": "OB", "dice": dice})
    same_opening(pending, finished)
    assert finished["result"]["events"][0]["result"] == {"first": "player"}


def test_pending_supplied_dice_are_the_opening_only(client: FlaskClient) -> None:
    problem = post(client, {"state": START, "dice": {"values": [3, 1, 6]}}, status=422)
    assert problem["errors"][0]["field"] == "dice.values"
    assert "used only 2" in problem["detail"]
    wants = post(client, {"state": START, "dice": {"values": [3]}}, status=422)
    assert "1d6 for enemy action" in wants["detail"]
    # Ajax first: the opening is the initiative alone.
    problem = post(client, {"state": START, "dice": {"values": [1, 6]}}, status=422)
    assert problem["errors"][0]["field"] == "dice.values"
    assert "used only 1" in problem["detail"]


def test_a_player_at_speed_0_can_only_offer_broadside_when_the_turn_is_pending(
    client: FlaskClient,
) -> None:
    state = {**START, "player": {"ship": "Ajax", "state": {"speed_hits": 5}}}
    # Ajax at speed 0, Graf Spee faster: -1, so a 5 gives Graf Spee the initiative.
    pending = post(client, {"state": state, "dice": {"values": [5, 3]}})["result"]["pending"]
    assert pending["choices"] == ["OB"] and pending["enemy_action"] == "OB"
    refused(client, "turn", {"state": state, "player_action": "C", "dice": {"values": [5, 3]}})


def test_a_game_played_by_pending_turns_runs_to_its_end(client: FlaskClient) -> None:
    """Each turn asked first without an Action; the player always answers the enemy's Action
    in kind (and closes when it commits first); the state handed back by each finished turn
    plays the next."""
    state: dict[str, Any] = dict(START)
    for nonce in range(1, 200):
        dice = {"seed": "a-whole-game", "nonce": nonce}
        result = post(client, {"state": state, "dice": dice})["result"]
        assert result["state"] == post(client, {"state": state, "dice": dice})["result"]["state"]
        action = result["pending"]["enemy_action"] or "C"  # None: Ajax commits first
        if action not in result["pending"]["choices"]:
            action = "OB"
        finished = post(client, {"state": state, "player_action": action, "dice": dice})
        if finished["result"]["game_over"]:
            break
        state = finished["result"]["state"]
    else:
        pytest.fail("the game never ended")


# --- the turn count stops at its cap (ruling turn-count-cap) --------------------------------


@pytest.mark.parametrize("turn", [MAX_TURN - 1, MAX_TURN])
def test_the_turn_count_stops_at_10000_and_the_state_loads_again(
    client: FlaskClient, turn: int
) -> None:
    """A turn at 10,000 used to hand back 10,001, which no request takes."""
    state = {**START, "turn": turn}
    body = {"player_action": "OB", "dice": {"values": [1, 1, 1, 1, 1, 1, 1]}}
    result = post(client, {**body, "state": state})["result"]
    assert result["game_over"] is False
    assert result["state"]["turn"] == MAX_TURN == 10_000
    again = {"state": result["state"], "player_action": "OB", "dice": {"seed": "cap", "nonce": 2}}
    assert post(client, again)["result"]["state"]["turn"] == MAX_TURN


def test_a_turn_past_the_cap_is_refused_by_the_schema(client: FlaskClient) -> None:
    body = {"state": {**START, "turn": MAX_TURN + 1}, "player_action": "OB"}
    problem = post(client, body, status=422)
    assert problem["errors"][0]["field"] == "state.turn"


# --- ruling derived-cards: turrets and speeds on the printed cards' rule --------------------

# Main turrets and designed speed (knots) of every ship of the catalog.
MAIN_TURRETS = {
    "King George V": 3,  # two quadruple and one twin 14"
    "Hood": 4,  # four twin 15"
    "Graf Spee": 2,  # two triple 11"
    "Nürnburg": 3,  # three triple 5.9"
    "Nelson": 3,  # three triple 16"
    "Prinz Eugen": 4,  # four twin 8"
    "Ajax": 4,  # four twin 6"
}
DESIGNED_KNOTS = {
    "King George V": 28,
    "Hood": 31,
    "Graf Spee": 28.5,
    "Nürnburg": 32,
    "Nelson": 23,
    "Prinz Eugen": 32,
    "Ajax": 32.5,
}
CRUISERS = ("CA", "CL")


def turret_rating(ship_type: str, turrets: int) -> int:
    """Two per main turret on a capital ship; four for three on a cruiser (Nürnburg 3 -> 4)."""
    if ship_type in CRUISERS:
        return math.floor(turrets * 4 / 3 + 0.5)
    return 2 * turrets


@pytest.mark.parametrize("name", list(CATALOG))
def test_turret_ratings_follow_the_main_turrets(name: str) -> None:
    """Hood's four twins give 8; Prinz Eugen's four twins, cruiser turrets, give 5 like Ajax."""
    card = CATALOG[name]
    assert card.turret == turret_rating(card.type, MAIN_TURRETS[name]), name


@pytest.mark.parametrize("name", list(CATALOG))
def test_speeds_are_designed_knots_over_three_rounded_down(name: str) -> None:
    card = CATALOG[name]
    expected = math.floor(DESIGNED_KNOTS[name] / 3)
    if name == "Graf Spee":
        # The printed card's 8 sits one below 28.5 kn: the card wins, as printed.
        assert (card.speed, expected) == (8, 9)
    else:
        assert card.speed == expected, name
    # Rounding to the nearest would not give the printed Nürnburg its 10.
    assert round(32 / 3) == 11 and CATALOG["Nürnburg"].speed == 10


def test_the_derived_cards_ruling_states_the_rule_the_cards_follow(client: FlaskClient) -> None:
    rulings = client.get(BASE).get_json()["rulings"]
    text = next(r["ruling"] for r in rulings if r["id"] == "derived-cards")
    assert "two per turret on a capital ship" in text and "Prinz Eugen four twins -> 5" in text
    assert "Prinz Eugen 32 kn -> 10" in text and "Ajax 32.5 kn -> 10" in text
    assert resolve(client, "damage", {"ship": {"ship": "Prinz Eugen"}, "hits": "TTTT"})["result"][
        "ship"
    ]["can_fire"]


# --- the two calls of one turn verify as one turn in a game log -----------------------------

VERIFIER = Path(__file__).resolve().parent.parent / "tools" / "verify_dice.py"


def chained(client: FlaskClient, body: dict[str, Any], log: list[dict[str, Any]]) -> None:
    if log:
        body = {**body, "prev": receipt_hash(log[-1])}
    log.append(post(client, body))


def pending_game(client: FlaskClient, seed: str) -> list[dict[str, Any]]:
    """Turns 1 to 3 of a seeded game, one nonce a turn, each asked twice: pending, finished."""
    log: list[dict[str, Any]] = []
    state: dict[str, Any] = dict(START)
    for nonce in (1, 2, 3):
        dice = {"seed": seed, "nonce": nonce}
        chained(client, {"state": state, "dice": dice}, log)
        chained(client, {"state": state, "player_action": "OB", "dice": dice}, log)
        state = log[-1]["result"]["state"]
    return log


def both_verdicts(client: FlaskClient, log: list[dict[str, Any]], tmp_path: Path) -> list[Any]:
    service = client.post("/v1/receipts/verify", json=log).get_json()
    (tmp_path / "jwks.json").write_text(json.dumps(client.get("/.well-known/jwks.json").json))
    (tmp_path / "log.json").write_text(json.dumps(log))
    command = [sys.executable, "-I", str(VERIFIER), "--json", "--jwks", str(tmp_path / "jwks.json")]
    done = subprocess.run(
        [*command, str(tmp_path / "log.json")], capture_output=True, text=True, timeout=60
    )
    tool = json.loads(done.stdout)
    for report in (service, tool):
        assert all(entry["signature_valid"] for entry in report["entries"]), report
    return [(report["valid"], report["log"]["codes"]) for report in (service, tool)]


def test_a_pending_turn_and_its_finish_verify_as_one_turn(
    client: FlaskClient, tmp_path: Path
) -> None:
    seed = next(
        f"one-turn-{n}"
        for n in range(50)
        if client.post(
            TURN, json={"state": START, "dice": {"seed": f"one-turn-{n}", "nonce": 1}}
        ).status_code
        == 200
        and not post(
            client,
            {"state": START, "player_action": "OB", "dice": {"seed": f"one-turn-{n}", "nonce": 1}},
        )["result"]["game_over"]
    )
    log = pending_game(client, seed)
    assert "pending" in log[0]["result"] and log[1]["dice"]["nonce"] == 1
    assert both_verdicts(client, log, tmp_path) == [(True, []), (True, [])]

    # Asking the finished turn again (another Action on the same dice) is a replay.
    again = post(
        client,
        {
            "state": START,
            "player_action": "C",
            "dice": {"seed": seed, "nonce": 1},
            "prev": receipt_hash(log[1]),
        },
    )
    replayed = [log[0], log[1], again]
    assert both_verdicts(client, replayed, tmp_path) == [
        (False, ["nonce-repeat"]),
        (False, ["nonce-repeat"]),
    ]
    # A pending turn thrown away, the game going on at the next nonce, is found out.
    skipped = post(
        client,
        {
            "state": START,
            "player_action": "OB",
            "dice": {"seed": seed, "nonce": 2},
            "prev": receipt_hash(log[0]),
        },
    )
    assert both_verdicts(client, [log[0], skipped], tmp_path) == [
        (False, ["pending-unfinished"]),
        (False, ["pending-unfinished"]),
    ]
    # So is a finish whose request is not the pending one (another state).
    other = {**START, "range": "Medium"}
    moved = post(
        client,
        {
            "state": other,
            "player_action": "OB",
            "dice": {"seed": seed, "nonce": 1},
            "prev": receipt_hash(log[0]),
        },
    )
    assert both_verdicts(client, [log[0], moved], tmp_path) == [
        (False, ["pending-unfinished", "nonce-repeat"]),
        (False, ["pending-unfinished", "nonce-repeat"]),
    ]


def seed_led_by(client: FlaskClient, first: str) -> str:
    """A seed whose nonce 1 gives ``first`` the initiative, and whose turn 1 leaves a game."""
    for n in range(60):
        seed = f"led-by-{first}-{n}"
        dice = {"seed": seed, "nonce": 1}
        waiting = post(client, {"state": START, "dice": dice})["result"]["pending"]
        done = post(client, {"state": START, "player_action": "OB", "dice": dice})
        if waiting["first"] == first and not done["result"]["game_over"]:
            return seed
    raise AssertionError(f"no seed gives the {first} the initiative")


@pytest.mark.parametrize("first", ["player", "enemy"])
def test_a_pending_turn_led_by_either_side_and_its_finish_verify_as_one_turn(
    client: FlaskClient, tmp_path: Path, first: str
) -> None:
    seed = seed_led_by(client, first)
    log = pending_game(client, seed)
    assert log[0]["result"]["pending"]["first"] == first
    assert (log[0]["result"]["pending"]["enemy_action"] is None) is (first == "player")
    assert left_pending(log[0]) and finishes_pending_turn(log[0], log[1])
    assert both_verdicts(client, log, tmp_path) == [(True, []), (True, [])]
    # Finished with other dice: the next nonce throws the turn away; another seed is
    # another game.
    for dice, codes in (
        ({"seed": seed, "nonce": 2}, ["pending-unfinished"]),
        ({"seed": f"{seed}-other", "nonce": 1}, ["another-seed"]),
    ):
        body = {"state": START, "player_action": "OB", "dice": dice, "prev": receipt_hash(log[0])}
        other = post(client, body)
        assert not finishes_pending_turn(log[0], other)
        assert both_verdicts(client, [log[0], other], tmp_path) == [(False, codes)] * 2


OTHER_READINGS = {
    "straddle-21-plus": "no-effect",
    "gun-size-bands": "printed-only",
    "simultaneous-actions": "in-initiative-order",
    "initiative-in-turn": "player-commits",
    "torpedoes-are-not-guns": "silenced-cannot-launch",
}


def test_a_seeded_game_played_with_the_other_readings_verifies(
    client: FlaskClient, tmp_path: Path
) -> None:
    """Every turn signed with the readings it was played under, and the log holds."""
    log: list[dict[str, Any]] = []
    state: dict[str, Any] = {**START, "player": {"ship": "Hood"}}
    for nonce in range(1, 5):  # a few turns: a verify body has a size limit
        body = {"state": state, "player_action": "C", "rules": OTHER_READINGS}
        chained(client, {**body, "dice": {"seed": "other-readings", "nonce": nonce}}, log)
        assert log[-1]["rules"] == OTHER_READINGS
        if log[-1]["result"]["game_over"]:
            break
        state = log[-1]["result"]["state"]
    assert len(log) >= 2
    assert both_verdicts(client, log, tmp_path) == [(True, []), (True, [])]
    # The readings are signed: a log whose entry names another reading no longer verifies.
    log[0]["rules"]["straddle-21-plus"] = "as-20"
    service, tool = both_verdicts_unsigned(client, log, tmp_path)
    assert service[0] is False and tool[0] is False


def both_verdicts_unsigned(
    client: FlaskClient, log: list[dict[str, Any]], tmp_path: Path
) -> list[Any]:
    """Both verdicts, for a log whose signatures may not hold."""
    service = client.post("/v1/receipts/verify", json=log).get_json()
    (tmp_path / "jwks.json").write_text(json.dumps(client.get("/.well-known/jwks.json").json))
    (tmp_path / "log.json").write_text(json.dumps(log))
    command = [sys.executable, "-I", str(VERIFIER), "--json", "--jwks", str(tmp_path / "jwks.json")]
    done = subprocess.run(
        [*command, str(tmp_path / "log.json")], capture_output=True, text=True, timeout=60
    )
    tool = json.loads(done.stdout)
    return [
        (report["valid"], report["entries"][0]["signature_valid"]) for report in (service, tool)
    ]


# Which pairs are one turn: ``finishes_pending_turn`` decides whether the second call of a turn
# left ``result.pending`` finishes it (the same request plus ``player_action``, its rolls
# beginning with the pending answer's) or is something else. Each case below changes exactly one
# thing in a finishing pair, and the answer is then False.

OPENING = [
    {"label": "initiative: player", "notation": "1d6", "values": [2], "total": 2},
    {"label": "initiative: enemy", "notation": "1d6", "values": [5], "total": 5},
]
BODY = {
    "player": {"ship": "cruiser", "speed": 4},
    "enemy": {"ship": "destroyer", "speed": 5},
    "dice": {"seed": "game-seed", "nonce": 7},
}


DICE = {"mode": "seeded", "seed": "game-seed", "nonce": 7, "seed_source": "client"}
READINGS = {"straddle-21-plus": "as-20", "initiative-in-turn": "player-reacts"}


def pending_answer() -> Doc:
    """The first call: no player_action, the enemy has the initiative, the turn waits."""
    return {
        "ruleset": "salvo-solo",
        "step": "turn",
        "result": {"pending": {"waiting_for": "player_action"}},
        "rolls": copy.deepcopy(OPENING),
        "dice": dict(DICE),
        "rules": dict(READINGS),
        "provenance": {"request": {"body": {**copy.deepcopy(BODY), "prev": "receipt-1"}}},
    }


def finishing_answer() -> Doc:
    """The second call: the same body plus player_action (its prev names the first call),
    rolling the same opening dice again and then the rest of the turn."""
    more = {"label": "enemy action", "notation": "1d6", "values": [4], "total": 4}
    body = {**copy.deepcopy(BODY), "player_action": "fire", "prev": "receipt-2"}
    return {
        "ruleset": "salvo-solo",
        "step": "turn",
        "result": {"hits": 1},
        "rolls": [*copy.deepcopy(OPENING), more],
        "dice": dict(DICE),
        "rules": dict(READINGS),
        "provenance": {"request": {"body": body}},
    }


def test_the_same_request_with_player_action_and_the_same_dice_finishes_the_turn() -> None:
    before, after = pending_answer(), finishing_answer()
    assert left_pending(before)
    assert finishes_pending_turn(before, after) is True
    # prev differs between the two calls by nature: it is set aside, whatever it holds
    del after["provenance"]["request"]["body"]["prev"]
    assert finishes_pending_turn(before, after) is True


def test_the_readings_in_force_and_the_dice_shown_are_compared_not_the_request_text() -> None:
    """rules left out, partly given or spelled out are the same turn (the answers' rules
    echo is compared); fresh dice are finished with the seed and nonce the pending answer
    names (only who chose the seed differs between the answers)."""
    before, after = pending_answer(), finishing_answer()
    after["provenance"]["request"]["body"]["rules"] = dict(READINGS)
    before["provenance"]["request"]["body"]["rules"] = {"straddle-21-plus": "as-20"}
    assert finishes_pending_turn(before, after) is True
    del before["provenance"]["request"]["body"]["dice"]  # fresh dice: the service's seed
    before["dice"]["seed_source"] = "server"
    after["provenance"]["request"]["body"]["dice"] = {"seed": "game-seed", "nonce": 7}
    assert finishes_pending_turn(before, after) is True


# (which document, what changes in it): each makes the pair not one turn.
NOT_ONE_TURN: dict[str, tuple[str, Callable[[Doc], None]]] = {
    "pending from another ruleset": ("before", set_at("ruleset", "salvo-grid")),
    "finish from another ruleset": ("after", set_at("ruleset", "fleet-action")),
    "pending from another step": ("before", set_at("step", "fire")),
    "finish from another step": ("after", set_at("step", "fire")),
    "pending answer had no result": ("before", drop_at("result")),
    "pending answer's result is not an object": ("before", set_at("result", ["pending"])),
    "nothing was pending": ("before", set_at("result", {"hits": 0})),
    "pending is not an object": ("before", set_at("result.pending", True)),
    "pending answer without provenance": ("before", drop_at("provenance")),
    "finish without provenance": ("after", drop_at("provenance")),
    "pending provenance not an object": ("before", set_at("provenance", "signed")),
    "finish provenance not an object": ("after", set_at("provenance", ["request"])),
    "pending provenance without the request": ("before", drop_at("provenance.request")),
    "finish provenance without the request": ("after", drop_at("provenance.request")),
    "pending request not an object": ("before", set_at("provenance.request", "POST")),
    "finish request not an object": ("after", set_at("provenance.request", 3)),
    "pending request without a body": ("before", drop_at("provenance.request.body")),
    "finish request without a body": ("after", drop_at("provenance.request.body")),
    "pending body not an object": ("before", set_at("provenance.request.body", "{}")),
    "finish body not an object": ("after", set_at("provenance.request.body", [1])),
    "the pending call already had player_action": (
        "before",
        set_at("provenance.request.body.player_action", "fire"),
    ),
    "the second call has no player_action": (
        "after",
        drop_at("provenance.request.body.player_action"),
    ),
    "the second call changes another member": (
        "after",
        set_at("provenance.request.body.enemy", {"ship": "destroyer", "speed": 6}),
    ),
    "the second call drops a member": ("after", drop_at("provenance.request.body.enemy")),
    "the second call adds a member": ("after", set_at("provenance.request.body.weather", "Fair")),
    "the second answer shows other dice": ("after", set_at("dice.nonce", 8)),
    "the second answer shows another seed": ("after", set_at("dice.seed", "another")),
    "the second answer shows no dice": ("after", drop_at("dice")),
    "the second answer reads a ruling otherwise": (
        "after",
        set_at("rules.straddle-21-plus", "no-effect"),
    ),
    "the pending answer's rolls are not a list": ("before", set_at("rolls", {"0": OPENING[0]})),
    "the pending answer has no rolls member": ("before", drop_at("rolls")),
    "the second answer's rolls are not a list": ("after", set_at("rolls", "2,5,4")),
    "the second answer has no rolls member": ("after", drop_at("rolls")),
    "the second answer rolls other opening dice": (
        "after",
        lambda doc: doc["rolls"][0].update(values=[3], total=3),
    ),
    "the second answer rolls the opening in another order": (
        "after",
        lambda doc: doc["rolls"].insert(0, doc["rolls"].pop(1)),
    ),
}


@pytest.mark.parametrize("case", NOT_ONE_TURN, ids=list(NOT_ONE_TURN))
def test_a_pair_that_differs_from_one_turn_is_not_one_turn(case: str) -> None:
    which, change = NOT_ONE_TURN[case]
    before, after = pending_answer(), finishing_answer()
    change(before if which == "before" else after)
    assert finishes_pending_turn(before, after) is False


def test_the_second_answer_rolling_fewer_dice_than_the_opening_is_not_one_turn() -> None:
    before, after = pending_answer(), finishing_answer()
    after["rolls"] = after["rolls"][:1]
    assert finishes_pending_turn(before, after) is False


@pytest.mark.parametrize("other", [None, "turn", ["turn"], 7])
def test_documents_that_are_not_objects_are_not_one_turn(other: Any) -> None:
    assert finishes_pending_turn(other, finishing_answer()) is False
    assert finishes_pending_turn(pending_answer(), other) is False


def test_a_pending_turn_thrown_away_is_reported_in_words_and_breaks_the_nonces(
    client: FlaskClient,
) -> None:
    """A turn answered pending, then the game going on at the next nonce as if it had not
    been asked: the log check says which entry threw which turn away, and the nonces are
    not consecutive (false, not merely falsy: the report is JSON for third parties)."""
    seed, pending = next(
        (seed, response.get_json())
        for seed in (f"thrown-away-{n}" for n in range(60))
        for response in [
            client.post(TURN, json={"state": START, "dice": {"seed": seed, "nonce": 1}})
        ]
        if response.status_code == 200
    )
    assert "pending" in pending["result"]
    skipped = client.post(
        TURN,
        json={
            "state": START,
            "player_action": "OB",
            "dice": {"seed": seed, "nonce": 2},
            "prev": receipt_hash(pending),
        },
    )
    assert skipped.status_code == 200, skipped.get_json()
    report = verify(client, [pending, skipped.get_json()])["log"]
    assert report["codes"] == ["pending-unfinished"]
    assert report["problems"] == [
        "entry 2 does not finish the turn entry 1 left pending (the same request with "
        "player_action and the dice pending.dice names): that turn was thrown away"
    ]
    assert report["nonces_consecutive"] is False
    assert (report["chain_unbroken"], report["one_seed"]) == (True, True)


@pytest.mark.parametrize("case", [None, *NOT_ONE_TURN], ids=["one turn", *NOT_ONE_TURN])
def test_the_standalone_verifier_tells_one_turn_as_the_service_does(case: str | None) -> None:
    before, after = pending_answer(), finishing_answer()
    if case is not None:
        which, change = NOT_ONE_TURN[case]
        change(before if which == "before" else after)
    assert verify_dice.finishes_pending_turn(before, after) is finishes_pending_turn(before, after)


# --- torpedoes in a turn hit the other ship -----------------------------------------------

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


# --- a whole turn: a straddle remembered, a ship passed over, out of range ----------------


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


# --- a pending turn answers every field of a turn, nothing decided yet --------------------


def test_pending_turn_answers_no_reason_yet(client: FlaskClient) -> None:
    # Ajax against Graf Spee at Long: initiative 3 (+1, Graf Spee slower) gives Graf Spee
    # the initiative, action die 1 (Close); the turn waits for the player's Action.
    state = {"turn": 1, "weather": "Fair", "range": "Long", "player": AJAX, "enemy": SPEE}
    result = resolve(client, "turn", {"state": state}, [3, 1])["result"]
    every = {"game_over", "winner", "draw", "reason", "state", "actions", "ships", "events"}
    every.add("pending")
    assert set(result) == every
    assert (result["game_over"], result["winner"], result["draw"], result["reason"]) == (
        False,
        None,
        False,
        None,
    )


# --- under player-commits a turn without the player's Action is refused -------------------


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
