"""What each salvo-solo step hands back, as typed dicts: one per result and nested answer.

Each answer is defined here once; what a request sends, and a state an answer hands back
to be sent again, is a shape (ships.py, steps.py, advice.py), which an answer names with
``JsonOf``. The step functions return these, so mypy checks every
look-up a composite step makes in the result of another; the answer schemas and their
OpenAPI components are derived from them (service/http/document/derive.py), and each fixed set
(``Annotated[Literal[...], Fixed(...)]``) is the one definition its tables, types and enum
component read (service/engine/typed.py). A turn's events are a union told apart by
``phase``, each a one-value ``Literal``: the derived ``oneOf`` names it as its discriminator.

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
derivation reads them.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from ...engine.dice_requests import Again
from ...engine.typed import Doc, Fixed, Headline, Hits, JsonObject, JsonOf, Limits

SalvoSoloWeather = Annotated[
    Literal["Fine", "Fair", "Misty", "Stormy"],
    Fixed("SalvoSoloWeather", "The weather of the game."),
]


class SalvoSoloWeatherResult(TypedDict):
    weather: Annotated[SalvoSoloWeather, Headline()]
    initial_range_modifier: int


SalvoSoloRange = Annotated[
    Literal["Short", "Medium", "Medium-Long", "Long", "Extreme"],
    Fixed("SalvoSoloRange", "A range band, nearest first."),
]


class SalvoSoloRangeResult(TypedDict):
    range: Annotated[SalvoSoloRange, Headline()]


SalvoSoloSide = Annotated[
    Literal["player", "enemy"],
    Fixed("SalvoSoloSide", "One of the two ships' sides."),
]


class SalvoSoloInitiativeResult(TypedDict):
    first: Annotated[SalvoSoloSide, Doc("Who acts first")]


SalvoSoloAction = Annotated[
    Literal["C", "OB", "W"],
    Fixed("SalvoSoloAction", "A ship's Action: C (Close), OB (Offer Broadside), W (Withdraw)."),
]


class SalvoSoloEnemyActionResult(TypedDict):
    action: SalvoSoloAction
    reason: str


SalvoSoloBearing = Annotated[
    Literal["bow", "broadside", "stern"],
    Fixed("SalvoSoloBearing", "Which guns bear."),
]


class SalvoSoloManeuverResult(TypedDict):
    range: Annotated[SalvoSoloRange | None, Doc("null: out of range")]
    range_change: int
    out_of_range: bool
    game_over: bool
    player_guns_bearing: SalvoSoloBearing
    enemy_guns_bearing: SalvoSoloBearing


class SalvoSoloFireResult(TypedDict):
    straddle: bool
    shots_per_turn: int


SalvoSoloStraddleOutcome = Annotated[
    Literal["NE", "F", "Special", "T", "FS", "Critical", "FF", "TT", "FFST", "FFSST"],
    Fixed(
        "SalvoSoloStraddleOutcome",
        "A row of the Straddle table: NE (no effect), hits (F, T, S), Special or Critical.",
    ),
]

SalvoSoloRollNext = Annotated[
    Literal["special-damage", "critical"],
    Fixed("SalvoSoloRollNext", "The step to roll next on a straddle."),
]

# Hits dealt, one letter each: F (flotation), T (turret), S (speed).
HITS = Annotated[str, Limits(pattern=r"^[FTS]*$")]
SalvoSoloHits = Annotated[HITS, Doc("F, T and S hits, e.g. FFST; empty for none")]


class SalvoSoloStraddleResult(TypedDict):
    outcome: SalvoSoloStraddleOutcome
    hits: SalvoSoloHits
    roll_next: SalvoSoloRollNext | None


class SalvoSoloSpecialDamageResult(TypedDict):
    name: str
    hits: SalvoSoloHits
    fire_control_lost: bool


class SalvoSoloCriticalResult(TypedDict):
    name: str
    hits: SalvoSoloHits


class SalvoSoloTorpedoResult(TypedDict):
    hit: bool
    hits: SalvoSoloHits


SalvoSoloFireControl = Annotated[
    Literal["ready", "lost-next-turn", "lost-this-turn"],
    Fixed("SalvoSoloFireControl", "The state of a ship's fire control."),
]


class SalvoSoloShipStatus(TypedDict):
    name: str
    state: Annotated[JsonObject, JsonOf(f"{__package__}.ships.ShipState")]
    speed: int
    sunk: bool
    can_fire: bool
    must_offer_broadside: bool
    actions: Annotated[
        list[SalvoSoloAction],
        Doc(
            "The Actions the ship may choose next turn (`player_action` of a turn): at speed 0 "
            "only OB. A turn refuses any other"
        ),
    ]


class SalvoSoloDamageResult(TypedDict):
    ship: SalvoSoloShipStatus
    newly_sunk: bool


class SalvoSoloEndOfTurnResult(TypedDict):
    game_over: bool


class SalvoSoloShot(TypedDict):
    shot: int
    fire: SalvoSoloFireResult
    straddle: NotRequired[SalvoSoloStraddleResult]
    special_damage: NotRequired[SalvoSoloSpecialDamageResult]
    critical: NotRequired[SalvoSoloCriticalResult]
    hits: NotRequired[HITS]
    target: SalvoSoloShipStatus


class SalvoSoloAttackResult(TypedDict):
    shots: list[SalvoSoloShot]
    target: SalvoSoloShipStatus
    straddled: bool
    target_sunk: bool


class SalvoSoloAttackOddsResult(TypedDict):
    """What a whole attack does to its target, summed over its shots (an /odds outcome)."""

    flotation_hits: Annotated[int, Doc("F hits dealt"), Hits("flotation")]
    turret_hits: Annotated[int, Doc("T hits dealt"), Hits("turret")]
    speed_hits: Annotated[int, Doc("S hits dealt"), Hits("speed")]
    fire_control_lost: Annotated[bool, Doc("The target newly loses its fire control")]
    speed_lost: Annotated[int, Doc("Current speed lost")]
    silenced: Annotated[bool, Doc("The target has as many T hits as its Turret")]
    sunk: bool
    straddled: Annotated[bool, Doc("The firer has straddled the target (+2 later)")]


# Other spellings of a catalog ship's name a player may type.
SHIP_NAME_ALIASES = {"Nurnburg": "Nürnburg", "Nürnberg": "Nürnburg", "Nurnberg": "Nürnburg"}

SalvoSoloShipName = Annotated[
    Literal["King George V", "Hood", "Graf Spee", "Nürnburg", "Nelson", "Ajax", "Prinz Eugen"],
    Fixed(
        "SalvoSoloShipName",
        "A ship of the catalog (GET /v1/rulesets/salvo-solo/ships).",
        aliases=SHIP_NAME_ALIASES,
    ),
]


SalvoSoloShipType = Annotated[
    Literal["BB", "BC", "PB", "CA", "CL"],
    Fixed("SalvoSoloShipType", "A ship's type, as on its card."),
]

SalvoSoloCardProvenance = Annotated[
    Literal["card", "derived", "custom"],
    Fixed(
        "SalvoSoloCardProvenance",
        "Where a card's figures come from: a published card, derived from one, or the player's.",
    ),
]


class SalvoSoloInitiativeEvent(TypedDict):
    phase: Literal["initiative"]
    result: SalvoSoloInitiativeResult


class SalvoSoloEnemyActionEvent(TypedDict):
    phase: Literal["enemy-action"]
    result: SalvoSoloEnemyActionResult


class SalvoSoloManeuverEvent(TypedDict):
    phase: Literal["maneuver"]
    result: SalvoSoloManeuverResult


class SalvoSoloFireOrderResult(TypedDict):
    first: Annotated[SalvoSoloSide, Doc("Gun sizes tied: who fired first")]


class SalvoSoloFireOrderEvent(TypedDict):
    phase: Literal["fire-order"]
    result: SalvoSoloFireOrderResult


class SalvoSoloHeldFire(TypedDict):
    """A ship that could not fire this turn, and why."""

    fired: Literal[False]
    reason: str


class SalvoSoloFireEvent(TypedDict):
    phase: Literal["fire"]
    result: SalvoSoloAttackResult | SalvoSoloHeldFire
    side: Annotated[SalvoSoloSide, Doc("The firer")]


class SalvoSoloTorpedoEvent(TypedDict):
    phase: Literal["torpedo"]
    result: SalvoSoloTorpedoResult
    side: Annotated[SalvoSoloSide, Doc("The firer")]


class SalvoSoloEndOfTurnEvent(TypedDict):
    phase: Literal["end-of-turn"]
    result: SalvoSoloEndOfTurnResult


# A turn's events, told apart by phase.
SalvoSoloEvent = (
    SalvoSoloInitiativeEvent
    | SalvoSoloEnemyActionEvent
    | SalvoSoloManeuverEvent
    | SalvoSoloFireOrderEvent
    | SalvoSoloFireEvent
    | SalvoSoloTorpedoEvent
    | SalvoSoloEndOfTurnEvent
)


class SalvoSoloPendingTurn(TypedDict):
    """The turn waits for the player's Action: the enemy has the initiative and has chosen,
    or the player has it and commits first."""

    first: Annotated[SalvoSoloSide, Doc("Who has the initiative and acts first")]
    enemy_action: Annotated[
        SalvoSoloAction | None,
        Doc(
            "The enemy's Action when the enemy has the initiative; null when the player has "
            "it: the player commits first and the enemy's Action is rolled by the finishing call"
        ),
    ]
    choose: Annotated[Literal["player_action"], Doc("What to send")]
    choices: Annotated[list[SalvoSoloAction], Doc("The Actions the player may take")]
    dice_used: Annotated[int, Doc("Dice rolled so far; supplied dice resend these first")]
    # The request's own dice components, to finish the turn with.
    dice: Annotated[
        Again,
        Doc(
            "The `dice` the finishing call sends, exactly: the seed and nonce "
            "of seeded dice (for fresh dice, the seed the service chose, so the enemy's Action "
            "stays the one shown), the sealed token, client seed and nonce of sealed dice; "
            "null for supplied dice (resend these values, then the rest of the turn's)"
        ),
    ]
    detail: str


class SalvoSoloNextActions(TypedDict):
    """The Actions each ship of the state handed back may choose next turn."""

    player: Annotated[
        list[SalvoSoloAction],
        Doc("The player's: send one as `player_action`; a turn refuses any other"),
    ]
    enemy: Annotated[list[SalvoSoloAction], Doc("The enemy's: its Action is one of them")]


class SalvoSoloShips(TypedDict):
    """Both ships of the state handed back, each as a ship card draws it."""

    player: SalvoSoloShipStatus
    enemy: SalvoSoloShipStatus


class SalvoSoloTurnResult(TypedDict):
    game_over: bool
    winner: Annotated[SalvoSoloSide | None, Doc("null: none")]
    draw: bool
    reason: str | None
    state: Annotated[
        JsonObject,
        JsonOf(f"{__package__}.steps.GameState"),
        Doc("Send it back as the next turn's `state`"),
    ]
    actions: Annotated[
        SalvoSoloNextActions,
        Doc("The Actions each ship of `state` may choose next turn: at speed 0 only OB"),
    ]
    ships: Annotated[
        SalvoSoloShips,
        Doc(
            "Each ship of `state` and what its hits mean for the turn it plays next: speed, "
            "sunk, whether it may fire (not with a fire control lost-next-turn), must Offer "
            "Broadside, and its Actions"
        ),
    ]
    events: Annotated[list[SalvoSoloEvent], Doc("What happened, in order; told apart by `phase`")]
    pending: NotRequired[
        Annotated[
            SalvoSoloPendingTurn,
            Doc(
                "Only while the turn waits for the player's Action; the state is "
                "handed back unchanged"
            ),
        ]
    ]


class SalvoSoloAdviceShare(TypedDict):
    """How often one ending came up in the sampled games, with its 95% interval."""

    count: Annotated[int, Doc("Games that ended so")]
    probability: Annotated[str, Doc("count/samples, exactly", example="97/400")]
    p: float
    interval: Annotated[
        list[float],
        Limits(length=2),
        Doc("95% Wilson score interval of the chance: [low, high]"),
    ]


class SalvoSoloAdvisedAction(TypedDict):
    action: SalvoSoloAction
    samples: Annotated[int, Doc("Games played")]
    win: SalvoSoloAdviceShare
    draw: SalvoSoloAdviceShare
    loss: SalvoSoloAdviceShare
    unfinished: Annotated[int, Doc("Games still going at the horizon")]
    expected_turns: Annotated[float, Doc("Mean turns to the end (unfinished: horizon)")]


class SalvoSoloAdviceMethod(TypedDict):
    kind: Literal["monte-carlo"]
    algorithm: Annotated[Literal["fc-advice-v2"], Doc("docs/advice.md")]
    max_samples: Annotated[int, Doc("Games per Action")]
    turn_budget: Annotated[int, Doc("Turns per Action: no game starts past it")]
    horizon: Annotated[int, Doc("Turns per game at most")]
    player: Annotated[str, Doc("How the player plays")]
    enemy: Annotated[str, Doc("How the enemy plays")]


class SalvoSoloAdviceResult(TypedDict):
    best_action: SalvoSoloAction
    actions: Annotated[list[SalvoSoloAdvisedAction], Doc("Each Action the player may take, judged")]
    enemy_action: SalvoSoloAction | None
    method: SalvoSoloAdviceMethod


# The result of each step, by step name (its schema is derived from it).
STEP_RESULTS: dict[str, type] = {
    "weather": SalvoSoloWeatherResult,
    "range": SalvoSoloRangeResult,
    "initiative": SalvoSoloInitiativeResult,
    "enemy-action": SalvoSoloEnemyActionResult,
    "maneuver": SalvoSoloManeuverResult,
    "fire": SalvoSoloFireResult,
    "straddle": SalvoSoloStraddleResult,
    "special-damage": SalvoSoloSpecialDamageResult,
    "critical": SalvoSoloCriticalResult,
    "torpedo": SalvoSoloTorpedoResult,
    "damage": SalvoSoloDamageResult,
    "end-of-turn": SalvoSoloEndOfTurnResult,
    "attack": SalvoSoloAttackResult,
    "turn": SalvoSoloTurnResult,
    "advice": SalvoSoloAdviceResult,
}
