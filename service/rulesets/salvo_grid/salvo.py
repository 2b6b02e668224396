"""The salvo step: one round, both captains' salvos checked, then landing together.

A salvo, its specials, a side and a captain's view of the rival's ocean are shapes
(service/engine/shape.py): what a request sends and an answer hands back to send again."""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar, Final

from ...engine.errors import RuleError
from ...engine.resolution import Resolution
from ...engine.shape import to_json
from ...engine.typed import Doc, Limits, Omitted
from . import tables as t
from .fleet import (
    BOARD,
    SQUARES_ON_BOARD,
    BoardSquare,
    Ocean,
    Square,
    choose,
    name,
    names,
    on_board,
    require_legal_ocean,
    shift,
    ship_name,
)
from .results import (
    SalvoGridCaptain,
    SalvoGridCaptainResult,
    SalvoGridColumn,
    SalvoGridOrientation,
    SalvoGridRadar,
    SalvoGridSalvoResult,
    SalvoGridSeen,
    SalvoGridShip,
    SalvoGridSpecialReport,
    SalvoGridSunkShipJson,
    SalvoGridTold,
    SalvoGridToldFire,
)

MAX_SHOTS: Final = 20
MAX_SPECIALS: Final = 10


@dataclass(frozen=True)
class Special:
    """A special: the ship, and what its table entry says to aim it with."""

    component: ClassVar[str] = "SalvoGridSpecial"

    ship: SalvoGridShip
    square: Annotated[
        BoardSquare | None,
        Omitted(),
        Doc(
            "carrier: centre of the 3x3; battleship: top-left of the 2x2; "
            "destroyer: top or left end of the line of 3",
            example="C5",
        ),
    ] = None
    orientation: Annotated[SalvoGridOrientation | None, Omitted(), Doc("destroyer only")] = None
    row: Annotated[
        int | None, Omitted(), Limits(minimum=1, maximum=t.ROWS), Doc("cruiser: a row")
    ] = None
    column: Annotated[SalvoGridColumn | None, Omitted(), Doc("cruiser: a column")] = None


@dataclass(frozen=True)
class Salvo:
    """One captain's salvo: its shots and the specials fired with them."""

    component: ClassVar[str] = "SalvoGridSalvo"

    shots: Annotated[tuple[BoardSquare, ...], Limits(most=MAX_SHOTS)] = ()
    specials: Annotated[tuple[Special, ...], Limits(most=MAX_SPECIALS)] = ()


@dataclass(frozen=True)
class Side:
    component: ClassVar[str] = "SalvoGridSide"

    ocean: Ocean
    salvo: Salvo


@dataclass(frozen=True)
class SalvoInput:
    a: Side
    b: Side


@dataclass(frozen=True)
class SunkShip:
    """A sunk ship and its squares."""

    component: ClassVar[str] = "SalvoGridSunkShip"

    ship: SalvoGridShip
    squares: Annotated[tuple[BoardSquare, ...], Limits(most=max(t.SHIP_SIZES.values()))]


@dataclass(frozen=True)
class View:
    """What one captain knows of the enemy ocean: the salvo step hands it back as `view`,
    and the computer and heat map steps take it as `view`, as it is, with, optionally,
    which contacts a dive gave away (the salvo's `told.fire` says `contact` for a shot on
    the diving submarine; a radar buoy's contact may be any ship)."""

    component: ClassVar[str] = "SalvoGridView"

    misses: Annotated[tuple[BoardSquare, ...], Limits(most=SQUARES_ON_BOARD)] = ()
    hits: Annotated[tuple[BoardSquare, ...], Limits(most=t.FLEET_SQUARES)] = ()
    contacts: Annotated[tuple[BoardSquare, ...], Limits(most=t.FLEET_SQUARES)] = ()
    sunk: Annotated[tuple[SunkShip, ...], Limits(most=len(t.FLEET))] = ()
    # Left out (None) by the salvo step, which never writes it.
    dive_contacts: Annotated[
        tuple[BoardSquare, ...] | None,
        Omitted(),
        Limits(most=t.SHIP_SIZES["submarine"]),
        Doc(
            "Squares a shot found the diving submarine on, as the captain marks them (the "
            "salvo step never writes it): each listed under `contacts` (or `hits`, or the "
            "sunk submarine's squares, once fired on again)"
        ),
    ] = None

    @property
    def fired_on(self) -> frozenset[Square]:
        """The squares of the rival's ocean fired on to effect: its misses, its hits and its
        sunk ships' squares (the rival's ``shots_received``; a contact is not one)."""
        sunk = (square for ship in self.sunk for square in ship.squares)
        return frozenset((*self.misses, *self.hits, *sunk))


