#!/usr/bin/env python3
"""Re-derive every die of a saved Fire Control response from its seed and nonce.

Standard library only, so anyone can run it without the service:

    python3 verify_dice.py response.json [revealed.json ...]   # a response, or a list of them

Exit status 0 when every die matches, 1 when any differs, 2 when the file can't be read.
Sealed rolls (fc-dice-sealed-v1) are checked once their seed is revealed: pass the saved
answers of POST /v1/seeds/reveal after the log; each revealed seed must hash to the
commitment, and a sealed roll's dice are the fc-dice-v1 dice of "<server seed>:<client seed>".
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
SEALED_ALGORITHM = "fc-dice-sealed-v1"
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


def check(response: dict, revealed: dict | None = None) -> list[str]:
    """Problems found in one response; an empty list means every die matches.

    ``revealed`` maps a commitment to its revealed server seed, for sealed rolls.
    """
    dice = response.get("dice") or {}
    if dice.get("mode") == "sealed" and dice.get("algorithm") == SEALED_ALGORITHM:
        server_seed = (revealed or {}).get(dice.get("commitment"))
        if server_seed is None:
            return [
                f"sealed roll (commitment {dice.get('commitment')}): pass the revealed seed "
                "(the saved answer of POST /v1/seeds/reveal) to re-derive it"
            ]
        seed = f"{server_seed}:{dice.get('client_seed')}"
    elif dice.get("mode") != "seeded":
        return [f"dice mode is {dice.get('mode')!r}: only seeded rolls can be re-derived"]
    elif dice.get("algorithm") != ALGORITHM:
        return [f"unknown algorithm {dice.get('algorithm')!r}"]
    else:
        seed = str(dice["seed"])
    source = stream(seed, int(dice["nonce"]))
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


def load(path: str):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def revealed_seeds(documents: list) -> tuple[dict, list[str]]:
    """Commitment -> server seed, from saved reveal answers, each checked against its hash."""
    seeds, problems = {}, []
    for document in documents:
        seed, commitment = str(document.get("seed")), document.get("commitment")
        if hashlib.sha256(seed.encode("utf-8")).hexdigest() != commitment:
            problems.append(f"the revealed seed does not hash to its commitment {commitment}")
        else:
            seeds[commitment] = seed
    return seeds, problems


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    loaded = []
    for path in argv[1:]:
        try:
            loaded.append(load(path))
        except (OSError, ValueError) as error:
            print(f"cannot read {path}: {error}", file=sys.stderr)
            return 2
    document, reveals = loaded[0], loaded[1:]
    revealed, reveal_problems = revealed_seeds(reveals)
    for problem in reveal_problems:
        print(problem)
    responses = document if isinstance(document, list) else [document]
    failed = bool(reveal_problems)
    for number, response in enumerate(responses, start=1):
        label = f"{response.get('ruleset')}/{response.get('step')}"
        if "rolls" not in response and "commitment" in response:
            print(f"entry {number}: sealed seed, commitment {response['commitment']}")
            continue
        problems = check(response, revealed)
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
