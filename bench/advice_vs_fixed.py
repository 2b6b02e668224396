"""The Salvo! advisor against fixed players, over many seeded games.

    .venv/bin/python bench/advice_vs_fixed.py --games 240      # a Markdown table

Every game is played by ``steps.turn`` itself with seeded dice (seed ``advice-bench-<i>``,
nonce the turn number), from a fresh start: the weather and the initial range rolled by
their own steps (nonce 0), a British ship against a German one, the 4 x 3 pairs of the
catalog in turn. Each player plays the same games (same seeds, so the comparison is
paired): "always close", "always offer broadside", "always withdraw" (a ship at speed 0
offers broadside), and "advisor", which asks ``advice`` every turn (seed
``<game seed>-advice``, nonce the turn) and takes its best Action. Two variants of the
advisor on the same judged games show what the choices are worth: "advisor (most wins)"
picks by wins then losses instead of expected score, and "advisor v1" judges each Action
kept for the whole game and picks by wins (the advisor before the rollout). Two more, not
shipped, break near-ties of expected score: toward Close ("score with a margin") or toward
the most wins ("most wins among score ties").

Against "always close" it reports, for each player, the mean paired difference per game of
the win, loss and score (a win 1, a draw 1/2, a loss 0) indicators and its 95% interval
(normal approximation over the games). ``--players`` runs a subset and ``--json`` keeps
every game's outcome, so runs in parallel processes can be put together with
``--combine a.json b.json ...``. Not part of ``make test``: it takes minutes of CPU.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from math import sqrt
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.engine.dice import SeededDice  # noqa: E402
from service.engine.resolution import Resolution, readings_in_force  # noqa: E402
from service.rulesets.salvo_solo import advice, steps  # noqa: E402
from service.rulesets.salvo_solo.api import SalvoSoloGameStateSchema  # noqa: E402
from service.rulesets.salvo_solo.ships import CATALOG, Ship  # noqa: E402

BRITISH = [name for name, card in CATALOG.items() if card.nation == "Britain"]
GERMAN = [name for name, card in CATALOG.items() if card.nation == "Germany"]
PAIRS = [(b, g) for b in BRITISH for g in GERMAN]
MAX_TURNS = 500
STATE = SalvoSoloGameStateSchema()

Policy = Callable[[steps.GameState, str], str]


def fixed(action: str) -> Policy:
    return lambda state, seed: action


def advisor(state: steps.GameState, seed: str) -> str:
    dice = SeededDice(f"{seed}-advice", state.turn)
    chosen: str = advice.advice(advice.AdviceInput(state), Resolution(dice))["best_action"]
    return chosen


def variant(keep: bool) -> Policy:
    """The advisor's games and streams, judged another way: by wins then losses, with each
    Action followed by closing (``keep`` False) or kept every later turn (v1)."""

    def choose(state: steps.GameState, seed: str) -> str:
        game = advice.Game(state)
        judged = [
            advice.judge(
                state,
                action,
                f"{seed}-advice",
                state.turn,
                game=game,
                later=action if keep else advice.LATER,
            )
            for action in advice.allowed_actions(state)
        ]
        chosen: str = advice.best_of(judged, advice.by_wins)["action"]
        return chosen

    return choose


def margin(state: steps.GameState, seed: str) -> str:
    """Not shipped, measured: the advisor's games scored one by one, and Close kept unless
    another Action's mean paired score difference over the games both played is more than
    twice its standard error (common random numbers make the pairs)."""
    game = advice.Game(state)
    points: dict[str, list[float]] = {}
    for action in advice.allowed_actions(state):
        played, turns, scores = 0, 0, []
        while played < advice.SAMPLES and turns < advice.TURN_BUDGET:
            picker = advice.StreamPicker(f"{seed}-advice", state.turn, played, advice.ALGORITHM)
            ending = advice.play_game(game, state, action, picker)
            turns += ending.turns
            played += 1
            scores.append(
                SCORE[{"player": "win", "enemy": "loss", None: "draw"}[ending.winner]]
                if ending.finished
                else 0.0
            )
        points[action] = scores
    if "C" not in points:
        return next(iter(points))
    best, best_gain = "C", 0.0
    for action, scores in points.items():
        n = min(len(scores), len(points["C"]))
        diffs = [a - b for a, b in zip(scores[:n], points["C"][:n], strict=True)]
        mean = sum(diffs) / n
        sd = sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
        if mean > 2 * sd / sqrt(n) and mean > best_gain:
            best, best_gain = action, mean
    return best


def _games(state: steps.GameState, seed: str) -> dict[str, list[str]]:
    """Every Action's games as the advisor plays them (same streams, same turn budget): the
    outcome of each, in order."""
    game = advice.Game(state)
    out: dict[str, list[str]] = {}
    for action in advice.allowed_actions(state):
        played, turns, outcomes = 0, 0, []
        while played < advice.SAMPLES and turns < advice.TURN_BUDGET:
            picker = advice.StreamPicker(f"{seed}-advice", state.turn, played, advice.ALGORITHM)
            ending = advice.play_game(game, state, action, picker)
            turns += ending.turns
            played += 1
            name = {"player": "win", "enemy": "loss", None: "draw"}[ending.winner]
            outcomes.append(name if ending.finished else "unfinished")
        out[action] = outcomes
    return out


def _paired(mine: list[float], theirs: list[float]) -> tuple[float, float]:
    """Mean paired difference over the games both played, and its standard error."""
    n = min(len(mine), len(theirs))
    diffs = [a - b for a, b in zip(mine[:n], theirs[:n], strict=True)]
    mean = sum(diffs) / n
    sd = sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    return mean, sd / sqrt(n)


def wins_among_ties(state: steps.GameState, seed: str) -> str:
    """Not shipped, measured: the Actions whose expected score is within two standard errors
    of the best one's (paired over the same games) count as tied, and of those the one with
    the most wins is taken (then the fewer losses, then table order). Over 600 games against
    the shipped advisor: wins +1.3 [-0.2, +2.9], losses +3.0 [+1.4, +4.6], score -0.8
    [-2.1, +0.4] points per 100 games (docs/advice.md)."""
    games = _games(state, seed)
    if len(games) == 1:
        return next(iter(games))

    def share(action: str, kind: str) -> float:
        return games[action].count(kind) / len(games[action])

    def points(action: str) -> list[float]:
        return [SCORE[o] for o in games[action]]

    best = min(games, key=lambda a: (-sum(points(a)) / len(games[a]), share(a, "loss")))
    tied = []
    for action in games:
        mean, error = _paired(points(action), points(best))
        if action == best or mean >= -2 * error:
            tied.append(action)
    return min(tied, key=lambda a: (-share(a, "win"), share(a, "loss")))


SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0, "unfinished": 0.0}
CLOSE = "always close (C)"
POLICIES: dict[str, Policy] = {
    CLOSE: fixed("C"),
    "always offer broadside (OB)": fixed("OB"),
    "always withdraw (W)": fixed("W"),
    "advisor": advisor,
    "advisor (most wins)": variant(keep=False),
    "advisor v1": variant(keep=True),
    "advisor, score with a margin (not shipped)": margin,
    "advisor, most wins among score ties (not shipped)": wins_among_ties,
}


def start(game: int) -> tuple[str, steps.GameState]:
    seed = f"advice-bench-{game}"
    weather = steps.weather(steps.NoInput(), Resolution(SeededDice(seed, 0)))["weather"]
    range_ = steps.initial_range(steps.RangeInput(weather), Resolution(SeededDice(seed, 0)))
    british, german = PAIRS[game % len(PAIRS)]
    state = steps.GameState(
        1, weather, range_["range"], Ship(CATALOG[british]), Ship(CATALOG[german])
    )
    return seed, state


def play(game: int, policy: Policy) -> tuple[str, int]:
    seed, state = start(game)
    for _ in range(MAX_TURNS):
        action = "OB" if state.player.must_offer_broadside else policy(state, seed)
        result = steps.turn(
            steps.TurnInput(state, action), Resolution(SeededDice(seed, state.turn))
        )
        if result["game_over"]:
            outcome = {"player": "win", "enemy": "loss", None: "draw"}[result["winner"]]
            return outcome, state.turn
        state = STATE.load(result["state"])
    return "unfinished", MAX_TURNS


def paired(mine: list[str], theirs: list[str], value: Callable[[str], float]) -> str:
    """Mean paired difference per game and its 95% interval, in points of percentage."""
    diffs = [value(a) - value(b) for a, b in zip(mine, theirs, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.959963984540054 * sd / sqrt(n)
    return f"{100 * mean:+.1f} [{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]"


def table(games: int, rows: dict[str, dict[str, Any]]) -> None:
    print(f"| player ({games} games each) | win | draw | loss | mean turns |")
    print("|---|---:|---:|---:|---:|")
    for name, row in rows.items():
        share = {k: f"{100 * row[k] / games:.1f}%" for k in ("win", "draw", "loss")}
        print(
            f"| {name} | {share['win']} | {share['draw']} | {share['loss']} | {row['turns']:.2f} |"
        )
    if CLOSE not in rows:
        return
    base = rows[CLOSE]["outcomes"]
    print()
    print("| against always close, paired, per game (95% interval) | win | loss | score |")
    print("|---|---:|---:|---:|")
    for name, row in rows.items():
        if name == CLOSE:
            continue
        mine = row["outcomes"]
        cells = [paired(mine, base, lambda o, k=k: float(o == k)) for k in ("win", "loss")] + [
            paired(mine, base, SCORE.__getitem__)
        ]
        print(f"| {name} | {' | '.join(cells)} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--players", nargs="*", choices=list(POLICIES), help="default: all")
    parser.add_argument("--combine", nargs="*", type=Path, help="tables from --json files")
    args = parser.parse_args(argv)
    rows: dict[str, dict[str, Any]] = {}
    if args.combine:
        for path in args.combine:
            data = json.loads(path.read_text())
            rows.update(data["rows"])
        table(data["games"], {name: rows[name] for name in POLICIES if name in rows})
        return 0
    with readings_in_force(None):
        for name in args.players or list(POLICIES):
            policy = POLICIES[name]
            began = time.process_time()
            counts = {"win": 0, "draw": 0, "loss": 0, "unfinished": 0}
            turns = 0
            outcomes = []
            for game in range(args.games):
                outcome, played = play(game, policy)
                counts[outcome] += 1
                outcomes.append(outcome)
                turns += played
            cpu = time.process_time() - began
            rows[name] = {**counts, "turns": turns / args.games, "cpu_s": cpu, "outcomes": outcomes}
            print(f"{name}: {counts} in {cpu:.1f} s", file=sys.stderr)
    table(args.games, rows)
    if args.json:
        args.json.write_text(json.dumps({"games": args.games, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
