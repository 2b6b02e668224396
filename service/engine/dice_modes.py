"""How an answer's dice were obtained: the one definition of the dice modes.

The dice (dice.py) write them, the checker of signed answers (service/receipts/checking.py)
reads them, and the document names the set ``DiceMode``. The verifiers that cannot import
the service (tools/verify_dice.py, the referee's page) are checked against it
(tests/test_fixed_sets.py).
"""

from typing import Annotated, Literal

from .typed import Fixed, values

DiceMode = Annotated[
    Literal["seeded", "supplied", "sealed"],
    Fixed(
        "DiceMode",
        "How the dice were obtained: rolled from a seed, supplied by the player, or rolled "
        "from a sealed server seed and the client's seed.",
    ),
]

# The modes by name, typed as the members they are (checked against the set at import).
SEEDED: Literal["seeded"] = "seeded"
SUPPLIED: Literal["supplied"] = "supplied"
SEALED: Literal["sealed"] = "sealed"
if values(DiceMode) != (SEEDED, SUPPLIED, SEALED):  # pragma: no cover
    raise ValueError("the dice modes by name are not the fixed set DiceMode")
