#!/usr/bin/env python3
"""Re-derive every die of a saved Fire Control response from its seed and nonce.

Standard library only, so anyone can run it without the service:

    python3 verify_dice.py response.json      # one response, or a JSON list of them

Exit status 0 when every die matches, 1 when any differs, 2 when the file can't be read.
The algorithm (fc-dice-v1) is described in docs/dice.md:
  bytes = HMAC-SHA256(key=UTF-8(seed), msg=ASCII("fc-dice-v1:<nonce>:<block>")), block 0, 1, ...
  a die of S sides reads 1 byte (S <= 256) or 2 bytes big-endian (S <= 65536) as n;
  n >= limit (256**width - 256**width % S) is discarded, otherwise the die is n % S + 1.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import sys

ALGORITHM = "fc-dice-v1"
NOTATION = re.compile(r"^(\d+)d(\d+)$")


def stream(seed: str, nonce: int):
    block = 0
    while True:
        message = f"{ALGORITHM}:{nonce}:{block}".encode("ascii")
        yield from hmac.new(seed.encode("utf-8"), message, hashlib.sha256).digest()
        block += 1


def die(source, sides: int) -> int:
    width = 1 if sides <= 256 else 2
    bound = 256**width
    limit = bound - bound % sides
    while True:
        number = 0
        for _ in range(width):
            number = number * 256 + next(source)
        if number < limit:
            return number % sides + 1


def check(response: dict) -> list[str]:
    """Problems found in one response; an empty list means every die matches."""
    dice = response.get("dice") or {}
    if dice.get("mode") != "seeded":
        return [f"dice mode is {dice.get('mode')!r}: only seeded rolls can be re-derived"]
    if dice.get("algorithm") != ALGORITHM:
        return [f"unknown algorithm {dice.get('algorithm')!r}"]
    source = stream(str(dice["seed"]), int(dice["nonce"]))
    problems = []
    for index, roll in enumerate(response.get("rolls", [])):
        match = NOTATION.match(str(roll.get("notation", "")))
        if not match:
            problems.append(f"rolls[{index}]: cannot read notation {roll.get('notation')!r}")
            break
        count, sides = int(match.group(1)), int(match.group(2))
        expected = [die(source, sides) for _ in range(count)]
        if expected != roll.get("values"):
            problems.append(
                f"rolls[{index}] ({roll.get('label')}): response says {roll.get('values')}, "
                f"seed and nonce give {expected}"
            )
        elif sum(expected) != roll.get("total"):
            problems.append(f"rolls[{index}] ({roll.get('label')}): total is not the sum")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"cannot read {argv[1]}: {error}", file=sys.stderr)
        return 2
    responses = document if isinstance(document, list) else [document]
    failed = False
    for number, response in enumerate(responses, start=1):
        problems = check(response)
        label = f"{response.get('ruleset')}/{response.get('step')}"
        if problems:
            failed = True
            print(f"entry {number} {label}: MISMATCH")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"entry {number} {label}: ok, {len(response.get('rolls', []))} rolls match")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
