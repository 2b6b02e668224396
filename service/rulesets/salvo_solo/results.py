"""What each salvo-solo step hands back, as typed dicts: one per result and nested shape.

The step functions return these, so mypy checks every look-up a composite step makes in the
result of another; tests/test_typed_results.py holds each one equal, key for key (required
or not), to the step's answer `result` schema in the served OpenAPI document. Literal
aliases name the same fixed sets as the document's enum components.

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict whose
annotations are strings counts its NotRequired keys as required at run time, and the
test reads them.
"""

from typing import Literal, NotRequired, TypedDict

from ...engine.dice_requests import Again

SalvoSoloWeather = Literal["Fine", "Fair", "Misty", "Stormy"]


class SalvoSoloWeatherResult(TypedDict):
    weather: SalvoSoloWeather
    initial_range_modifier: int


SalvoSoloRange = Literal["Short", "Medium", "Medium-Long", "Long", "Extreme"]


class SalvoSoloRangeResult(TypedDict):
    range: SalvoSoloRange


SalvoSoloSide = Literal["player", "enemy"]


class SalvoSoloInitiativeResult(TypedDict):
    first: SalvoSoloSide


SalvoSoloAction = Literal["C", "OB", "W"]


class SalvoSoloEnemyActionResult(TypedDict):
    action: SalvoSoloAction
    reason: str


SalvoSoloBearing = Literal["bow", "broadside", "stern"]


class SalvoSoloManeuverResult(TypedDict):
    range: SalvoSoloRange | None
    range_change: int
    out_of_range: bool
    game_over: bool
    player_guns_bearing: SalvoSoloBearing
    enemy_guns_bearing: SalvoSoloBearing


class SalvoSoloFireResult(TypedDict):
    straddle: bool
    shots_per_turn: int


SalvoSoloStraddleOutcome = Literal[
    "NE", "F", "Special", "T", "FS", "Critical", "FF", "TT", "FFST", "FFSST"
]

SalvoSoloRollNext = Literal["special-damage", "critical"]


class SalvoSoloStraddleResult(TypedDict):
    outcome: SalvoSoloStraddleOutcome
    hits: str
    roll_next: SalvoSoloRollNext | None


class SalvoSoloSpecialDamageResult(TypedDict):
    name: str
    hits: str
    fire_control_lost: bool


class SalvoSoloCriticalResult(TypedDict):
    name: str
    hits: str


class SalvoSoloTorpedoResult(TypedDict):
    hit: bool
    hits: str


SalvoSoloFireControl = Literal["ready", "lost-next-turn", "lost-this-turn"]


class SalvoSoloShipState(TypedDict):
    flotation_hits: NotRequired[int]
    turret_hits: NotRequired[int]
    speed_hits: NotRequired[int]
    fire_control: NotRequired[SalvoSoloFireControl]


class SalvoSoloShipStatus(TypedDict):
    name: str
    state: SalvoSoloShipState
    speed: int
    sunk: bool
    can_fire: bool
    must_offer_broadside: bool


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
    hits: NotRequired[str]
    target: SalvoSoloShipStatus


class SalvoSoloAttackResult(TypedDict):
    shots: list[SalvoSoloShot]
    target: SalvoSoloShipStatus
    straddled: bool
    target_sunk: bool


SalvoSoloShipName = Literal[
    "King George V", "Hood", "Graf Spee", "Nürnburg", "Nelson", "Ajax", "Prinz Eugen"
]


class SalvoSoloNamedShip(TypedDict):
    ship: SalvoSoloShipName
    state: NotRequired[SalvoSoloShipState]


SalvoSoloShipType = Literal["BB", "BC", "PB", "CA", "CL"]

SalvoSoloCardProvenance = Literal["card", "derived", "custom"]


class SalvoSoloShipCard(TypedDict):
    name: str
    type: SalvoSoloShipType
    guns: int
    broadside: int
    stern: int
    bow: int
    flotation: int
    turret: int
    speed: int
    armor: int
    nation: str
    provenance: NotRequired[SalvoSoloCardProvenance]


class SalvoSoloInlineShip(TypedDict):
    card: SalvoSoloShipCard
    state: NotRequired[SalvoSoloShipState]


class SalvoSoloGameState(TypedDict):
    turn: int
    weather: SalvoSoloWeather
    range: SalvoSoloRange
    player: SalvoSoloNamedShip | SalvoSoloInlineShip
    enemy: SalvoSoloNamedShip | SalvoSoloInlineShip
    enemy_last_action: NotRequired[SalvoSoloAction | None]
    player_has_straddled: NotRequired[bool]
    enemy_has_straddled: NotRequired[bool]


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
    first: SalvoSoloSide


class SalvoSoloFireOrderEvent(TypedDict):
    phase: Literal["fire-order"]
    result: SalvoSoloFireOrderResult


class SalvoSoloHeldFire(TypedDict):
    fired: Literal[False]
    reason: str


class SalvoSoloFireEvent(TypedDict):
    phase: Literal["fire"]
    result: SalvoSoloAttackResult | SalvoSoloHeldFire
    side: SalvoSoloSide


class SalvoSoloTorpedoEvent(TypedDict):
    phase: Literal["torpedo"]
    result: SalvoSoloTorpedoResult
    side: SalvoSoloSide


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
    first: Literal["enemy"]
    enemy_action: SalvoSoloAction
    choose: Literal["player_action"]
    choices: list[SalvoSoloAction]
    dice_used: int
    dice: Again  # the request's own dice components, to finish the turn with
    detail: str


class SalvoSoloTurnResult(TypedDict):
    game_over: bool
    winner: SalvoSoloSide | None
    draw: bool
    reason: str | None
    state: SalvoSoloGameState
    events: list[SalvoSoloEvent]
    pending: NotRequired[SalvoSoloPendingTurn]


class SalvoSoloAdviceShare(TypedDict):
    count: int
    probability: str
    p: float
    interval: list[float]


class SalvoSoloAdvisedAction(TypedDict):
    action: SalvoSoloAction
    samples: int
    win: SalvoSoloAdviceShare
    draw: SalvoSoloAdviceShare
    loss: SalvoSoloAdviceShare
    unfinished: int
    expected_turns: float


class SalvoSoloAdviceMethod(TypedDict):
    kind: Literal["monte-carlo"]
    algorithm: Literal["fc-advice-v2"]
    max_samples: int
    turn_budget: int
    horizon: int
    player: str
    enemy: str


class SalvoSoloAdviceResult(TypedDict):
    best_action: SalvoSoloAction
    actions: list[SalvoSoloAdvisedAction]
    enemy_action: SalvoSoloAction | None
    method: SalvoSoloAdviceMethod


# The result of each step, by step name (checked against the document by test).
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
