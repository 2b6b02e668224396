"""Receipts guards: when a pending Salvo! turn and the request after it count as one turn.

``finishes_pending_turn`` decides whether the second call of a turn left ``result.pending``
finishes it (the same request plus ``player_action``, its rolls beginning with the pending
answer's) or is something else. A mutation run of the receipts module found none of its
refusals tested one by one; each test below changes exactly one thing in a finishing pair
and expects the answer to flip to False.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from service.receipts.checking import finishes_pending_turn, left_pending

Doc = dict[str, Any]

OPENING = [
    {"label": "initiative: player", "notation": "1d6", "values": [2], "total": 2},
    {"label": "initiative: enemy", "notation": "1d6", "values": [5], "total": 5},
]
BODY = {
    "player": {"ship": "cruiser", "speed": 4},
    "enemy": {"ship": "destroyer", "speed": 5},
    "dice": {"seed": "game-seed", "nonce": 7},
}


def pending() -> Doc:
    """The first call: no player_action, the enemy has the initiative, the turn waits."""
    return {
        "ruleset": "salvo-solo",
        "step": "turn",
        "result": {"pending": {"waiting_for": "player_action"}},
        "rolls": copy.deepcopy(OPENING),
        "provenance": {"request": {"body": {**copy.deepcopy(BODY), "prev": "receipt-1"}}},
    }


def finishing() -> Doc:
    """The second call: the same body plus player_action (its prev names the first call),
    rolling the same opening dice again and then the rest of the turn."""
    more = {"label": "enemy action", "notation": "1d6", "values": [4], "total": 4}
    body = {**copy.deepcopy(BODY), "player_action": "fire", "prev": "receipt-2"}
    return {
        "ruleset": "salvo-solo",
        "step": "turn",
        "result": {"hits": 1},
        "rolls": [*copy.deepcopy(OPENING), more],
        "provenance": {"request": {"body": body}},
    }


def test_the_same_request_with_player_action_and_the_same_dice_finishes_the_turn() -> None:
    before, after = pending(), finishing()
    assert left_pending(before)
    assert finishes_pending_turn(before, after) is True
    # prev differs between the two calls by nature: it is set aside, whatever it holds
    del after["provenance"]["request"]["body"]["prev"]
    assert finishes_pending_turn(before, after) is True


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    keys = path.split(".")

    def change(doc: Doc) -> None:
        target = doc
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return change


def _drop(path: str) -> Callable[[Doc], None]:
    keys = path.split(".")

    def change(doc: Doc) -> None:
        target = doc
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]

    return change


# (which document, what changes in it): each makes the pair not one turn.
NOT_ONE_TURN: dict[str, tuple[str, Callable[[Doc], None]]] = {
    "pending from another ruleset": ("before", _set("ruleset", "salvo-grid")),
    "finish from another ruleset": ("after", _set("ruleset", "fleet-action")),
    "pending from another step": ("before", _set("step", "fire")),
    "finish from another step": ("after", _set("step", "fire")),
    "pending answer had no result": ("before", _drop("result")),
    "pending answer's result is not an object": ("before", _set("result", ["pending"])),
    "nothing was pending": ("before", _set("result", {"hits": 0})),
    "pending is not an object": ("before", _set("result.pending", True)),
    "pending answer without provenance": ("before", _drop("provenance")),
    "finish without provenance": ("after", _drop("provenance")),
    "pending provenance not an object": ("before", _set("provenance", "signed")),
    "finish provenance not an object": ("after", _set("provenance", ["request"])),
    "pending provenance without the request": ("before", _drop("provenance.request")),
    "finish provenance without the request": ("after", _drop("provenance.request")),
    "pending request not an object": ("before", _set("provenance.request", "POST")),
    "finish request not an object": ("after", _set("provenance.request", 3)),
    "pending request without a body": ("before", _drop("provenance.request.body")),
    "finish request without a body": ("after", _drop("provenance.request.body")),
    "pending body not an object": ("before", _set("provenance.request.body", "{}")),
    "finish body not an object": ("after", _set("provenance.request.body", [1])),
    "the pending call already had player_action": (
        "before",
        _set("provenance.request.body.player_action", "fire"),
    ),
    "the second call has no player_action": (
        "after",
        _drop("provenance.request.body.player_action"),
    ),
    "the second call changes another member": (
        "after",
        _set("provenance.request.body.enemy", {"ship": "destroyer", "speed": 6}),
    ),
    "the second call drops a member": ("after", _drop("provenance.request.body.enemy")),
    "the second call adds a member": ("after", _set("provenance.request.body.rules", {})),
    "the second call uses other dice": ("after", _set("provenance.request.body.dice.nonce", 8)),
    "the pending answer's rolls are not a list": ("before", _set("rolls", {"0": OPENING[0]})),
    "the pending answer has no rolls member": ("before", _drop("rolls")),
    "the second answer's rolls are not a list": ("after", _set("rolls", "2,5,4")),
    "the second answer has no rolls member": ("after", _drop("rolls")),
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
    before, after = pending(), finishing()
    change(before if which == "before" else after)
    assert finishes_pending_turn(before, after) is False


def test_the_second_answer_rolling_fewer_dice_than_the_opening_is_not_one_turn() -> None:
    before, after = pending(), finishing()
    after["rolls"] = after["rolls"][:1]
    assert finishes_pending_turn(before, after) is False


@pytest.mark.parametrize("other", [None, "turn", ["turn"], 7])
def test_documents_that_are_not_objects_are_not_one_turn(other: Any) -> None:
    assert finishes_pending_turn(other, finishing()) is False
    assert finishes_pending_turn(pending(), other) is False
