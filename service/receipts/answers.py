"""What the receipts side of the service answers, each shape defined once as a TypedDict.

The checker (checking.py), the signer (signing.py) and the seal endpoints build these very
dicts; the HTTP layer derives their schemas and OpenAPI components from them
(service/http/document/derive.py, ``result_schema``). The fixed sets the answers use (the
verdict, a problem's code, how dice were rolled) are defined here once too: the code that
emits them reads them from here, and the verifiers that cannot import the service are
checked against them (tests/test_fixed_sets.py).

No ``from __future__ import annotations``: the TypedDicts' hints are read at run time.
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from ..engine.dice import SEALED_ALGORITHM
from ..engine.dice_modes import SEALED as SEALED
from ..engine.dice_modes import SEEDED as SEEDED
from ..engine.dice_modes import SUPPLIED as SUPPLIED
from ..engine.dice_modes import DiceMode
from ..engine.envelope import UTC_TIME
from ..engine.typed import Doc, Fixed, JsonObject, Limits, Named, values
from .sealing import client_seed_hash

HASH = r"^[0-9a-f]{64}$"
DEFAULT_ISSUER = "fire-control"
CHECKPOINT_FORMAT = "fc-checkpoint-v1"
MAX_ENTRY_PROBLEMS = 5
MAX_LOG_PROBLEMS = 20

# --- the fixed sets ---------------------------------------------------------------------------

CheckpointSeedMode = Annotated[
    Literal["seeded", "sealed"],
    Fixed(
        "CheckpointSeedMode",
        "How the game's dice are rolled: from a seed (`seed`), or a sealed seed (`commitment`).",
    ),
]
if not set(values(CheckpointSeedMode)) <= set(values(DiceMode)):  # pragma: no cover
    raise ValueError("a checkpoint's seed mode is not a dice mode")

Verdict = Annotated[
    Literal["valid", "invalid", "not-yet-checkable"],
    Fixed(
        "Verdict",
        "The verdict in one word: `valid`; `invalid` (the problems say what is wrong); "
        "`not-yet-checkable`: nothing found wrong, but sealed rolls wait for their seed's "
        "reveal and none of their dice was checked (ask again after `reveal_after`). "
        "tools/verify_dice.py adds `signatures-not-checked` and `dice-valid` of its own.",
    ),
]
VALID: Literal["valid"] = "valid"
INVALID: Literal["invalid"] = "invalid"
NOT_YET: Literal["not-yet-checkable"] = "not-yet-checkable"
if values(Verdict) != (VALID, INVALID, NOT_YET):  # pragma: no cover
    raise ValueError("the verdicts by name are not the fixed set Verdict")

# The problems a check finds, each by its code: one definition, which the checker's ``add``
# takes (so mypy refuses a code outside it) and the document lists.
SignatureCode = Literal[
    "no-receipt",
    "receipt-not-canonical",
    "bad-header",
    "unknown-key",
    "no-canonical-form",
    "altered",
    "provenance-kid",
]
MORE: Literal["more"] = "more"  # stands for the problems left off
SEALED_NOT_YET: Literal["sealed-not-yet-checkable"] = "sealed-not-yet-checkable"
EntryCode = Annotated[
    Literal[
        SignatureCode,
        "not-a-response",
        "rolls-missing",
        "notation",
        "limit",
        "bad-seed",
        "no-dice",
        "dice-mismatch",
        "total-mismatch",
        "supplied-dice",
        "sealed-token",
        "sealed-commitment",
        "sealed-not-yet-checkable",
        "more",
    ],
    Fixed(
        "EntryProblemCode",
        "What is wrong with one entry (docs/verifiable-rolls.md, *Problem codes*): its "
        "receipt (`no-receipt`, `receipt-not-canonical`, `bad-header`, `unknown-key`, "
        "`no-canonical-form`, `altered`, `provenance-kid`), its dice, or that they wait for "
        "their seed's reveal (`sealed-not-yet-checkable`); `more` stands for the problems "
        "left off. tools/verify_dice.py and the referee's page add `reveal-mismatch` of "
        "their own.",
    ),
]
LogCode = Annotated[
    Literal[
        "cut-head",
        "chain-restart",
        "chain-broken",
        "nonce-repeat",
        "nonce-back",
        "nonce-gap",
        "pending-unfinished",
        "another-seed",
        "client-seed-changed",
        "ruleset-changed",
        "readings-changed",
        "supplied-dice",
        "checkpoint-altered",
        "checkpoint-unknown",
        "checkpoint-other-game",
        "more",
    ],
    Fixed(
        "LogProblemCode",
        "What is wrong with a game log as a whole (docs/verifiable-rolls.md, *Problem "
        "codes*): its chain, its head, its nonces, its seed, its ruleset and readings, "
        "supplied dice, and the checkpoint it continues from; `more` stands for the "
        "problems left off.",
    ),
]
if not {MORE, SEALED_NOT_YET} <= set(values(EntryCode)) or MORE not in values(LogCode):
    raise ValueError("the codes by name are not in the fixed sets")  # pragma: no cover

# --- words and forms several answers share ----------------------------------------------------

RulesetId = Annotated[str, Named("RulesetId")]  # the ids of the rulesets an app serves
Hash = Annotated[str, Limits(pattern=HASH)]
Time = Annotated[
    str,
    Limits(pattern=UTC_TIME),
    Doc("RFC 3339 time in UTC, to the second", example="2026-11-30T09:30:00Z"),
]
Receipt = Annotated[
    str,
    Doc(
        "Detached JWS (RFC 7515 appendix F, alg Ed25519) over the RFC 8785 canonical JSON of "
        "this response without `receipt`; keys at /.well-known/jwks.json. See "
        "docs/verifiable-rolls.md."
    ),
]
Prev = Annotated[
    Hash,
    Doc(
        "Hex SHA-256 of the receipt of the game's previous response "
        '(printf %s "$receipt" | sha256sum); signed into this response\'s receipt, so a '
        "game's receipts form a chain."
    ),
]
INDEX = (
    "counting from 0 (the first entry is 0); the `problems` texts name entries counting "
    'from 1, as players do ("entry 1" is index 0)'
)
CODES = Doc(
    "One code per problem, in the same order (`more` stands for the problems left off); "
    "tools/verify_dice.py reports the same codes. See docs/verifiable-rolls.md."
)

# --- a signed answer's provenance -------------------------------------------------------------


class ReceiptRequest(TypedDict):
    """The request this answer answers: its path and either its whole ``body`` (by
    default) or, for a request sent with ``Prefer: return=minimal``, the members a verifier
    reads as they were sent (``sent``) and the digest of the rest (``rest_sha256``). Either
    form pins the whole request into the receipt."""

    path: Annotated[str, Doc(example="/v1/rulesets/salvo-solo/fire")]
    body: NotRequired[
        Annotated[JsonObject, Doc("The request body, whole (absent under return=minimal)")]
    ]
    sent: NotRequired[
        Annotated[
            JsonObject,
            Doc(
                "Under return=minimal: the body's members `prev`, `dice`, `rules` and "
                "`player_action`, those it has, as they were sent"
            ),
        ]
    ]
    rest_sha256: NotRequired[
        Annotated[
            Hash,
            Doc(
                "Under return=minimal: hex SHA-256 of the RFC 8785 canonical JSON of the "
                "request body without the members in `sent`, which the caller holds"
            ),
        ]
    ]


class CheckpointProvenance(TypedDict):
    service: Annotated[str, Doc(example=DEFAULT_ISSUER)]
    kid: Annotated[str, Doc("The key that signed")]
    issued_at: Time


class Provenance(CheckpointProvenance):
    request: ReceiptRequest


# --- GET /.well-known/jwks.json ---------------------------------------------------------------


class Jwk(TypedDict):
    kty: Annotated[str, Doc(example="OKP")]
    crv: Annotated[str, Doc(example="Ed25519")]
    x: Annotated[str, Doc("The public key, base64url")]
    kid: str
    alg: Annotated[str, Doc(example="Ed25519")]
    use: Annotated[str, Doc(example="sig")]


class Jwks(TypedDict):
    keys: list[Jwk]


# --- POST /v1/receipts/verify -----------------------------------------------------------------


class VerifiedEntry(TypedDict):
    index: Annotated[int, Doc(f"The entry's place in the log, {INDEX}")]
    ruleset: str | None
    step: str | None
    signature_valid: bool
    dice_valid: Annotated[
        bool | None, Doc("null: dice the player supplied, or a seed still sealed")
    ]
    receipt_hash: Annotated[str | None, Doc("What the next entry's prev is")]
    problems: Annotated[list[str], Doc(f"At most {MAX_ENTRY_PROBLEMS}, then '... and N more'")]
    codes: Annotated[list[EntryCode], CODES]


class LogEnd(TypedDict):
    index: Annotated[int, Doc(f"The log's last entry, {INDEX}")]
    receipt_hash: str | None
    nonce: Annotated[int | None, Doc("The game's last nonce")]


class ContinuesFrom(TypedDict):
    entries: Annotated[
        int | None, Doc("How many entries the checkpoint vouches for (null: unreadable)")
    ]
    receipt_hash: Annotated[str | None, Doc("The receipt hash of the checkpoint's last entry")]
    signature_valid: Annotated[bool, Doc("Whether the checkpoint is this service's")]


class VerifiedLog(TypedDict):
    entries: int
    chain_unbroken: bool
    starts_at_beginning: Annotated[
        bool,
        Doc(
            "False when the first entry carries a `prev` or the first roll's nonce is past "
            "1: the log's head was cut off"
        ),
    ]
    nonces_consecutive: bool
    one_seed: bool
    one_ruleset: Annotated[
        bool,
        Doc(
            "Every entry that names a ruleset names the game's one ruleset and the same "
            "readings in force (`rules`) as the first that does (a seal or header that binds "
            "them, else the first step); a plain dice roll names none and may join"
        ),
    ]
    supplied_entries: Annotated[int, Doc("Entries whose dice the player supplied")]
    accept_supplied: bool
    ends_with: Annotated[
        LogEnd,
        Doc(
            "Where the log ends: compare with the last receipt the players hold (a cut-off "
            "tail cannot be seen in the log itself)"
        ),
    ]
    continues_from: Annotated[
        ContinuesFrom | None,
        Doc("The checkpoint this part continues from; null for a whole log"),
    ]
    problems: Annotated[list[str], Doc(f"At most {MAX_LOG_PROBLEMS}, then '... and N more'")]
    codes: Annotated[list[LogCode], CODES]


class CheckpointSeed(TypedDict):
    mode: CheckpointSeedMode
    seed: NotRequired[Annotated[str, Doc("The game's seed (seeded games)")]]
    commitment: NotRequired[Annotated[str, Doc("The sealed seed's commitment")]]


class CheckpointGame(TypedDict):
    ruleset: str
    rules: Annotated[Any, Doc("The readings in force")]


class CheckpointPending(TypedDict):
    index: Annotated[int, Doc(f"The pending turn, {INDEX}")]
    answer: Annotated[JsonObject, Doc("Its answer, whole")]


class CheckpointState(TypedDict):
    format: Annotated[str, Doc(example=CHECKPOINT_FORMAT)]
    entries: Annotated[int, Doc("Entries checked so far: the next part's first is the next")]
    receipt_hash: Annotated[str, Doc("The last entry's: the next part's first prev")]
    nonce: Annotated[int | None, Doc("The game's last")]
    nonce_shown: Annotated[bool, Doc("Whether the last nonce's dice were shown")]
    seed: CheckpointSeed | None
    client_seed: str | None
    game: CheckpointGame | None
    pending: Annotated[
        CheckpointPending | None, Doc("The Salvo! turn left pending, when one is open")
    ]
    supplied_entries: int


class Checkpoint(TypedDict):
    state: CheckpointState
    provenance: CheckpointProvenance
    receipt: Receipt


class VerifyResponse(TypedDict):
    valid: Annotated[
        bool,
        Doc("True only when every check held and every die was re-derived (`verdict` is `valid`)"),
    ]
    verdict: Verdict
    not_yet_checkable: Annotated[int, Doc("Entries whose sealed seed is not revealed yet")]
    entries: list[VerifiedEntry]
    log: VerifiedLog | None
    checkpoint: Annotated[
        Checkpoint | None,
        Doc(
            "When a log (or a part of one) is valid: a signed checkpoint to send with the "
            'next part, as {"checkpoint": ..., "entries": [...]}. It does not expire. null '
            "otherwise, and for one response."
        ),
    ]


# --- POST /v1/seeds, /v1/seeds/reveal and /v1/games -------------------------------------------

# The example binding: the SHA-256 of the example client seed "ajax-4f1c9e27b3d05a86".
EXAMPLE_CLIENT_SEED = "ajax-4f1c9e27b3d05a86"
EXAMPLE_BINDING = client_seed_hash(EXAMPLE_CLIENT_SEED)

BINDING_DESCRIPTION = (
    "Hex SHA-256 (64 lowercase digits, as `sha256sum` prints it) of the UTF-8 client seed "
    "the roller will use, committed before the server seed exists. A bound token rolls only "
    "with that client seed, so whoever holds the token cannot try client seeds until one "
    "gives the dice they want. null: the token is unbound, and its holder can."
)

RULES_BINDING = (
    'Hex SHA-256 of the RFC 8785 JSON of `{"ruleset": ..., "rules": ...}` (the ruleset and '
    "every ruling's reading in force) the token binds: it rolls a step of that ruleset under "
    "those readings only (a plain dice roll too). null: the token binds no rules."
)


class SealedSeed(TypedDict):
    """What a sealed token holds, as the seal and its reveal describe it."""

    commitment: Annotated[str, Doc("Hex SHA-256 of the secret server seed")]
    algorithm: Annotated[str, Doc(example=SEALED_ALGORITHM)]
    issued_at: Time
    reveal_after: Annotated[Time, Doc(example="2026-12-01T09:30:00Z")]
    sealed: Annotated[str, Doc("The token: send it as dice.sealed, and to /reveal later")]
    client_seed_sha256: Annotated[str | None, Doc(BINDING_DESCRIPTION, example=EXAMPLE_BINDING)]
    rules_sha256: Annotated[str | None, Doc(RULES_BINDING)]


class SealResponse(SealedSeed):
    ruleset: Annotated[RulesetId | None, Doc("The ruleset the token binds; null: none")]
    rules: Annotated[
        JsonObject | None,
        Doc(
            "The readings in force the token binds (every ruling's, defaults included); a "
            "game log that opens with this answer is checked against them"
        ),
    ]
    provenance: Provenance
    receipt: Receipt


class RevealResponse(SealedSeed):
    seed: Annotated[str, Doc("The server seed, revealed")]


HEADER_STEP: Literal["game-header"] = "game-header"  # a game header's step, its one value


class GameResponse(TypedDict):
    ruleset: Annotated[RulesetId, Doc(example="salvo-solo")]
    step: Annotated[Literal["game-header"], Doc("Always `game-header`")]
    rules: Annotated[
        JsonObject,
        Doc("Every ruling's reading in force for this game, defaults included"),
    ]
    provenance: Provenance
    receipt: Receipt
