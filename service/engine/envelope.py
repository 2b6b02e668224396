"""The envelope every step's answer is written in, as typed values: the one definition of
its rolls, checks and dice used (the HTTP layer derives their schemas and components, and
adds what it signs: the provenance and the receipt). No ``from __future__ import
annotations``: the schemas read NotRequired at run time.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from .dice_modes import DiceMode
from .typed import Doc, Fixed, JsonObject, JsonOf, Limits

# RFC 3339 in UTC, to the second, as the service writes a time (never ``+00:00``).
UTC_TIME = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"

SeedSource = Annotated[
    Literal["client", "server"],
    Fixed(
        "SeedSource",
        "Who chose the seed: the client, or the service (fresh, from its randomness).",
    ),
]


class Roll(TypedDict):
    """Dice rolled together for one purpose (``dice.Roll``, as an answer lists it)."""

    label: Annotated[str, Doc("What the dice were for")]
    notation: Annotated[str, Doc(example="3d6")]
    values: list[int]
    total: int


class Check(TypedDict):
    """How a roll's total was modified and what it was compared with."""

    roll: Annotated[str, Doc("Label of the roll")]
    natural: Annotated[int, Doc("The dice total")]
    applied: list[Annotated[JsonObject, JsonOf("service.engine.resolution.Modifier", written=True)]]
    final: Annotated[int, Doc("Total after modifiers")]
    compared_with: str
    outcome: str


class DiceUsed(TypedDict):
    """The dice a step rolled, as a verifier re-derives them."""

    mode: DiceMode
    algorithm: NotRequired[str]
    seed: NotRequired[str]
    nonce: NotRequired[int]
    seed_source: NotRequired[SeedSource]
    values: NotRequired[list[int]]
    commitment: NotRequired[Annotated[str, Doc("Sealed: SHA-256 of the server seed")]]
    client_seed: NotRequired[str]
    reveal_after: NotRequired[
        Annotated[
            str,
            Limits(pattern=UTC_TIME),
            Doc("Sealed: when the seed is revealed", example="2026-11-30T09:30:00Z"),
        ]
    ]
    client_seed_sha256: NotRequired[
        Annotated[
            str,
            Doc(
                "Sealed with a bound token: the SHA-256 of the client seed the token binds "
                "(the roller committed to it before the seal); absent for an unbound token, "
                "whose holder could have tried other client seeds"
            ),
        ]
    ]


class Envelope(TypedDict):
    """What every step's answer carries beside its result (``Resolution.envelope``)."""

    ruleset: str | None
    step: str
    rolls: list[Roll]
    modifiers: list[Check]
    dice: DiceUsed


class OddsOutcome(TypedDict):
    """One outcome of an odds answer, beside its result: its chance, exact and as a float."""

    probability: Annotated[str, Doc(example="5/72")]
    p: float


class Odds(TypedDict):
    """What every odds answer carries beside its outcomes (``step_odds``)."""

    ruleset: str | None
    step: str
