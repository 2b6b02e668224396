"""The answer of a roll in dice notation (``POST /v1/dice/roll``), as typed values: the one
definition of its shape (the HTTP layer derives the schema and the document from it). No
``from __future__ import annotations``: the schema reads NotRequired at run time."""

from typing import Annotated, Literal, NotRequired, TypedDict

from .typed import Doc, Fixed

DieFate = Annotated[
    Literal["kept", "dropped", "rerolled", "compounded"],
    Fixed(
        "DieFate",
        "What became of one die: `kept` (it counts), `dropped` (a keep or drop modifier "
        "left it out), `rerolled` (a reroll replaced it), `compounded` (a compounding "
        "explosion added it to the die it exploded from).",
    ),
]
DieCause = Annotated[
    Literal["rolled", "reroll", "explosion", "unique"],
    Fixed(
        "DieCause",
        "Why a die was drawn: `rolled` (one of the term's N dice), `reroll` (it replaces "
        "the die `of`), `explosion` (the die `of` exploded), `unique` (it replaces the die "
        "`of`, whose value an earlier die showed).",
    ),
]
DieCritical = Annotated[
    Literal["success", "failure", "both"],
    Fixed(
        "DieCritical",
        "A critical mark (`cs`, `cf`): the die's value meets the critical success point, "
        "the critical failure point, or both. It changes no total.",
    ),
]
DieSuccess = Annotated[
    Literal["success", "failure", "neither"],
    Fixed(
        "DieSuccess",
        "How a kept die of a term that counts successes counts: `success` (+1), "
        "`failure` (-1), `neither` (0).",
    ),
]
TermCounts = Annotated[
    Literal["sum", "successes"],
    Fixed(
        "TermCounts",
        "What a term adds up: the `sum` of its kept dice, or its `successes` (less its failures).",
    ),
]


class RolledDie(TypedDict):
    die: Annotated[int, Doc("Its number in the term, in the order drawn (1 to N first)")]
    face: Annotated[int, Doc("The face drawn (a Fate die: -1, 0 or +1)")]
    value: Annotated[
        int,
        Doc(
            "What it counts: the face (one of the N dice: after min and max; a penetrating "
            "explosion: one less); a compounding die adds its explosions"
        ),
    ]
    fate: DieFate
    cause: DieCause
    of: Annotated[int | None, Doc("The die it rerolls or explodes from (null for the first N)")]
    exploded: Annotated[bool, Doc("Its value met the explosion: it drew the next die")]
    penetrated: NotRequired[
        Annotated[bool, Doc("It exploded penetrating (`!p`): the die it drew counts one less")]
    ]
    success: NotRequired[DieSuccess]
    critical: NotRequired[DieCritical]


class RolledTerm(TypedDict):
    label: Annotated[str, Doc("The term as written back", example="4d6kh3")]
    notation: Annotated[str, Doc("The term as written back", example="4d6kh3")]
    sign: Annotated[int, Doc("+1 if the term is added, -1 if it is taken away")]
    counts: TermCounts
    values: Annotated[list[int], Doc("The values of the dice in the pool (kept and dropped)")]
    total: Annotated[int, Doc("What the term adds (before its sign): kept sum or successes")]
    dice: NotRequired[
        Annotated[
            list[RolledDie],
            Doc(
                "Every die drawn for the term, in the order drawn, and what became of it "
                "(left out for a plain NdS, whose dice all count as drawn)"
            ),
        ]
    ]


class RollResult(TypedDict):
    notation: Annotated[str, Doc("The notation as written back", example="4d6kh3+2")]
    total: Annotated[
        int,
        Doc(
            "Every term with its sign, and the constant; or, for a notation with arithmetic "
            "(`floor(4d6kh3/2)`), its value from the terms' totals"
        ),
    ]
    constant: int
    terms: list[RolledTerm]


class DiceOddsResult(TypedDict):
    total: Annotated[int, Doc("A total the notation can give (its successes, if it counts)")]
