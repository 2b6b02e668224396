"""Where the SALVO text is silent or leaves a choice: what this service decides, and why."""

from __future__ import annotations

from ...engine.ruleset import Reading, Ruling

RULINGS = (
    Ruling(
        id="fleet",
        question="The text says five ships, 17 squares, but never names them.",
        ruling="Carrier 5, Battleship 4, Cruiser 3, Submarine 3, Destroyer 2. Requests name them "
        "carrier, battleship, cruiser, submarine and destroyer.",
        reason="The classic five that add up to 17, and each carries one of the five specials.",
    ),
    Ruling(
        id="specials",
        question="Every ship has a once-a-game special, but the text names only recon, sonar, the "
        "heavy shell, depth charges and the dive.",
        ruling="Carrier: recon flight, a 3x3 area around a square, answered with the number of "
        "enemy ship squares not yet hit in it (a centre on the edge counts the part on the "
        "board). Cruiser: sonar sweep, one whole row or column, answered the same way. "
        "Battleship: heavy shell, a 2x2 block given by its top-left square, every square fired on "
        "at once. Destroyer: depth charges, a line of 3 given by its top or left end and an "
        "orientation, hitting any ship there, a diving submarine included. Submarine: dive. The "
        "shell and the charges must lie wholly on the board.",
        reason="Recon and sonar only look, so a clipped area still means something; a shell or "
        "charge aimed off the board would waste squares the captain never meant to waste.",
    ),
    Ruling(
        id="special-needs-its-ship-afloat",
        question="A ship sunk this round 'has already fired its shot (and its special)'. Are shots "
        "tied to ships, and does a special take one?",
        ruling="No: a salvo's shots belong to no ship. A special may be used in any salvo while "
        "its ship was afloat at the start of the round, in addition to the shots, even a salvo "
        "with fewer shots than its size. Each special once a game; a second use, or a use by a "
        "ship sunk before this round, is refused naming the special.",
        reason="The text counts shots per ship afloat but lets any shot go to any square; tying a "
        "shot to a ship would add book-keeping with no effect on the board.",
        readings=(
            Reading(
                id="in-addition",
                text="A special is used in addition to the salvo's shots: a salvo may carry its "
                "full count of shots and any specials still unused.",
                default=True,
                wording_supports=True,
            ),
            Reading(
                id="costs-a-shot",
                text="A special takes one of the salvo's shots: a salvo's shots and specials "
                "together are at most its size (the computer brings down only as many "
                "specials as it has shots, depth charges first, then the heavy shell, then "
                "the dive).",
            ),
        ),
        wording="'A ship sunk this round has already fired its shot (and its special)' names "
        "the shot and the special as two things a ship fires; a table that reads the special "
        "as the way that ship fires its shot plays it instead of one.",
    ),
    Ruling(
        id="dive-timing",
        question="Both salvos land together. Which rival salvo does a dive protect against?",
        ruling="The rival's salvo of the next round. During it, shots and heavy-shell squares on "
        "the submarine come back as contact and do no damage; depth charges still hit. The dive "
        "is never reported to the rival; only contacts reveal it.",
        reason="The rival's salvo of the same round was aimed at the same moment as the dive, "
        "before anyone could know of it; and the computer dives once its submarine has been "
        "hit, which only makes sense if the dive shelters it from the salvo that follows.",
        readings=(
            Reading(
                id="next-round",
                text="The dive shelters the submarine from the rival's salvo of the next round; "
                "the rival's salvo of the round the dive is ordered in lands as on any ship.",
                default=True,
            ),
            Reading(
                id="same-round",
                text="The dive shelters the submarine from the rival's salvo of the same round: "
                "that salvo's shots and heavy-shell squares on it come back as contact (depth "
                "charges still hit), and the dive is over once the round has landed.",
            ),
        ),
        wording="The text says only that both salvos land together and that a contact is a "
        "shot passing over a diving submarine; it never says when the dive begins, so neither "
        "reading has the words on its side.",
    ),
    Ruling(
        id="area-overlap",
        question="A heavy shell or depth charge square was fired at before, or lies under another "
        "area, or a shot is aimed under the salvo's own shell.",
        ruling="A square is fired on once per salvo. Area squares fired on in an earlier round are "
        "left alone (contacts may be fired on again); where the charges and the shell overlap "
        "the square is fired on by the depth charges. A shot aimed at a square the salvo's "
        "own shell or charges already cover is refused: each shot needs its own square.",
        reason="The text says each shot needs its own square not fired at before. An area that "
        "touches old squares is still worth firing, and the charges go first because they "
        "also hit a diving submarine.",
    ),
    Ruling(
        id="counts-after-landing",
        question="Recon and sonar count 'enemy ship squares not yet hit'. Before or after this "
        "round's salvos land?",
        ruling="After both salvos land (this round's hits are no longer counted). A contact square "
        "has not been hit, so it counts.",
        reason="Everything in a round lands together and the report comes back with the shots; "
        "counting after is what the captain will face next round.",
        readings=(
            Reading(
                id="after-landing",
                text="Recon and sonar count the enemy ship squares still not hit once both salvos "
                "of the round have landed.",
                default=True,
            ),
            Reading(
                id="before-landing",
                text="Recon and sonar count the enemy ship squares not hit before the round: a "
                "square this round's salvo hits still counts.",
            ),
        ),
        wording="'Not yet hit' can be read at the moment the flight is sent, which is before "
        "anything of the round lands, or at the moment the report comes back with the shots; "
        "the text does not say which.",
    ),
    Ruling(
        id="radar-buoy",
        question="Which square does a radar buoy reveal?",
        ruling="One square, chosen by one die with as many sides as there are candidates: squares "
        "of the rival's ships still afloat after this round lands, not hit and not already a "
        "contact, in reading order (A1 to J1, then A2...). If there is none, the buoy reveals "
        "nothing. The square becomes a contact the finder may fire at; the owner is told "
        "which square was revealed.",
        reason="A contact on a ship that just sank, or on a square already known, would be no "
        "contact at all; the owner sees everything that happens on their own ocean.",
        readings=(
            Reading(
                id="any-ship",
                text="A radar buoy reveals a square of any of the rival's ships still afloat, not "
                "hit and not already a contact.",
                default=True,
            ),
            Reading(
                id="submarine",
                text="A radar buoy reveals a square of the rival's submarine (a contact is what "
                "the text calls a shot passing over the submarine), not hit and not already "
                "a contact; nothing once the submarine is sunk or every square of it known.",
            ),
        ),
        wording="The text defines a contact as a shot passing over a diving submarine and "
        "then says a radar buoy 'also gives you a contact': read with the definition, the "
        "buoy finds the submarine; read as 'a known ship square you may fire at', any ship.",
    ),
    Ruling(
        id="loot",
        question="How does found loot count?",
        ruling="Each crate +1, each mine -1, a radar buoy 0 (it gives a contact instead). Loot "
        "found by one salvo, shots, shell and charge squares alike, adds up and counts for the "
        "finder's next salvo only (how low mines can take it: ruling fewer-shots). The ocean "
        "state carries it as loot_bonus.",
        reason="As the text says (two crates +2, a crate and a mine cancel out); the state has to "
        "carry it because the service remembers nothing between rounds.",
    ),
    Ruling(
        id="fewer-shots",
        question="Must a salvo use every shot, and can mines leave a captain with fewer shots than "
        "one?",
        ruling="A salvo may have fewer shots than its size, even none; only more is refused. The "
        "salvo size is one shot per ship afloat plus the last salvo's loot, never below 0: "
        "mines can take a captain's last shot for a round (the specials still fire).",
        reason="When the clock runs out the shots aimed are fired and the rest are lost; the app "
        "sends what was aimed. The text gives the salvo as one shot per ship afloat 'plus or "
        "minus loot' and sets no floor; a round without shots is playable, since loot lasts one "
        "salvo and the next is back to a shot per ship. A floor of one is the service's own "
        "wish that every round have a shot, and stays a choice (floor-of-one).",
        readings=(
            Reading(
                id="floor-of-one",
                text="One shot per ship afloat plus the last salvo's loot, never below 1 while a "
                "ship floats.",
            ),
            Reading(
                id="no-floor",
                text="One shot per ship afloat plus the last salvo's loot, never below 0: a mine "
                "can take a captain's last shot (the specials still fire).",
                default=True,
                wording_supports=True,
            ),
        ),
        wording="The text gives the salvo as one shot per ship afloat 'plus or minus loot' "
        "and names no lower limit; the floor of one is the service's own.",
    ),
    Ruling(
        id="sunk-report",
        question="Salvos land at once. Which shot 'sank' a ship?",
        ruling="The last square of that ship the salvo fired on, in the order the salvo resolves: "
        "depth charges, heavy shell, then the shots in the order sent. That square comes back "
        "as sunk with the ship and its whole position; the others as hit.",
        reason="The firing captain needs one place to learn the ship's name and position; any "
        "fixed, published order is as fair as another.",
    ),
    Ruling(
        id="told-versus-seen",
        question="What does each captain learn?",
        ruling="The firing captain is told each square's result (miss, hit, sunk, contact), loot "
        "found, recon and sonar counts, radar contacts and ships sunk with their positions; "
        "a hit never names its ship. The owner sees every square fired on their ocean with "
        "the ship it struck, the loot the rival found there and the radar contacts, but not "
        "where the rival's recon flew or sonar swept, and never the rival's dive.",
        reason="The text lists what the owner sees on their ocean: shots, the ship hit, loot "
        "found. Recon and sonar fire nothing, and the dive is hidden by the text.",
    ),
    Ruling(
        id="layout-check",
        question="What does checking a given layout answer?",
        ruling="The layout step answers 200 with legal true or false and every fault named "
        "(missing or extra ship, wrong size, repeated square, off the board, diagonal, not in a "
        "line, gap, overlap), each with the request member at fault. Every other step refuses an "
        "illegal fleet with 422.",
        reason="Checking a layout is a question, not a move: the deployment screen wants every "
        "fault at once to mark them.",
    ),
    Ruling(
        id="random-placement",
        question="How do the seed's dice place ships and loot, so anyone can replay them?",
        ruling="Ships in the order Carrier, Battleship, Cruiser, Submarine, Destroyer; each among "
        "all its legal places (horizontal ones by the top-left square in reading order, then "
        "vertical ones), by one die with exactly that many sides. Loot: 3 crates, 2 mines, 2 "
        "radar buoys, each among the open squares left in reading order. No die when there is "
        "one candidate.",
        reason="A die with exactly as many sides as choices is unbiased with no re-rolls, and a "
        "fixed order lets a third party re-derive the layout from the seed. Every legal layout "
        "can come out, though not all equally often.",
    ),
    Ruling(
        id="computer-captain",
        question="How exactly does the computer aim?",
        ruling="With a wounded enemy ship (a hit on a ship not sunk) it brings down its depth "
        "charges on the line of 3 through a hit with the most squares not yet fired on, then its "
        "heavy shell on the 2x2 block through a hit with the most such squares left (ties "
        "rolled). It dives once its own submarine has been hit. Its shots go to squares next "
        "to a hit on a ship not sunk, then at random, rolling among a group only when it has "
        "more squares than shots left; a contact is a square like any other. It never uses "
        "recon or sonar.",
        reason="As the text describes it: its list of how the computer aims (at random until a "
        "hit, then next to each hit) never mentions contacts, and it plays as written. Firing "
        "at contacts first, as known ship squares, is the service's addition and stays a "
        "choice (contacts-first); rolling only where there is a real choice keeps the trail "
        "short.",
        readings=(
            Reading(
                id="contacts-first",
                text="The computer's shots go to contacts first, then to squares next to a hit on "
                "a ship not sunk, then at random.",
            ),
            Reading(
                id="as-listed",
                text="The computer aims only as the text lists: squares next to a hit on a ship "
                "not sunk, then at random; a contact is a square like any other, next to a hit or "
                "among the random ones as it lies.",
                default=True,
                wording_supports=True,
            ),
        ),
        wording="The text's list of how the computer aims (at random until a hit, then next "
        "to each hit) never mentions contacts; putting them first is the service's addition.",
    ),
    Ruling(
        id="battle-over",
        question="Can a salvo be fired after the battle ends?",
        ruling="No: once a captain has no ship afloat, salvo and computer are refused (422). Both "
        "fleets gone in the same round is a draw.",
        reason="The text ends the battle when all five enemy ships are sunk.",
    ),
    Ruling(
        id="rating",
        question="How are Elo points rounded, and are games against the computer rated?",
        ruling="Expected score 1 / (1 + 10^((other - own) / 400)), change 32 x (score - expected) "
        "rounded half away from zero; the loser drops exactly what the winner gains, and "
        "ratings stay between 0 and 10000 (a change that would leave that range is cut for "
        "both). A forfeit or resignation is a win for the other captain. The rating step "
        "cannot tell a battle against the computer: the app must not rate those.",
        reason="Rounding the one change and applying it to both keeps the points zero-sum; 16 "
        "between equals as the text says.",
    ),
    Ruling(
        id="no-odds",
        question="Is there an /odds endpoint?",
        ruling="No step of SALVO offers /odds: layouts and loot have billions of equally plain "
        "outcomes, a salvo's only dice are radar buoys, the computer's aim is a policy, and "
        "the rating rolls nothing.",
        reason="Odds answer a question about one roll on a table; SALVO has no tables of that "
        "kind.",
    ),
)