def shot_refused(square: Square, fired: Set[Square]) -> str | None:
    """Why a shot may not aim at ``square`` of the rival's ocean, whose squares ``fired``
    were fired on to effect before (None: it may), as said after "captain a". A contact
    was not fired on to effect: it may be fired at again."""
    if not on_board(square):
        return (
            f"aims at {name(square)}, off the board: the ocean is columns "
            f"{t.COLUMNS[0]} to {t.COLUMNS[-1]}, rows 1 to {t.ROWS}"
        )
    if square in fired:
        return (
            f"fired at {name(square)} in an earlier round and it is not a contact: each shot "
            "needs a square not fired at before"
        )
    return None


def open_squares(fired: Set[Square]) -> tuple[Square, ...]:
    """Every square a shot may aim at, in reading order: those ``shot_refused`` allows,
    which are the squares of the board (every one of ``BOARD`` is on it) not in ``fired``.
    Asked for every captain's answer, so it tests each square once, and nothing more."""
    return tuple(square for square in BOARD if square not in fired)


def special_area(special: Special, where: str) -> tuple[Square, ...]:
    """The squares a special covers, checking it is aimed the way its table entry says."""
    spec = t.SPECIALS[special.ship]
    what = f"the {t.SHIP_NAMES[special.ship]}'s {spec['special']}"
    given = [key for key in ("square", "orientation", "row", "column") if getattr(special, key)]
    wanted = spec["aim"]
    if special.ship == "cruiser":
        if len(given) != 1 or given[0] not in wanted:
            raise RuleError(
                f"{what} sweeps one whole line: give either row (1-{t.ROWS}) or column "
                f"({t.COLUMNS[0]}-{t.COLUMNS[-1]}), nothing else",
                where,
            )
        if special.row is not None:
            return tuple((c, special.row - 1) for c in range(len(t.COLUMNS)))
        column = t.COLUMNS.index(str(special.column))
        return tuple((column, r) for r in range(t.ROWS))
    extra = [key for key in given if key not in wanted]
    missing = [key for key in wanted if key not in given]
    if extra or missing:
        needs = " and ".join(wanted) if wanted else "nothing but the ship"
        raise RuleError(f"aim {what} with {needs}", f"{where}.{(missing or extra)[0]}")
    if special.square is None:
        return ()
    offsets = spec["area"]
    if special.orientation is not None:
        offsets = offsets[special.orientation]
    area = [shift(special.square, offset) for offset in offsets]
    if spec["clipped_to_board"]:
        return tuple(sq for sq in area if on_board(sq))
    off = [sq for sq in area if not on_board(sq)]
    if off:
        raise RuleError(
            f"{what} from {name(special.square)} would run off the board at "
            f"{', '.join(names(off))}: {spec['square']}",
            f"{where}.square",
        )
    return tuple(area)


def salvo_size(ocean: Ocean, res: Resolution) -> int:
    """The ocean's captain's salvo size under the fewer-shots reading in force."""
    return ocean.salvo_size(floor=res.reading("fewer-shots") == "floor-of-one")


def within_salvo(specials: list[Special], size: int, res: Resolution) -> tuple[list[Special], int]:
    """The specials a salvo of ``size`` carries and the shots left beside them: all of them
    and every shot, or (ruling special-needs-its-ship-afloat, reading costs-a-shot) the first
    ``size`` specials and a shot fewer for each."""
    if res.reading("special-needs-its-ship-afloat") != "costs-a-shot":
        return specials, size
    kept = specials[:size]
    return kept, size - len(kept)


@dataclass(frozen=True)
class Plan:
    """One captain's checked salvo: the squares it fires on, in order, and its specials."""

    fire: tuple[tuple[Square, str], ...]
    specials: tuple[tuple[Special, tuple[Square, ...]], ...]


