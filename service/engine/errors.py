"""Errors the rules engine raises, each carrying a message a player understands, and the
one table of problem kinds (the ``type`` of every problem answer) that the engine's errors,
the HTTP layer's mapping of statuses and the ``/problems`` page all read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class ProblemKind:
    """One problem type: ``/problems#<id>``.

    ``statuses``: the HTTP statuses it comes with; ``generic``: the kind the service gives
    any error of that status that names no kind of its own; ``sidecar``: written only by
    the nginx sidecar in front; ``text``: the ``/problems`` page's words (`code` in
    backticks).
    """

    id: str
    statuses: tuple[int, ...]
    text: str
    title: str = ""
    generic: bool = False
    sidecar: bool = False


PROBLEM_KINDS: tuple[ProblemKind, ...] = (
    ProblemKind(
        id="validation",
        statuses=(422,),
        generic=True,
        text="The body does not match the schema; `errors` names each bad member.",
    ),
    ProblemKind(
        id="rule-violation",
        statuses=(422,),
        title="The rules do not allow this",
        text="The rules do not allow this (a torpedo from a battleship, a ship that cannot fire).",
    ),
    ProblemKind(
        id="dice",
        statuses=(422,),
        title="The supplied dice do not fit this step",
        text="Supplied dice do not fit: too few, too many, or off the die; or a sealed seed "
        "token that was altered, comes from another service, or is past its reveal.",
    ),
    ProblemKind(
        id="notation",
        statuses=(422,),
        title="The dice notation cannot be read",
        text="Dice notation outside its grammar (the document states it in words); `errors` "
        "names the position of the character that cannot be read, and the character.",
    ),
    ProblemKind(
        id="too-early",
        statuses=(409,),
        text="A sealed seed is revealed only after its `reveal_after` time.",
    ),
    ProblemKind(
        id="limit",
        statuses=(422,),
        title="Request exceeds a documented limit",
        text="The request would cross a documented limit.",
    ),
    ProblemKind(
        id="malformed-request", statuses=(400,), generic=True, text="The body is not JSON."
    ),
    ProblemKind(id="not-found", statuses=(404,), generic=True, text="No such path or ruleset."),
    ProblemKind(
        id="method-not-allowed", statuses=(405,), generic=True, text="See the Allow header."
    ),
    ProblemKind(
        id="body-too-large",
        statuses=(413,),
        generic=True,
        text="The body is over the size limit.",
    ),
    ProblemKind(
        id="unsupported-media-type",
        statuses=(415,),
        generic=True,
        text="The body is not sent as `application/json`.",
    ),
    ProblemKind(
        id="error",
        statuses=(500,),
        text="Any other error: the service could not resolve this request.",
    ),
    ProblemKind(
        id="rate-limited",
        statuses=(429,),
        sidecar=True,
        text="Too many requests from one address; see Retry-After.",
    ),
    ProblemKind(
        id="request-timeout",
        statuses=(408,),
        sidecar=True,
        text="The request was not sent in time.",
    ),
    ProblemKind(
        id="uri-too-long", statuses=(414,), sidecar=True, text="The request line is over 4 KB."
    ),
    ProblemKind(
        id="header-too-large",
        statuses=(431,),
        sidecar=True,
        text="A header over 4 KB, or 16 KB in all.",
    ),
    ProblemKind(
        id="unavailable",
        statuses=(502, 503, 504),
        sidecar=True,
        text="No answer just now; see Retry-After.",
    ),
    ProblemKind(
        id="not-implemented",
        statuses=(501,),
        sidecar=True,
        text="A transfer encoding other than chunked.",
    ),
    ProblemKind(
        id="expectation-failed",
        statuses=(417,),
        text="An `Expect` other than `100-continue`, sent straight to the server.",
    ),
    ProblemKind(
        id="http-version-not-supported",
        statuses=(505,),
        sidecar=True,
        text="An HTTP version other than 1.0 and 1.1.",
    ),
)
KINDS: dict[str, ProblemKind] = {kind.id: kind for kind in PROBLEM_KINDS}
# The kind of an error of this status that names no kind of its own ("error" otherwise).
KIND_OF_STATUS: dict[int, str] = {
    status: kind.id for kind in PROBLEM_KINDS if kind.generic for status in kind.statuses
}
FALLBACK_KIND = "error"


class RuleError(Exception):
    """A request the rules do not allow (HTTP 422).

    ``field`` names the request member at fault, as a dotted path, when there is one.
    """

    kind = KINDS["rule-violation"].id
    title = KINDS["rule-violation"].title

    def __init__(self, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field


class DiceError(RuleError):
    """Supplied dice that do not fit what the step rolls."""

    kind = KINDS["dice"].id
    title = KINDS["dice"].title

    def __init__(self, detail: str) -> None:
        super().__init__(detail, field="dice.values")


class LimitError(RuleError):
    """A request that would make unbounded work: it names the limit it crossed."""

    kind = KINDS["limit"].id
    title = KINDS["limit"].title


class NotationError(RuleError):
    """Dice notation that does not read as notation (a ``notation`` problem at the field
    ``notation``, naming the character); a notation that reads but asks too much is a
    LimitError."""

    kind = KINDS["notation"].id
    title = KINDS["notation"].title

    def __init__(self, detail: str) -> None:
        super().__init__(detail, field="notation")
