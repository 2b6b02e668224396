"""The rule text's example turn, played through the HTTP API with the dice it prints.

Player A has a Veteran Battleship; player B two Seasoned Destroyers.
"""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.fleet_action_helpers import check, fields_at_fault, refused, resolve, shot

BATTLESHIP = {"class": "Battleship", "crew": "Veteran", "name": "Battleship"}
DESTROYER_1 = {"class": "Destroyer", "crew": "Seasoned", "name": "Destroyer 1"}
DESTROYER_2 = {"class": "Destroyer", "crew": "Seasoned", "name": "Destroyer 2"}


def test_the_example_turn_player_b_wins(client: FlaskClient) -> None:
    # A rolls 3 for initiative, B rolls 5. B wins, so A goes first.
    initiative = resolve(client, "initiative", {}, [3, 5])
    assert initiative["result"] == {"winner": "B", "first": "A", "second": "B", "ties": 0}

    # The Battleship fires at Destroyer 1, 40" away, well inside its 48" gun range:
    # 6 dice needing 4+ show 2, 4, 5, 1, 6, 3; Destroyer 1 saves (5+) with 5, 2, 4.
    first = resolve(client, "fire", shot(BATTLESHIP, DESTROYER_1, 40), [2, 4, 5, 1, 6, 3, 5, 2, 4])
    assert first["rolls"][0] == {
        "label": "attack",
        "notation": "6d6",
        "values": [2, 4, 5, 1, 6, 3],
        "total": 21,
    }
    assert check(first, "To Hit number")["outcome"] == "4+"
    assert [check(first, f"attack die {n}")["outcome"] for n in range(1, 7)] == [
        "miss",
        "hit",
        "hit",
        "miss",
        "hit: unmodified 6",
        "miss",
    ]
    # Three hits, one a 6. The 5 saves one; the failed save on the 6 is catastrophic.
    assert first["rolls"][1]["notation"] == "3d6"
    assert check(first, "armour save for attack die 2")["outcome"] == "saved"
    assert check(first, "armour save for attack die 5")["outcome"].endswith("catastrophic hit")
    assert first["result"]["hits"] == 3
    assert first["result"]["saves"] == 1
    assert first["result"]["catastrophic"] is True
    assert first["result"]["target"]["name"] == "Destroyer 1"
    assert first["result"]["target"]["sunk"] is True  # Destroyer 1 is gone

    # Destroyer 2 closes to 18": still too far for torpedoes ...
    too_far = refused(client, "torpedo", shot(DESTROYER_2, BATTLESHIP, 18))
    assert fields_at_fault(too_far) == ["range"]
    assert '16"' in too_far["detail"]

    # ... so it fires guns: 3 dice needing 5+ show 5, 2, 6; the Battleship saves (2+) 4, 1.
    second = resolve(client, "fire", shot(DESTROYER_2, BATTLESHIP, 18), [5, 2, 6, 4, 1])
    assert check(second, "To Hit number")["outcome"] == "5+"
    assert second["result"]["hits"] == 2
    assert second["result"]["saves"] == 1
    assert second["result"]["hull_lost"] == 1
    assert check(second, "armour save for attack die 3")["natural"] == 1
    assert second["result"]["catastrophic"] is True
    battleship_after = second["result"]["target"]
    assert battleship_after["sunk"] is True  # down goes the Battleship, 5 Hull or not

    # Player A has nothing left afloat; Destroyer 2 is untouched: player B wins.
    assert first["result"]["target"]["sunk"] and battleship_after["sunk"]
    destroyer_2 = resolve(client, "damage", {"ship": DESTROYER_2, "hull_lost": 0})
    assert destroyer_2["result"]["ship"]["sunk"] is False
    # And the sunk Battleship can no longer fire (it was removed from the table).
    sunk_battleship = {**BATTLESHIP, "hull_lost": battleship_after["hull_lost"]}
    gone = refused(client, "fire", shot(sunk_battleship, DESTROYER_2, 18))
    assert fields_at_fault(gone) == ["firer"]
