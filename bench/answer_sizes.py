"""What each part of a signed answer costs on the wire, whole and asked minimal.

    .venv/bin/python bench/answer_sizes.py            # Markdown tables
    .venv/bin/python bench/answer_sizes.py --json     # the figures as JSON

Replays every request of the whole-game fixture logs (tests/fixtures/logs/whole-*.json: a
Salvo! game to its end, a salvo-grid battle of the computers to its end, a dreadnought and a
fleet-action sequence, every call chained) against ``create_app()`` with the fixtures' test
keys, once as sent and once with ``Prefer: return=minimal``, and counts the bytes of the
answers as the service sends them (compact JSON), and gzipped at level 5 as the sidecar
sends them to a client that accepts gzip (deploy/k8s/base/nginx.conf). For each ruleset:
its heaviest answer, part by part, and the whole game. The replayed answers are checked to
be the logged ones but for provenance and receipt. Sizes only, no timing: not part of
``make test``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service import create_app  # noqa: E402
from tests.fixtures.logs.make_logs import app_config  # noqa: E402

LOGS = ROOT / "tests" / "fixtures" / "logs"
GAMES = ("salvo-solo", "salvo-grid", "dreadnought", "fleet-action")
PARTS = ("result", "modifiers", "rolls", "rules", "dice", "provenance", "receipt")


def size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def replay(client: Any, entry: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    request = entry["provenance"]["request"]
    response = client.post(request["path"], json=request["body"], headers=headers)
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    same = {k: v for k, v in answer.items() if k not in ("provenance", "receipt")}
    assert same == {k: v for k, v in entry.items() if k not in ("provenance", "receipt")}
    return answer


def gzipped(answers: list[dict[str, Any]]) -> int:
    """Bytes of the answers each gzipped as the sidecar does (level 5), added up."""
    return sum(len(gzip.compress(wire(answer), compresslevel=5)) for answer in answers)


def wire(answer: dict[str, Any]) -> bytes:
    return json.dumps(answer, separators=(",", ":"), ensure_ascii=False).encode()


def parts(answer: dict[str, Any]) -> dict[str, int]:
    found = {"whole answer": len(wire(answer)), "whole answer, gzipped": gzipped([answer])}
    found.update({part: size(answer[part]) for part in PARTS if part in answer})
    request = answer["provenance"]["request"]
    found["provenance.request"] = size(request)
    return found


def measure() -> dict[str, Any]:
    client = create_app(app_config()).test_client()
    figures: dict[str, Any] = {}
    for ruleset in GAMES:
        log = json.loads((LOGS / f"whole-{ruleset}.json").read_text())
        whole = [replay(client, entry, {}) for entry in log]
        brief = [replay(client, entry, {"Prefer": "return=minimal"}) for entry in log]
        heaviest = max(range(len(log)), key=lambda i: size(whole[i]))
        figures[ruleset] = {
            "entries": len(log),
            "heaviest step": log[heaviest]["step"],
            "heaviest": {"whole": parts(whole[heaviest]), "minimal": parts(brief[heaviest])},
            "game": {"whole": size(whole), "minimal": size(brief)},
            "game gzipped": {"whole": gzipped(whole), "minimal": gzipped(brief)},
        }
    return figures


def table(figures: dict[str, Any]) -> str:
    lines = [
        "| ruleset (heaviest step) | part | whole | minimal |",
        "| --- | --- | ---: | ---: |",
    ]
    for ruleset, found in figures.items():
        whole, brief = found["heaviest"]["whole"], found["heaviest"]["minimal"]
        name = f"{ruleset} (`{found['heaviest step']}`)"
        for part, count in whole.items():
            lines.append(f"| {name} | {part} | {count:,} | {brief[part]:,} |")
            name = ""
        for what, words in (("game", ""), ("game gzipped", ", gzipped")):
            game = found[what]
            lines.append(
                f"| | whole game, {found['entries']} entries{words} | {game['whole']:,} | "
                f"{game['minimal']:,} ({100 * game['minimal'] / game['whole']:.0f}%) |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    figures = measure()
    print(json.dumps(figures, indent=1) if parser.parse_args().json else table(figures))


if __name__ == "__main__":
    main()
