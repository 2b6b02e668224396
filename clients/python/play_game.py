"""Play Fire Control through a client generated from its OpenAPI document, and nothing else.

Generate the client (it becomes the package ``fire_control_client``), then run this script
against a running service::

    openapi-python-client generate --url http://127.0.0.1:8080/openapi.json \
        --meta none --output-path fire_control_client
    python play_game.py http://127.0.0.1:8080

It plays a whole seeded salvo-solo game to its end (each turn hands its state straight to
the next), a whole salvo-grid battle of the computer against itself, one dreadnought step
and one fleet-action step, rolls dice, and has the service verify the salvo-solo game log
and each of the other answers, handed back as they were received.
The test suite runs it (tests/test_generated_clients.py) and type-checks it with
``mypy --strict``.
"""

from __future__ import annotations

import hashlib
import sys
from typing import TypeVar

from fire_control_client import Client
from fire_control_client.api.dice import roll_dice
from fire_control_client.api.dreadnought import dreadnought_fire
from fire_control_client.api.fleet_action import fleet_action_fire
from fire_control_client.api.receipts import verify_receipts
from fire_control_client.api.salvo_grid import (
    salvo_grid_computer,
    salvo_grid_layout,
    salvo_grid_loot,
    salvo_grid_salvo,
)
from fire_control_client.api.salvo_solo import salvo_solo_turn
from fire_control_client.models import (
    DreadnoughtFireRequest,
    DreadnoughtFireResponse,
    DreadnoughtNamedShip,
    DreadnoughtShipName,
    FleetActionCrew,
    FleetActionFirer,
    FleetActionFireRequest,
    FleetActionFireResponse,
    FleetActionShip,
    FleetActionShipClass,
    Problem,
    RollRequest,
    RollResponse,
    SalvoGridComputerRequest,
    SalvoGridLayoutRequest,
    SalvoGridLootRequest,
    SalvoGridOcean,
    SalvoGridSalvoRequest,
    SalvoGridSalvoResponse,
    SalvoGridSide,
    SalvoGridView,
    SalvoSoloAction,
    SalvoSoloGameState,
    SalvoSoloNamedShip,
    SalvoSoloRange,
    SalvoSoloShipName,
    SalvoSoloTurnRequest,
    SalvoSoloTurnResponse,
    SalvoSoloWeather,
    SeededDice,
)

T = TypeVar("T")
SignedOnce = (
    SalvoGridSalvoResponse | DreadnoughtFireResponse | FleetActionFireResponse | RollResponse
)

SEED = "generated-client"
MOST_TURNS = 200
MOST_ROUNDS = 110


def answered(answer: T | Problem | None) -> T:
    """The typed answer, or stop with the problem the service sent."""
    if answer is None:
        raise SystemExit("the service sent a status the document does not list")
    if isinstance(answer, Problem):
        raise SystemExit(f"{answer.status} {answer.title}: {answer.detail}")
    return answer


def receipt_hash(receipt: str) -> str:
    """What the next request's ``prev`` carries: the hex SHA-256 of this receipt."""
    return hashlib.sha256(receipt.encode()).hexdigest()


def choose(state: SalvoSoloGameState, allowed: list[SalvoSoloAction]) -> SalvoSoloAction:
    """The player's captain: close while the enemy is far, offer broadside once in range,
    among the Actions the rules allow its ship (the last answer's ``actions.player``)."""
    far = (SalvoSoloRange.LONG, SalvoSoloRange.MEDIUM_LONG)
    wanted = SalvoSoloAction.C if state.range_ in far else SalvoSoloAction.OB
    return wanted if wanted in allowed else allowed[0]


def play_salvo_solo(client: Client) -> list[SalvoSoloTurnResponse]:
    """Ajax against Graf Spee until the game ends, each receipt chained to the last."""
    state = SalvoSoloGameState(
        turn=1,
        weather=SalvoSoloWeather.FAIR,
        range_=SalvoSoloRange.LONG,
        player=SalvoSoloNamedShip(ship=SalvoSoloShipName.AJAX),
        enemy=SalvoSoloNamedShip(ship=SalvoSoloShipName.GRAF_SPEE),
    )
    log: list[SalvoSoloTurnResponse] = []
    allowed: list[SalvoSoloAction] = list(SalvoSoloAction)
    for nonce in range(1, MOST_TURNS + 1):
        action = choose(state, allowed)
        request = SalvoSoloTurnRequest(
            state=state,
            player_action=action,
            dice=SeededDice(seed=SEED, nonce=nonce),
        )
        if log:
            request.prev = receipt_hash(log[-1].receipt)
        answer = answered(salvo_solo_turn.sync(client=client, body=request))
        log.append(answer)
        result = answer.result
        print(f"turn {state.turn}: {action.value}, range {result.state.range_.value}")
        if result.game_over:
            winner = "draw" if result.winner is None else result.winner.value
            print(f"salvo-solo over after {nonce} turns: {winner} ({result.reason})")
            return log
        state = result.state  # what the answer hands back is what the next turn takes
        allowed = result.actions.player
    raise SystemExit(f"salvo-solo: no end after {MOST_TURNS} turns")


