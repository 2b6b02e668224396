"""Key chores, run by an operator: ``python -m service.receipts <command>``.

    new signing|seal            print a new key set (JSON) for a Secret or a file
    rotate signing|seal [FILE]  put a new key first in FILE (default: the data folder's);
                                a retired signing key keeps only its public part

Rotation prints the new key id, never key material. Restart the service so that it
loads the new set (the app is preloaded, so a worker reload alone keeps the old one).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from . import keys

KINDS = {"signing": keys.SIGNING, "seal": keys.SEAL}


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("new", "rotate") or argv[1] not in KINDS:
        print(__doc__, file=sys.stderr)
        return 2
    kind = KINDS[argv[1]]
    if argv[0] == "new":
        maker = keys.new_signing_key if kind == keys.SIGNING else keys.new_seal_key
        print(json.dumps({"keys": [maker()]}))
        return 0
    path = Path(argv[2]) if len(argv) > 2 else keys.data_file(os.environ, kind)
    try:
        kid = keys.rotate(path, kind)
    except (OSError, ValueError, keys.KeyConfigError) as error:
        print(f"cannot rotate the {argv[1]} keys in {path}: {error}", file=sys.stderr)
        return 1
    print(f"{argv[1]} keys in {path}: {kid} is now first")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