def plan_salvo(
    captain: str, side: Side, rival: Ocean, size: int, special_costs_a_shot: bool = False
) -> Plan:
    """Check a salvo of at most ``size`` shots against the rules and list the squares it
    fires on, each once. ``special_costs_a_shot``: ruling special-needs-its-ship-afloat,
    reading costs-a-shot (each special used takes one shot from the salvo)."""
    where = f"{captain}.salvo"
    ocean, salvo = side.ocean, side.salvo
    specials: list[tuple[Special, tuple[Square, ...]]] = []
    for index, special in enumerate(salvo.specials):
        at = f"{where}.specials[{index}]"
        ship = t.SHIP_NAMES[special.ship]
        what = f"the {ship}'s {t.SPECIAL_NAMES[special.ship]}"
        if special.ship in ocean.specials_used:
            raise RuleError(
                f"captain {captain} already used {what} earlier in the battle: each special "
                "is used once a game",
                f"{at}.ship",
            )
        if any(done.ship == special.ship for done, _ in specials):
            raise RuleError(
                f"captain {captain} uses {what} twice in this salvo: each special is used "
                "once a game",
                f"{at}.ship",
            )
        if ocean.sunk(special.ship):
            raise RuleError(
                f"captain {captain}'s {ship} was sunk before this round, and {what} went "
                "down with it",
                f"{at}.ship",
            )
        specials.append((special, special_area(special, at)))

    fired_before = rival.fired_on
    fire: dict[Square, str] = {}
    for firing in t.FIRING_SPECIALS:  # depth charges first: ruling area-overlap
        for special, area in specials:
            if special.ship == firing:
                for square in area:
                    if square not in fired_before and square not in fire:
                        fire[square] = t.FIRE_BY[firing]

    afloat = len(ocean.afloat())
    loot = f", {ocean.loot_bonus:+d} from loot" if ocean.loot_bonus else ""
    why = f"{afloat} ship{'s' if afloat != 1 else ''} afloat{loot}"
    cost = len(specials) if special_costs_a_shot else 0
    if cost > size:
        raise RuleError(
            f"captain {captain} uses {cost} special{'s' if cost != 1 else ''} but has a salvo "
            f"of {size} ({why}): each special takes one of the salvo's shots",
            f"{where}.specials",
        )
    if len(salvo.shots) > size - cost:
        less = f", less {cost} for the special{'s' if cost != 1 else ''} used" if cost else ""
        raise RuleError(
            f"captain {captain} aims {len(salvo.shots)} shots but has a salvo of {size} "
            f"({why}{less})",
            f"{where}.shots",
        )
    for index, square in enumerate(salvo.shots):
        at = f"{where}.shots[{index}]"
        refusal = shot_refused(square, fired_before)
        if refusal is not None:
            raise RuleError(f"captain {captain} {refusal}", at)
        if square in fire:
            if fire[square] == t.FIRE_BY[None]:
                raise RuleError(
                    f"captain {captain} aims at {name(square)} twice in this salvo: each shot "
                    "needs its own square",
                    at,
                )
            raise RuleError(
                f"{name(square)} is already under captain {captain}'s {fire[square]} this "
                "salvo: each shot needs its own square",
                at,
            )
        fire[square] = t.FIRE_BY[None]
    return Plan(tuple(fire.items()), tuple(specials))


@dataclass
class Landing:
    """One salvo landing on one ocean, and what it leaves there."""

    entries: list[dict[str, Any]]
    fired: list[Square]
    contacts: list[Square]
    sunk: list[str]
    radar: list[SalvoGridRadar]


