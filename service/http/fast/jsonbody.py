"""The one JSON decoder of request bodies: I-JSON (RFC 7493), so a body means one thing.

Python's ``json`` (and orjson) keep the last of two members with the same name, silently,
while another reader may keep the first: a forged ``"result"`` prepended to a genuine,
signed response would be read one way by a person and the other way by a verifier. RFC
8785, which receipts sign, is defined over I-JSON, which forbids duplicate names. So every
body is decoded here, with an ``object_pairs_hook`` that refuses a repeated name at any
depth, and a body that cannot be decoded (malformed, nested past the decoder's depth, an
integer of more than 4300 digits, a repeated name) is a 400 problem naming the member.

``init_app`` makes this the decoder of Flask's JSON provider (``request.get_json``), and
``service/http/fast/api.py`` has webargs load bodies through ``request.get_json`` too, so a
request is decoded once and the same way by every reader.

Two more rules bound what a body can make the service do, at the same place:

- Strings are Unicode text (RFC 7493 section 2.1): an escape of an unpaired surrogate
  (``"\\ud800"``) decodes to no character any encoder can write, so it is a 400 naming the
  member, at whatever depth. Raw surrogate bytes are not UTF-8 and fail earlier; so only a
  ``\\uD8..``-``\\uDF..`` escape can make one, and a body without one is not walked.
- An object has at most ``MAX_OBJECT_MEMBERS`` members, far more than any shape of the
  service has: a body of thousands of unknown names is a 422 ``limit`` problem, refused
  before a schema spends an error on each.

Most bodies break none of these rules, and orjson reads them in a fraction of the time the
hook takes (a call into Python per object). So a body is first read by orjson, and its
reading is taken only when it is provably the value the decoder above reads
(``_read_by_orjson``): no member was dropped (orjson keeps the last of two names as
``json`` does, so the colons of the value written out again must be all of the body's),
no integer was read as a float (orjson's integers end at 64 bits), it nests far less deep
than the decoder's stack allows, and no object or list is crowded. Any other body, and
every body orjson refuses (a lone surrogate, NaN, a number past a double), is read by the
decoder above, as before: every refusal is its own, word for word.
"""

from __future__ import annotations

import gc
import io
import json
import re
from collections.abc import Callable, Iterator, Mapping
from itertools import compress, repeat
from operator import is_
from typing import Any

import orjson
from flask import Flask, Request, Response
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest, ClientDisconnected, RequestEntityTooLarge
from werkzeug.utils import cached_property
from werkzeug.wsgi import LimitedStream, get_content_length

from ...engine import budget
from ...engine.errors import KINDS, LimitError
from .context import current_request
from .problems import problem

# Far above the members of any object the service takes or answers (15 at most today).
MAX_OBJECT_MEMBERS = 256
# A body opens at most one object for each this many bytes of its route's size limit
# (4,096 for 64 KiB): a game log opens one every 50 to 120 bytes. Every object costs the
# decoder a call of its own, so a flood of empty ones is refused before it is read.
BYTES_PER_OBJECT = 16
# and at most this many in all, one per 64 bytes of a MiB (a game log opens one every 80
# to 150 bytes: 1 MiB of it about 13,000), so that reading a body the size of the verify
# route's limit, only to find its list of entries too long, stays within a refusal's few
# milliseconds.
MAX_BODY_OBJECTS = 16_384

# What reading a body costs, in the work units of service/engine/budget.py (about 0.1 us
# of CPU), counted off its bytes before it is read: orjson's reading and the walk of its
# value cost about a unit for each value (a comma or a colon before it) and for each 16
# bytes; the decoder, which a body orjson's reading cannot stand for goes to, about four
# units a value and a unit for each 4 bytes (a call into Python per object, a str per
# name). Strings holding commas count them too: a bound, never an undercount.
READING_WORK_PER_VALUE = 1
READING_BYTES_PER_WORK = 16
DECODING_WORK_PER_VALUE = 4
DECODING_BYTES_PER_WORK = 4
# A body shorter than this is read without counting: at most about 20,000 units of reading
# even by the decoder (4,096 values), a twentieth of a request's budget.
UNCOUNTED_BYTES = 8 * 1024


