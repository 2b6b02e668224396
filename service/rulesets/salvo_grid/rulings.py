"""Where the SALVO text is silent or leaves a choice: what this service decides, and why."""

from __future__ import annotations

from ...engine.ruleset import Ruling

RULINGS = (
    Ruling(
        "fleet",
        "The text says five ships, 17 squares, but never names them.",
        "Carrier 5, Battleship 4, Cruiser 3, Submarine 3, Destroyer 2. Requests name them "
        "carrier, battleship, cruiser, submarine and destroyer.",
        "The classic five that add up to 17, and each carries one of the five specials.",
    ),
    Ruling(
        "specials",
        "Every ship has a once-a-game special, but the text names only recon, sonar, the heavy "
        "shell, depth charges and the dive.",
        "Carrier: recon flight, a 3x3 area around a square, answered with the number of enemy "
        "ship squares not yet hit in it (a centre on the edge counts the part on the board). "
        "Cruiser: sonar sweep, one whole row or column, answered the same way. Battleship: "
        "heavy shell, a 2x2 block given by its top-left square, every square fired on at once. "
        "Destroyer: depth charges, a line of 3 given by its top or left end and an "
        "orientation, hitting any ship there, a diving submarine included. Submarine: dive. "
        "The shell and the charges must lie wholly on the board.",
        "Recon and sonar only look, so a clipped area still means something; a shell or "
        "charge aimed off the board would waste squares the captain never meant to waste.",
    ),
    Ruling(
        "special-needs-its-ship-afloat",
        "A special is fired with 'that ship's shot'. Are shots tied to ships?",
        "No: a salvo's shots belong to no ship. A special may be used in any salvo while its "
        "ship was afloat at the start of the round, in addition to the shots, even a salvo "
        "with fewer shots than its size. Each special once a game; a second use, or a use by "
        "a ship sunk before this round, is refused naming the special.",
        "The text counts shots per ship afloat but lets any shot go to any square; tying a "
        "shot to a ship would add book-keeping with no effect on the board.",
    ),
    Ruling(
        "dive-timing",
        "Both salvos land together. Which rival salvo does a dive protect against?",
        "The rival's salvo of the next round. During it, shots and heavy-shell squares on the "
        "submarine come back as contact and do no damage; depth charges still hit. The dive "
        "is never reported to the rival; only contacts reveal it.",
        "The rival's salvo of the same round was aimed at the same moment as the dive, so it "
        "is not the 'next' one; and the computer dives once its submarine has been hit, which "
        "only makes sense if the dive shelters it from the salvo that follows.",
    ),
    Ruling(
        "area-overlap",
        "A heavy shell or depth charge square was fired at before, or lies under another "
        "area, or a shot is aimed under the salvo's own shell.",
        "A square is fired on once per salvo. Area squares fired on in an earlier round are "
        "left alone (contacts may be fired on again); where the charges and the shell overlap "
        "the square is fired on by the depth charges. A shot aimed at a square the salvo's "
        "own shell or charges already cover is refused: each shot needs its own square.",
        "The text says each shot needs its own square not fired at before. An area that "
        "touches old squares is still worth firing, and the charges go first because they "
        "also hit a diving submarine.",
    ),
    Ruling(
        "counts-after-landing",
        "Recon and sonar count 'enemy ship squares not yet hit'. Before or after this round's "
        "salvos land?",
        "After both salvos land (this round's hits are no longer counted). A contact square "
        "has not been hit, so it counts.",
        "Everything in a round lands together and the report comes back with the shots; "
        "counting after is what the captain will face next round.",
    ),
    Ruling(
        "radar-buoy",
        "Which square does a radar buoy reveal?",
        "One square, chosen by one die with as many sides as there are candidates: squares "
        "of the rival's ships still afloat after this round lands, not hit and not already a "
        "contact, in reading order (A1 to J1, then A2...). If there is none, the buoy reveals "
        "nothing. The square becomes a contact the finder may fire at; the owner is told "
        "which square was revealed.",
        "A contact on a ship that just sank, or on a square already known, would be no "
        "contact at all; the owner sees everything that happens on their own ocean.",
    ),
    Ruling(
        "loot",
        "How does found loot count?",
        "Each crate +1, each mine -1, a radar buoy 0 (it gives a contact instead). Loot found "
        "by one salvo, shots, shell and charge squares alike, adds up and counts for the "
        "finder's next salvo only; the salvo never drops below 1 while a ship floats. The "
        "ocean state carries it as loot_bonus.",
        "As the text says (two crates +2, a crate and a mine cancel out); the state has to "
        "carry it because the service remembers nothing between rounds.",
    ),
    Ruling(
        "fewer-shots",
        "Must a salvo use every shot?",
        "No: a salvo may have fewer shots than its size, even none. Only more is refused.",
        "When the clock runs out the shots aimed are fired and the rest are lost; the app "
        "sends what was aimed.",
    ),
    Ruling(
        "sunk-report",
        "Salvos land at once. Which shot 'sank' a ship?",
        "The last square of that ship the salvo fired on, in the order the salvo resolves: "
        "depth charges, heavy shell, then the shots in the order sent. That square comes back "
        "as sunk with the ship and its whole position; the others as hit.",
        "The firing captain needs one place to learn the ship's name and position; any "
        "fixed, published order is as fair as another.",
    ),
    Ruling(
        "told-versus-seen",
        "What does each captain learn?",
        "The firing captain is told each square's result (miss, hit, sunk, contact), loot "
        "found, recon and sonar counts, radar contacts and ships sunk with their positions; "
        "a hit never names its ship. The owner sees every square fired on their ocean with "
        "the ship it struck, the loot the rival found there and the radar contacts, but not "
        "where the rival's recon flew or sonar swept, and never the rival's dive.",
        "The text lists what the owner sees on their ocean: shots, the ship hit, loot found. "
        "Recon and sonar fire nothing, and the dive is hidden by the text.",
    ),
    Ruling(
        "layout-check",
        "What does checking a given layout answer?",
        "The layout step answers 200 with legal true or false and every fault named (missing "
        "or extra ship, wrong size, repeated square, off the board, diagonal, not in a line, "
        "gap, overlap), each with the request member at fault. Every other step refuses an "
        "illegal fleet with 422.",
        "Checking a layout is a question, not a move: the deployment screen wants every "
        "fault at once to mark them.",
    ),
    Ruling(
        "random-placement",
        "How do the seed's dice place ships and loot, so anyone can replay them?",
        "Ships in the order Carrier, Battleship, Cruiser, Submarine, Destroyer; each among "
        "all its legal places (horizontal ones by the top-left square in reading order, then "
        "vertical ones), by one die with exactly that many sides. Loot: 3 crates, 2 mines, 2 "
        "radar buoys, each among the open squares left in reading order. No die when there is "
        "one candidate.",
        "A die with exactly as many sides as choices is unbiased with no re-rolls, and a fixed "
        "order lets a third party re-derive the layout from the seed. Every legal layout can "
        "come out, though not all equally often.",
    ),
    Ruling(
        "computer-captain",
        "How exactly does the computer aim?",
        "With a wounded enemy ship (a hit on a ship not sunk) it brings down its depth charges "
        "on the line of 3 through a hit with the most squares not yet fired on, then its heavy "
        "shell on the 2x2 block through a hit with the most such squares left (ties rolled). "
        "It dives once its own submarine has been hit. Its shots go first to contacts, then to "
        "squares next to a hit on a ship not sunk, then at random, rolling among a group only "
        "when it has more squares than shots left. It never uses recon or sonar.",
        "As the text describes it; contacts first because they are known ship squares, and "
        "rolling only where there is a real choice keeps the trail short.",
    ),
    Ruling(
        "battle-over",
        "Can a salvo be fired after the battle ends?",
        "No: once a captain has no ship afloat, salvo and computer are refused (422). Both "
        "fleets gone in the same round is a draw.",
        "The text ends the battle when all five enemy ships are sunk.",
    ),
    Ruling(
        "rating",
        "How are Elo points rounded, and are games against the computer rated?",
        "Expected score 1 / (1 + 10^((other - own) / 400)), change 32 x (score - expected) "
        "rounded half away from zero; the loser drops exactly what the winner gains, and "
        "ratings stay between 0 and 10000 (a change that would leave that range is cut for "
        "both). A forfeit or resignation is a win for the other captain. The rating step "
        "cannot tell a battle against the computer: the app must not rate those.",
        "Rounding the one change and applying it to both keeps the points zero-sum; 16 "
        "between equals as the text says.",
    ),
    Ruling(
        "no-odds",
        "Is there an /odds endpoint?",
        "No step of SALVO offers /odds: layouts and loot have billions of equally plain "
        "outcomes, a salvo's only dice are radar buoys, the computer's aim is a policy, and "
        "the rating rolls nothing.",
        "Odds answer a question about one roll on a table; SALVO has no tables of that kind.",
    ),
)