def land(plan: Plan, ocean: Ocean) -> Landing:
    """Every square of the salvo resolves against the ocean as it stood before the round."""
    fired = list(ocean.shots_received)
    contacts = list(ocean.contacts)
    entries = []
    for square, by in plan.fire:
        owner = ocean.owners.get(square)
        if owner is None:
            result = "miss"
            fired.append(square)
        elif owner == "submarine" and ocean.diving and by != t.FIRE_BY["destroyer"]:
            result = "contact"
            if square not in contacts:
                contacts.append(square)
        else:
            result = "hit"
            fired.append(square)
            if square in contacts:
                contacts.remove(square)
        entries.append(
            {
                "square": square,
                "by": by,
                "result": result,
                "ship": owner,
                "loot": ocean.loot_at(square) if owner is None else None,
            }
        )
    now = set(fired)
    sunk = [ship for ship in ocean.afloat() if ocean.sunk(ship, now)]
    for ship in sunk:  # ruling sunk-report: the last square of it this salvo fired on
        last = max(i for i, e in enumerate(entries) if e["ship"] == ship and e["result"] == "hit")
        entries[last]["result"] = "sunk"
    return Landing(entries, fired, contacts, sunk, [])


def radar_buoys(captain: str, landing: Landing, ocean: Ocean, res: Resolution) -> None:
    """Each buoy found gives a contact on a square of a ship still afloat, not yet known
    (ruling radar-buoy: of any ship, or with reading submarine of the submarine alone)."""
    fired = set(landing.fired)
    ships = {"submarine"} if res.reading("radar-buoy") == "submarine" else set(t.SHIP_IDS)
    for entry in landing.entries:
        if entry["loot"] != "radar-buoy":
            continue
        candidates = [
            sq
            for sq in BOARD
            if ocean.owners.get(sq) in ships
            and not ocean.sunk(ocean.owners[sq], fired)
            and sq not in fired
            and sq not in landing.contacts
        ]
        contact = None
        if candidates:
            contact = choose(
                res, f"radar buoy {name(entry['square'])} (captain {captain})", candidates, name
            )
            landing.contacts.append(contact)
        landing.radar.append(
            {"buoy": name(entry["square"]), "contact": name(contact) if contact else None}
        )


def _sunk(ocean: Ocean, ships: Sequence[str]) -> tuple[SunkShip, ...]:
    return tuple(SunkShip(ship_name(ship), ocean.squares_of(ship)) for ship in ships)


def _sunk_list(ocean: Ocean, ships: Sequence[str]) -> list[SalvoGridSunkShipJson]:
    return [to_json(sunk) for sunk in _sunk(ocean, ships)]


def view_of(ocean: Ocean) -> View:
    """What the rival knows of this ocean: misses, hits on ships afloat, contacts, sunk ships."""
    fired = ocean.fired_on
    afloat = set(ocean.afloat())
    in_order = [sq for sq in BOARD if sq in fired]
    return View(
        misses=tuple(sq for sq in in_order if sq not in ocean.owners),
        hits=tuple(sq for sq in in_order if ocean.owners.get(sq) in afloat),
        contacts=ocean.contacts,
        sunk=_sunk(ocean, [p.ship for p in ocean.fleet if p.ship not in afloat]),
    )


def _told(
    captain_plan: Plan, landing: Landing, rival: Ocean, bonus: int, counted: Set[Square]
) -> SalvoGridTold:
    """What the firing captain is told: no ship is named until it sinks. Recon and sonar
    count the rival's ship squares not in ``counted`` (ruling counts-after-landing)."""
    fire: list[SalvoGridToldFire] = []
    for entry in landing.entries:
        sunk = entry["result"] == "sunk"
        fire.append(
            {
                "square": name(entry["square"]),
                "by": entry["by"],
                "result": entry["result"],
                "ship": entry["ship"] if sunk else None,
                "position": names(rival.squares_of(entry["ship"])) if sunk else [],
                "loot": entry["loot"],
            }
        )
    specials: list[SalvoGridSpecialReport] = []
    for special, area in captain_plan.specials:
        count = None
        if t.SPECIALS[special.ship]["effect"] == "count":
            count = sum(1 for sq in area if sq in rival.owners and sq not in counted)
        specials.append(
            {
                "ship": ship_name(special.ship),
                "special": t.SPECIAL_NAMES[special.ship],
                "squares": names(area),
                "count": count,
            }
        )
    return {
        "fire": fire,
        "specials": specials,
        "radar": landing.radar,
        "sunk": _sunk_list(rival, landing.sunk),
        "loot_bonus": bonus,
    }


