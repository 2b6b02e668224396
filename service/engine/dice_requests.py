"""The ``dice`` a request may name to roll the same dice again, as typed values.

A pending Salvo! turn hands one back for its finishing call (``DiceSource.again``); the
request schemas of service/http/endpoints/dice_in.py read the same members, and
tests/test_typed_results.py holds these to the components they answer with. A request may
leave the nonce out (it is then 0), so it is not required here either, though ``again``
always writes it. No ``from __future__ import annotations``: the test reads NotRequired
at run time.
"""

from typing import NotRequired, TypedDict


class SeededDice(TypedDict):
    seed: str
    nonce: NotRequired[int]


class SealedDice(TypedDict):
    sealed: str
    client_seed: str
    nonce: NotRequired[int]


Again = SeededDice | SealedDice | None