def play_salvo_grid(client: Client) -> SalvoGridSalvoResponse:
    """The computer against itself, from the layouts to the last salvo (its answer)."""
    nonce = 0

    def dice() -> SeededDice:
        nonlocal nonce
        nonce += 1
        return SeededDice(seed=SEED, nonce=nonce)

    oceans: dict[str, SalvoGridOcean] = {}
    for captain in ("a", "b"):
        laid = answered(
            salvo_grid_layout.sync(client=client, body=SalvoGridLayoutRequest(dice=dice()))
        )
        fleet = laid.result.fleet
        if fleet is None:
            raise SystemExit(f"salvo-grid: no fleet laid out: {laid.result.faults}")
        loot = answered(
            salvo_grid_loot.sync(client=client, body=SalvoGridLootRequest(fleet=fleet, dice=dice()))
        )
        oceans[captain] = SalvoGridOcean(fleet=fleet, loot=loot.result.loot)
    views = {"a": SalvoGridView(), "b": SalvoGridView()}
    for round_ in range(1, MOST_ROUNDS + 1):
        aimed = {
            captain: answered(
                salvo_grid_computer.sync(
                    client=client,
                    body=SalvoGridComputerRequest(
                        ocean=oceans[captain], view=views[captain], dice=dice()
                    ),
                )
            ).result.salvo
            for captain in ("a", "b")
        }
        answer = answered(
            salvo_grid_salvo.sync(
                client=client,
                body=SalvoGridSalvoRequest(
                    a=SalvoGridSide(ocean=oceans["a"], salvo=aimed["a"]),
                    b=SalvoGridSide(ocean=oceans["b"], salvo=aimed["b"]),
                    dice=dice(),
                ),
            )
        )
        fired = answer.result
        oceans = {"a": fired.a.ocean, "b": fired.b.ocean}
        views = {"a": fired.a.view, "b": fired.b.view}
        if fired.game_over:
            winner = "draw" if fired.winner is None else f"captain {fired.winner.value}"
            print(f"salvo-grid over after {round_} rounds: {winner}")
            return answer
    raise SystemExit(f"salvo-grid: no end after {MOST_ROUNDS} rounds")


def one_dreadnought_shot(client: Client) -> DreadnoughtFireResponse:
    answer = answered(
        dreadnought_fire.sync(
            client=client,
            body=DreadnoughtFireRequest(
                firer=DreadnoughtNamedShip(ship=DreadnoughtShipName.QUEEN_ELIZABETH),
                battery=15,
                target=DreadnoughtNamedShip(ship=DreadnoughtShipName.DERFFLINGER),
                distance=20,
                first_time_at_target=True,
                dice=SeededDice(seed=SEED, nonce=1),
            ),
        )
    )
    fire = answer.result
    print(f"dreadnought fire: {fire.band.value} range, needs {fire.score_needed}, hit {fire.hit}")
    return answer


def one_fleet_action_salvo(client: Client) -> FleetActionFireResponse:
    answer = answered(
        fleet_action_fire.sync(
            client=client,
            body=FleetActionFireRequest(
                firer=FleetActionFirer(
                    class_=FleetActionShipClass.BATTLESHIP, crew=FleetActionCrew.VETERAN
                ),
                target=FleetActionShip(
                    class_=FleetActionShipClass.DESTROYER, crew=FleetActionCrew.SEASONED
                ),
                range_=40,
                line_of_sight=True,
                dice=SeededDice(seed=SEED, nonce=1),
            ),
        )
    )
    fire = answer.result
    print(f"fleet-action fire: {fire.hits} hits, {fire.saves} saved, hull lost {fire.hull_lost}")
    return answer


def roll(client: Client) -> RollResponse:
    answer = answered(
        roll_dice.sync(
            client=client, body=RollRequest(notation="3d6", dice=SeededDice(seed=SEED, nonce=1))
        )
    )
    print(f"3d6: {answer.result.total}")
    return answer


def verify_log(client: Client, log: list[SalvoSoloTurnResponse]) -> None:
    """Hand the game log back as it was received: every receipt and the chain must hold."""
    checked = answered(verify_receipts.sync(client=client, body=list(log)))
    for entry in checked.entries:
        if not entry.signature_valid or entry.problems:
            raise SystemExit(f"entry {entry.index}: {entry.problems}")
    if not checked.valid:
        raise SystemExit("the service did not accept its own game log")
    print(f"verified {len(checked.entries)} receipts")


def verify_each(client: Client, answers: list[SignedOnce]) -> None:
    """Each answer on its own, handed back as it was received, keeps its receipt."""
    for answer in answers:
        checked = answered(verify_receipts.sync(client=client, body=answer))
        if not checked.valid:
            raise SystemExit(f"{answer.receipt[:16]}...: {checked.entries[0].problems}")
    print(f"verified {len(answers)} single answers")


def main(base_url: str) -> None:
    with Client(base_url=base_url, raise_on_unexpected_status=True) as client:
        log = play_salvo_solo(client)
        others: list[SignedOnce] = [
            play_salvo_grid(client),
            one_dreadnought_shot(client),
            one_fleet_action_salvo(client),
            roll(client),
        ]
        verify_log(client, log)
        verify_each(client, others)


if __name__ == "__main__":
    main(sys.argv[1])
