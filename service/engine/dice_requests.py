"""The ``dice`` a request sends, as shapes: seeded, supplied or sealed (engine/shape.py).

Each is the one definition of its JSON: the request schemas and their components are
derived from it (service/http/endpoints/dice_in.py turns the loaded shape into the dice it
rolls), and ``DiceSource.again`` writes the seeded or sealed one a later call sends back
(``Again``: a pending Salvo! turn's finishing call, a fleet action's next activation). A
request may leave the nonce out (it is then 0); ``again`` always writes it. The limits of
what a request may ask of the dice live here, with the members they bound.
"""

from dataclasses import dataclass
from typing import Annotated

from .typed import Check, Doc, JsonObject, JsonOf, Limits

MAX_SIDES = 1000
MAX_DICE_PER_REQUEST = 1000
MAX_NONCE = 2**53 - 1
MAX_SEED = 256
MAX_TOKEN = 512  # a sealed token (POST /v1/seeds), never longer


def _unicode(text: str) -> bool:
    """A seed is hashed as UTF-8: a lone surrogate escape ("\\ud800") has no UTF-8 form."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


UNICODE = Check(_unicode, "Not valid Unicode text (a lone surrogate escape).")
Nonce = Annotated[
    int,
    Limits(minimum=0, maximum=MAX_NONCE),
    Doc("Counts up through a game (turn or roll number)"),
]


@dataclass(frozen=True)
class SeededDice:
    """The service rolls, deterministically, from a seed and a nonce."""

    seed: Annotated[
        str,
        Limits(least=1, most=MAX_SEED),
        UNICODE,
        Doc("Any text; a game keeps one seed", example="game-42"),
    ]
    nonce: Nonce = 0


@dataclass(frozen=True)
class SuppliedDice:
    """Dice the player rolled at the table, in the order the step consumes them."""

    values: Annotated[
        tuple[Annotated[int, Limits(minimum=1, maximum=MAX_SIDES)], ...],
        Limits(least=1, most=MAX_DICE_PER_REQUEST),
    ]


@dataclass(frozen=True)
class SealedDice:
    """The service rolls from a sealed server seed (POST /v1/seeds) and the client's seed."""

    sealed: Annotated[
        str, Limits(least=1, most=MAX_TOKEN), Doc("The token POST /v1/seeds returned")
    ]
    client_seed: Annotated[
        str,
        Limits(least=1, most=MAX_SEED),
        UNICODE,
        Doc(
            "Any text, chosen before the seal; if the token binds a client seed "
            "(`client_seed_sha256`), exactly the seed whose SHA-256 it binds",
            example="ajax",
        ),
    ]
    nonce: Nonce = 0


DiceRequest = SeededDice | SuppliedDice | SealedDice

# What ``again`` writes: the JSON of the seeded or sealed dice that roll these dice again,
# or None where a request cannot say them in full (supplied dice).
Again = Annotated[
    JsonObject | None,
    JsonOf(f"{__name__}.SeededDice", others=(f"{__name__}.SealedDice",)),
]
