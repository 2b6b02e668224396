"""The Salvo! advisor against fixed players, over many seeded games.

    .venv/bin/python bench/advice_vs_fixed.py --games 240      # a Markdown table

Every game is played by ``steps.turn`` itself with seeded dice (seed ``advice-bench-<i>``,
nonce the turn number), from a fresh start: the weather and the initial range rolled by
their own steps (nonce 0), a British ship against a German one, the 4 x 3 pairs of the
catalog in turn. Each player plays the same games (same seeds): "always close", "always
offer broadside", "always withdraw" (a ship at speed 0 offers broadside), and "advisor",
which asks ``advice`` every turn (seed ``<game seed>-advice``, nonce the turn) and takes
its best Action. Not part of ``make test``: it takes minutes of CPU.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
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


POLICIES: dict[str, Policy] = {
    "always close (C)": fixed("C"),
    "always offer broadside (OB)": fixed("OB"),
    "always withdraw (W)": fixed("W"),
    "advisor": advisor,
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    rows: dict[str, dict[str, Any]] = {}
    with readings_in_force(None):
        for name, policy in POLICIES.items():
            began = time.process_time()
            counts = {"win": 0, "draw": 0, "loss": 0, "unfinished": 0}
            turns = 0
            for game in range(args.games):
                outcome, played = play(game, policy)
                counts[outcome] += 1
                turns += played
            cpu = time.process_time() - began
            rows[name] = {**counts, "turns": turns / args.games, "cpu_s": cpu}
            print(f"{name}: {counts} in {cpu:.1f} s", file=sys.stderr)
    print(f"| player ({args.games} games each) | win | draw | loss | mean turns |")
    print("|---|---:|---:|---:|---:|")
    for name, row in rows.items():
        share = {k: f"{100 * row[k] / args.games:.1f}%" for k in ("win", "draw", "loss")}
        print(
            f"| {name} | {share['win']} | {share['draw']} | {share['loss']} | {row['turns']:.2f} |"
        )
    if args.json:
        args.json.write_text(json.dumps({"games": args.games, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
