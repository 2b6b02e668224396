"""The rating step: Elo for one finished battle between two captains."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ...engine.resolution import Resolution
from ...engine.typed import Doc, Limits, table_of
from . import tables as t
from .results import SalvoGridBattleResult, SalvoGridRatingResult

# A captain's rating, in the range the ratings keep to.
Rating = Limits(minimum=t.RATING_LOWEST, maximum=t.RATING_HIGHEST)


@dataclass(frozen=True)
class RatingInput:
    a: Annotated[int, Rating, Doc("Captain a's rating before the battle")]
    b: Annotated[int, Rating, Doc("Captain b's rating before the battle")]
    result: SalvoGridBattleResult


RESULT_SCORES = table_of(SalvoGridBattleResult, {"a-wins": "win", "b-wins": "loss", "draw": "draw"})


def _half_away_from_zero(value: float) -> int:
    whole = int(abs(value) + 0.5)
    return whole if value >= 0 else -whole


def rating(inp: RatingInput, res: Resolution) -> SalvoGridRatingResult:
    """Elo for one finished battle: what the winner gains, the loser drops."""
    rule = t.RATING  # the very table /tables publishes
    expected_a = 1 / (1 + 10 ** ((inp.b - inp.a) / rule["scale"]))
    score_a = rule["score"][RESULT_SCORES[inp.result]]
    change = _half_away_from_zero(rule["k"] * (score_a - expected_a))
    # Ruling rating: both ratings stay in range, and both move by the same amount.
    lowest, highest = rule["lowest"], rule["highest"]
    change = max(change, lowest - inp.a, inp.b - highest)
    change = min(change, highest - inp.a, inp.b - lowest)
    return {
        "a": {
            "rating": inp.a,
            "expected_score": round(expected_a, 4),
            "change": change,
            "new_rating": inp.a + change,
        },
        "b": {
            "rating": inp.b,
            "expected_score": round(1 - expected_a, 4),
            "change": -change,
            "new_rating": inp.b - change,
        },
        "result": inp.result,
    }