class BodyError(ValueError):
    """The body is not an I-JSON text; ``field`` names where (``(body)`` for the whole)."""

    def __init__(self, message: str, field: str = "(body)") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class DuplicateMember(BodyError):
    pass


class LoneSurrogate(BodyError):
    pass


class _Repeated(Exception):
    pass


class _TooMany(Exception):
    def __init__(self, members: int) -> None:
        super().__init__(members)
        self.members = members


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Repeated
    return found


def _unique_and_bounded(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # _unique's lines again rather than a call to it: this runs once per object of every
    # request body, and a body of 15,000 empty objects pays each call.
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Repeated
    if len(found) > MAX_OBJECT_MEMBERS:
        raise _TooMany(len(found))
    return found


# The escape of a surrogate code point (a lone one decodes to a str no encoder writes).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


# Made once: json.loads with a hook builds a new decoder on every call (a few microseconds).
# Bodies are UTF-8 (RFC 8259 section 8.1): other bytes are a 400, not a guess. A request
# body's objects are bounded too; any other text the app reads (a test reading an answer)
# is not.
_DECODER = json.JSONDecoder(object_pairs_hook=_unique)
_REQUEST_DECODER = json.JSONDecoder(object_pairs_hook=_unique_and_bounded)


class _Pairs(list):  # type: ignore[type-arg]
    """An object kept as its list of members, to find where a name repeats."""


Node = tuple[tuple[str, ...], Any, bool]


def _nodes(value: Any) -> Iterator[Node]:
    """Every value of a body decoded keeping each object as its list of members
    (``_Pairs``), in reading order: its path, itself, and whether its name was already used
    in its object. A stack, not recursion: a body may nest as deep as the decoder reads."""
    stack: list[Node] = [((), value, False)]
    while stack:
        node = stack.pop()
        yield node
        path, value, _ = node
        inner: list[Node] = []
        if isinstance(value, _Pairs):
            seen: set[str] = set()
            for name, item in value:
                inner.append(((*path, name), item, name in seen))
                seen.add(name)
        elif isinstance(value, list):
            inner = [((*path, str(index)), item, False) for index, item in enumerate(value)]
        stack.extend(reversed(inner))


def _located(text: str | bytes, found: Callable[[Node], bool]) -> str:
    """The dotted path of the first value ``found`` picks (``(body)`` for the body itself),
    the body decoded again keeping every member: only on these rare paths."""
    try:
        pairs = json.loads(text, object_pairs_hook=_Pairs)
    except (RecursionError, ValueError):  # pragma: no cover - the first pass got this far
        return "(body)"
    path = next((node[0] for node in _nodes(pairs) if found(node)), ())
    return ".".join(path) or "(body)"


def _repeated(node: Node) -> bool:
    return node[2]


def _crowded(node: Node) -> bool:
    return isinstance(node[1], _Pairs) and len(node[1]) > MAX_OBJECT_MEMBERS


def _not_text(text: str) -> bool:
    """True for a str with an unpaired surrogate (no encoding can write it)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _surrogate(node: Node) -> bool:
    path, value, _ = node
    return bool(path) and _not_text(path[-1]) or isinstance(value, str) and _not_text(value)


def _duplicate(text: str | bytes) -> DuplicateMember:
    """The error for a body known to repeat a name, naming the first repeated one."""
    field = _located(text, _repeated)
    named = f" {field.rsplit('.', 1)[-1]!r}" if field != "(body)" else ""
    return DuplicateMember(
        f"Duplicate member name{named}: an object names it twice. Request bodies are I-JSON "
        "(RFC 7493): each name at most once in an object.",
        field,
    )


def _lone_surrogate(text: str | bytes) -> LoneSurrogate:
    return LoneSurrogate(
        "Invalid JSON body: a string holds an unpaired surrogate escape (such as \\ud800), "
        "which is no Unicode text. Request bodies are I-JSON (RFC 7493): every string is "
        "Unicode characters.",
        _located(text, _surrogate),
    )


def _holds_surrogate(value: Any) -> bool:
    """True if a decoded body holds a string or a name that is no Unicode text (a stack,
    not recursion, as in ``_nodes``)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _not_text(item):
                return True
        elif isinstance(item, dict):
            if any(_not_text(name) for name in item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


# How deep a body orjson reads may nest and be taken as read: far from where the decoder
# runs out of stack (near a thousand levels, less the stack of the request), so the two
# agree on every body taken; a deeper one is left to the decoder.
ORJSON_DEPTH = 100
# An integer of 19 digits or more may lie past the 64-bit integers orjson reads exactly (it
# reads those as floats): a body with a number of 19 digits or more is left to the decoder.
# The run is looked for in the bytes (fast), and only where there is one, again with every
# string emptied: a hash written in hex holds 19 decimal digits in a row now and then.
_DIGITS_AS_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)
_LONG_NUMBER = b"0" * 19
_DIGIT_RUN = re.compile(_LONG_NUMBER + rb"+")
# What may stand right before the digits of a number outside a string (nothing: the text
# starts with it).
_BEFORE_A_NUMBER = frozenset([b"", *(bytes([c]) for c in b"[:,-+.eE \t\r\n")])
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# An escape of a colon (\u003a) adds a colon to the value that the body's bytes lack.
_COLON_ESCAPE = b"\\u003"
_CONTAINER = frozenset({dict, list}).__contains__
# A text shorter than this can neither nest deeper than ORJSON_DEPTH (each level opens and
# closes a bracket) nor hold a container of more than MAX_OBJECT_MEMBERS (each member takes
# a byte at least, and a comma but the last: 257 members take 515 bytes with the
# brackets): nothing for the walk of its containers to find. Most step requests are this
# short.
_WALKED_FROM = min(2 * (ORJSON_DEPTH + 1), 2 * MAX_OBJECT_MEMBERS + 3)


class _Unproven:
    """What ``_read_by_orjson`` answers for a body it leaves to the decoder."""


UNPROVEN = _Unproven()


def _has_long_number(text: bytes) -> bool:
    """Whether a number of ``text`` (a JSON text orjson read) has 19 digits or more.

    Each run of 19 digits or more is looked at where it starts: in valid JSON, digits
    outside a string follow a bracket, a colon, a comma, a blank or a sign, point or
    exponent of their number; a run after anything else (a hex digit's letter, a quote)
    lies in a string. Only a run that may be a number has every string emptied and the
    text searched again, which costs about 20 ms for a MiB."""
    zeroed = text.translate(_DIGITS_AS_ZERO)
    if zeroed.find(_LONG_NUMBER) < 0:
        return False
    for run in _DIGIT_RUN.finditer(zeroed):
        if zeroed[run.start() - 1 : run.start()] in _BEFORE_A_NUMBER:
            return _STRING.sub(b'""', text).translate(_DIGITS_AS_ZERO).find(_LONG_NUMBER) >= 0
    return False


def _crowded_object(level: list[Any]) -> bool:
    """Whether an object of ``level`` has more than ``MAX_OBJECT_MEMBERS`` members. A level
    of containers and strings only (a flood of objects) is measured whole first: none of
    them that long, no object is."""
    try:
        if max(map(len, level)) <= MAX_OBJECT_MEMBERS:
            return False
    except TypeError:  # a number, true, false or null: no len
        pass
    objects = list(compress(level, map(is_, map(type, level), repeat(dict))))
    return bool(objects) and max(map(len, objects)) > MAX_OBJECT_MEMBERS


def _read_by_orjson(text: bytes, bounded: bool) -> Any:
    """orjson's value of ``text`` when it is the value ``loads`` reads with the decoder,
    with no rule of this module broken; else ``UNPROVEN`` (the decoder reads it then).

    - orjson reads what the decoder reads, or refuses it: strict UTF-8 and JSON, no lone
      surrogate, no NaN, no number past a double;
    - but an integer past 64 bits orjson reads as a float: none has 19 digits;
    - and of a name given twice in an object, orjson keeps the last, as ``json`` does,
      without a word: a dropped member takes its colon with it, so the value written out
      again (where every colon is a raw one, and the body has no colon escaped) has the
      body's colons only when nothing was dropped;
    - the value is walked level by level (what the containers of a level hold, as the
      garbage collector's traversal lists them, in C; a number or a string holds nothing):
      no container deeper than ``ORJSON_DEPTH`` levels, and, reading a request, no object
      over ``MAX_OBJECT_MEMBERS`` (a list of any length is taken, as the decoder takes
      it), looked for only on a level that holds more than twice that many values (a
      member is two); a text too short for either is not walked.
    """
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return UNPROVEN
    if len(text) >= _WALKED_FROM:
        level = [value]
        for _ in range(ORJSON_DEPTH):
            inner = gc.get_referents(*level)
            if bounded and len(inner) > 2 * MAX_OBJECT_MEMBERS and _crowded_object(level):
                return UNPROVEN
            level = inner
            if not level:
                break
        else:
            if any(map(_CONTAINER, map(type, level))):
                return UNPROVEN  # deeper than ORJSON_DEPTH (and than orjson writes out again)
    if (
        (b"\\" in text and text.find(_COLON_ESCAPE) >= 0)  # a lone byte is found fastest
        or _has_long_number(text)
        or orjson.dumps(value).count(b":") != text.count(b":")
    ):
        return UNPROVEN
    return value


def loads(text: str | bytes, decoder: json.JSONDecoder = _DECODER) -> Any:
    """``json.loads`` that refuses a repeated member name and an unpaired surrogate; every
    failure is a BodyError (and, decoding a request, an object over ``MAX_OBJECT_MEMBERS``
    a LimitError)."""
    if isinstance(text, bytes):
        read = _read_by_orjson(text, bounded=decoder is _REQUEST_DECODER)
        if read is not UNPROVEN:
            return read
    return decoded(text, decoder)


def decoded(text: str | bytes, decoder: json.JSONDecoder = _DECODER) -> Any:
    """``loads`` by the decoder alone (what a body orjson's reading is held to)."""
    try:
        source = text if isinstance(text, str) else text.decode("utf-8")
        value = decoder.decode(source)
    except _Repeated:
        raise _duplicate(text) from None
    except _TooMany as crowded:
        raise LimitError(
            f"an object has at most {MAX_OBJECT_MEMBERS} members, not {crowded.members}",
            field=_located(text, _crowded),
        ) from None
    except RecursionError:
        raise BodyError("Invalid JSON body: nested too deep.") from None
    except ValueError as error:  # malformed, not UTF-8, or an integer of over 4300 digits
        raise BodyError(f"Invalid JSON body: {_reason(error)}") from None
    if _SURROGATE_ESCAPE.search(source) and _holds_surrogate(value):
        raise _lone_surrogate(text)
    return value


def _reason(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} (line {error.lineno}, column {error.colno})."
    if isinstance(error, UnicodeDecodeError):
        return "the body is not UTF-8 text."
    return "a number too long."


class IJsonProvider(DefaultJSONProvider):
    """Flask's JSON provider, decoding with ``loads`` above (encoding is Flask's own)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)


class MalformedBody(BadRequest):
    """A 400 whose ``data`` the problem handler (service/http/fast/api.py) turns into ``errors``."""

    def __init__(self, error: BodyError) -> None:
        super().__init__(error.message)
        self.data = {"messages": {error.field: [error.message]}, "message": error.message}


class BodyCounts:
    """What a body's bytes say of the work of reading it, counted at memory speed: its
    objects (``{``), and its values after the first (``,`` and ``:``; both counted in
    strings too, so never fewer than the body has)."""

    __slots__ = ("size", "objects", "values")

    def __init__(self, text: str | bytes) -> None:
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        self.size = len(data)
        self.objects = data.count(b"{")
        self.values = data.count(b",") + data.count(b":") + 1

    def reading(self) -> int:
        """Work units of reading the body with orjson (and proving its reading)."""
        return self.values * READING_WORK_PER_VALUE + self.size // READING_BYTES_PER_WORK

    def decoding(self) -> int:
        """Work units of reading it with the decoder, when orjson's reading is not taken."""
        return self.values * DECODING_WORK_PER_VALUE + self.size // DECODING_BYTES_PER_WORK


def _charge_reading(units: int) -> None:
    budget.current().charge(
        units,
        "reading this request body",
        "send a body of fewer JSON values",
        field="(body)",
    )


class _RequestJson:
    """The JSON module of one request: its body decoded by ``loads`` with its objects
    bounded, their number by the request's size limit, and its reading charged to the
    request's work budget before it is done (from the counts of ``BodyCounts``)."""

    def __init__(self, size_limit: int | None, counts: Callable[[], BodyCounts]) -> None:
        self.size_limit = size_limit
        self.counts = counts

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        most = min((self.size_limit or len(s)) // BYTES_PER_OBJECT, MAX_BODY_OBJECTS)
        # A body shorter than twice the objects it may open cannot open more ("{}" is two
        # bytes), and one under UNCOUNTED_BYTES costs too little to read to count: most
        # step requests are both, and skip the counting.
        counted = None
        if len(s) >= min(2 * most, UNCOUNTED_BYTES):
            counted = self.counts() if isinstance(s, bytes) else BodyCounts(s)
            if counted.objects > most:
                raise LimitError(
                    f"a request body opens at most {most} objects (one for each "
                    f"{BYTES_PER_OBJECT} bytes of its size limit, {MAX_BODY_OBJECTS} at "
                    f"most), not {counted.objects}",
                    field="(body)",
                )
            _charge_reading(counted.reading())
        if isinstance(s, bytes):
            read = _read_by_orjson(s, bounded=True)
            if read is not UNPROVEN:
                return read
        if counted is not None:
            _charge_reading(counted.decoding())
        return decoded(s, _REQUEST_DECODER)


class IJsonRequest(Request):
    # Flask hands each request the app's JSON provider (RequestContext.push); a request
    # body is read with its objects bounded all the same, whatever it was handed.
    @property
    def json_module(self) -> Any:
        return _RequestJson(self.max_content_length, self.body_counts)

    @json_module.setter
    def json_module(self, provider: Any) -> None:
        pass

    def body_counts(self) -> BodyCounts:
        """``BodyCounts`` of the body (read whole), counted once a request."""
        counted: BodyCounts | None = self.__dict__.get("_body_counts")
        if counted is None:
            counted = self.__dict__["_body_counts"] = BodyCounts(self.get_data())
        return counted

    @cached_property
    def content_length(self) -> int | None:
        """werkzeug's answer, from the environ as werkzeug's ``get_content_length`` reads it
        (the same two values), without building the request's headers to ask them."""
        return get_content_length(self.environ)

    @cached_property
    def is_json(self) -> bool:
        """werkzeug's answer, kept for the request's three readers (the JSON-body hook, the
        body loader, get_json); the plain header most clients send needs no parsing."""
        if self.environ.get("CONTENT_TYPE") == "application/json":
            return True
        return bool(super().is_json)

    def get_data(
        self, cache: bool = True, as_text: bool = False, parse_form_data: bool = False
    ) -> Any:
        """werkzeug's ``get_data``; the first cached read of a body of known size reads
        it from the server's stream here, without werkzeug's input stream around it."""
        if (
            cache
            and not parse_form_data
            and getattr(self, "_cached_data", None) is None
            and "stream" not in self.__dict__
            and not self.shallow
        ):
            length = self.content_length
            if length is not None:
                self._cached_data = self._sized_body(length)
        return super().get_data(cache, as_text, parse_form_data)  # type: ignore[call-overload]

    def _sized_body(self, length: int) -> bytes:
        """The body of a request with a Content-Length, as werkzeug's input stream reads
        it: over the size limit a 413 before a byte is read; a server that ends the body
        itself (``wsgi.input_terminated``, as gunicorn) read to its end; any other read
        for Content-Length bytes, the rest of a short read left to werkzeug's stream (a
        client gone is its 400, as a failed read is)."""
        limit = self.max_content_length
        if limit is not None and length > limit:
            raise RequestEntityTooLarge()
        environ = self.environ
        source = environ["wsgi.input"]
        terminated = "wsgi.input_terminated" in environ
        if terminated and limit is None:
            whole: bytes = source.read()  # werkzeug hands on the server's stream itself
            return whole
        if not terminated and not length:
            return b""
        try:
            data: bytes = source.read() if terminated else source.read(length)
        except (OSError, ValueError):
            raise ClientDisconnected() from None
        if terminated or len(data) == length:
            return data
        return data + LimitedStream(source, length - len(data)).read()

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if isinstance(e, BodyError):
            raise MalformedBody(e)
        return super().on_json_loading_failed(e)


def body_counts(request: Request) -> BodyCounts:
    """``BodyCounts`` of a request's body, counted once a request (``IJsonRequest``)."""
    if isinstance(request, IJsonRequest):
        return request.body_counts()
    return BodyCounts(request.get_data())  # pragma: no cover - every request is one


def init_app(app: Flask) -> None:
    app.json = IJsonProvider(app)
    app.json.sort_keys = False
    app.request_class = IJsonRequest


def require_json(app: Flask, own_limits: Mapping[str, int]) -> None:
    """Refuse, before any view reads it, a POST body that is not JSON, is empty or (sent in
    chunks) breaks its framing; set each request's body limit: its endpoint's own in
    ``own_limits``, else the app's ``MAX_CONTENT_LENGTH``."""
    config = app.config

    @app.before_request
    def require_json_body() -> Response | None:
        """Every POST takes a JSON object; say so plainly rather than guess."""
        req = current_request()
        if req.method != "POST" or req.routing_exception is not None:
            return None
        # Before anything reads the body; set on the request either way, so each read of
        # the limit is the request's own rather than a look-up of the app's config.
        req.max_content_length = own_limits.get(req.endpoint or "", config["MAX_CONTENT_LENGTH"])
        if not req.is_json:
            return problem(
                415,
                KINDS["unsupported-media-type"].id,
                "Unsupported Media Type",
                "send the body as application/json",
            )
        length = req.content_length
        if length is None and req.environ.get("wsgi.input_terminated"):
            refused = _read_unsized_body(req)
            if refused is not None:
                return refused
        if not length and not req.get_data(cache=True):
            return problem(
                400,
                KINDS["malformed-request"].id,
                "Bad Request",
                "the body is empty: send a JSON object ({} if the step needs no inputs)",
            )
        return None


def _read_unsized_body(req: Request) -> Response | None:
    """A body without Content-Length (chunked): the server ends it, so read it here, up
    to one byte past the limit. Werkzeug would stop at the limit and hand on a cut body
    (a 400 "Invalid JSON body" instead of the 413 a Content-Length gets), and a framing
    error the server raises while reading would surface as a 500."""
    limit = req.max_content_length
    if limit is None:
        return None
    source = req.environ["wsgi.input"]
    data = bytearray()
    try:
        while len(data) <= limit:
            piece = source.read(limit + 1 - len(data))
            if not piece:
                break
            data += piece
    except Exception:  # the server's own parse error (a bad chunk size, a cut chunk)
        return problem(
            400,
            KINDS["malformed-request"].id,
            "Bad Request",
            "the chunked body is malformed: send chunks as RFC 9112 section 7.1 says",
        )
    if len(data) > limit:
        raise RequestEntityTooLarge()  # the same problem as an oversized Content-Length
    req.environ["wsgi.input"] = io.BytesIO(bytes(data))
    req.__dict__.pop("stream", None)  # werkzeug caches the stream it made
    return None