def _seen(landing: Landing, own: Ocean) -> SalvoGridSeen:
    """What the owner sees land on its own ocean: every square, which ship, any loot."""
    return {
        "fire": [
            {
                "square": name(entry["square"]),
                "by": entry["by"],
                "result": entry["result"],
                "ship": entry["ship"],
                "loot": entry["loot"],
            }
            for entry in landing.entries
        ],
        "radar": landing.radar,
        "sunk": _sunk_list(own, landing.sunk),
    }


def salvo(inp: SalvoInput, res: Resolution) -> SalvoGridSalvoResult:
    """One round: both salvos are checked, then land together on the oceans as they stood."""
    sides: dict[SalvoGridCaptain, Side] = {"a": inp.a, "b": inp.b}
    rivals: dict[SalvoGridCaptain, SalvoGridCaptain] = {"a": "b", "b": "a"}
    for captain, side in sides.items():
        require_legal_ocean(side.ocean, f"{captain}.ocean", f"captain {captain}'s")
    for captain, side in sides.items():
        if not side.ocean.afloat():
            raise RuleError(
                f"captain {captain} has no ship afloat: the battle is over", f"{captain}.ocean"
            )
    costs = res.reading("special-needs-its-ship-afloat") == "costs-a-shot"
    plans = {
        c: plan_salvo(c, side, sides[rivals[c]].ocean, salvo_size(side.ocean, res), costs)
        for c, side in sides.items()
    }
    dived = {c: any(s.ship == "submarine" for s, _ in plans[c].specials) for c in sides}
    # Ruling dive-timing: a dive shelters the submarine from the next round's rival salvo,
    # or (reading same-round) from the rival salvo it lands together with.
    dive_now = res.reading("dive-timing") == "same-round"
    targets = {
        c: replace(sides[c].ocean, diving=True) if dive_now and dived[c] else sides[c].ocean
        for c in sides
    }
    # landings[c]: captain c's salvo landing on the rival's ocean.
    landings = {c: land(plans[c], targets[rivals[c]]) for c in sides}
    for captain in sides:
        radar_buoys(captain, landings[captain], sides[rivals[captain]].ocean, res)

    oceans = {}
    bonus = {}
    for captain, side in sides.items():
        found = [e["loot"] for e in landings[captain].entries if e["loot"]]
        bonus[captain] = sum(t.LOOT_SHOTS[kind] for kind in found)
        incoming = landings[rivals[captain]]
        used_now = tuple(special.ship for special, _ in plans[captain].specials)
        oceans[captain] = replace(
            side.ocean,
            shots_received=tuple(incoming.fired),
            contacts=tuple(incoming.contacts),
            specials_used=side.ocean.specials_used + used_now,
            diving=False,
            loot_bonus=bonus[captain],
        )
        if dived[captain] and not dive_now and not oceans[captain].sunk("submarine"):
            oceans[captain] = replace(oceans[captain], diving=True)

    # Ruling counts-after-landing: recon and sonar count against the rival's ocean after the
    # round (this round's hits no longer count) or, reading before-landing, as it stood.
    after = res.reading("counts-after-landing") == "after-landing"
    beaten = {c for c in sides if not oceans[c].afloat()}
    out: dict[SalvoGridCaptain, SalvoGridCaptainResult] = {}
    for captain in sides:
        rival = rivals[captain]
        counted = set(landings[captain].fired) if after else sides[rival].ocean.fired_on
        size = salvo_size(oceans[captain], res)
        # The next round's shots may aim at these (none when the battle is over, or without
        # a shot): what the next call's plan_salvo lets through.
        open_to_fire = () if beaten or not size else open_squares(oceans[rival].fired_on)
        out[captain] = {
            "told": _told(
                plans[captain], landings[captain], oceans[rival], bonus[captain], counted
            ),
            "own_ocean": _seen(landings[rival], oceans[captain]),
            "afloat": [ship_name(ship) for ship in oceans[captain].afloat()],
            "salvo_size": size,
            "ocean": to_json(oceans[captain]),
            "view": to_json(view_of(oceans[rival])),
            "may_fire_at": names(open_to_fire),
        }
    return {
        "a": out["a"],
        "b": out["b"],
        "game_over": bool(beaten),
        "winner": None if len(beaten) != 1 else rivals[beaten.pop()],
        "draw": len(beaten) == 2,
    }
