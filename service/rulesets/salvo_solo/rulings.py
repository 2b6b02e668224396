"""Where the Salvo! text is silent or contradicts itself: what this service decides, and why."""

from __future__ import annotations

from ...engine.ruleset import Reading, Ruling

RULINGS = (
    Ruling(
        id="straddle-21-plus",
        question="The Straddle table's 21+ row is printed empty. What does a modified 21 or more "
        "do?",
        ruling="21 or more gives FFSST, the same as 20.",
        reason="The table grows worse for the target as the roll rises; an empty last row reads as "
        "a printing gap, and a better roll should never do less than a 20 would.",
        readings=(
            Reading(
                id="as-20", text="A modified 21 or more gives FFSST, as 20 does.", default=True
            ),
            Reading(
                id="no-effect",
                text="The 21+ row is printed empty, so a modified 21 or more has no effect (NE).",
            ),
        ),
        wording="The words settle nothing: the row '21+' is printed with no result, which "
        "reads as a gap to fill (as-20) or as an empty result (no-effect) alike.",
    ),
    Ruling(
        id="initial-range-bands",
        question="Can a modified Initial Range roll fall in no band (Stormy takes 2d6 down to -6, "
        "Fine up to 14)?",
        ruling="No: '1 and lower' and '10+' are open ends, so every total has a band. -6 is "
        "Medium, 14 is Extreme.",
        reason="The printed bands are open-ended on purpose, so the weather modifiers can push the "
        "roll anywhere.",
    ),
    Ruling(
        id="no-short-start",
        question="The Initial Range table never gives Short. Is that an omission?",
        ruling="No: a game never starts at Short. Ships reach Short only by closing.",
        reason="The closest printed band is Medium; inventing a Short band would change the odds "
        "of every game. Reaching Short takes a Close action, as the Actions section describes.",
    ),
    Ruling(
        id="gun-size-tie",
        question="Both ships have the same gun size; the text says 'roll to see which fires first' "
        "but not how.",
        ruling="Roll 1d6 ('fire order'): 1-3 the player's ship fires first, 4-6 the enemy.",
        reason="It mirrors the initiative roll the player already knows, and it is an even chance.",
    ),
    Ruling(
        id="firer-t-hits",
        question="What do the firer's T hits do?",
        ruling="Each T hit on the firer is -1 to its Straddle rolls, and once its T hits reach its "
        "Turret rating it cannot fire at all.",
        reason="The Straddle table lists the -1 per T hit, and Ship Damage lists the Turret limit; "
        "both are printed, so both apply: damaged turrets and directors shoot worse, then not "
        "at all.",
    ),
    Ruling(
        id="sunk-is-final",
        question="A Critical 'Explosion' (or any hit) lands on a ship that is already sunk.",
        ruling="Nothing more resolves against a sunk ship: a step aimed at one is refused (422), "
        "and in a composite the remaining shots at a ship that has just sunk are not fired. Hits "
        "that sink a ship are applied in full, so its state shows every hit it took.",
        reason="Once a ship is sunk the game is won; extra hits change nothing a player can see, "
        "and refusing them keeps a game log honest.",
    ),
    Ruling(
        id="speed-floor",
        question="S hits take 2 speed each; can speed go below zero?",
        ruling="No: speed stops at 0, and a ship at 0 can only Offer Broadside.",
        reason="Negative speed has no meaning on the tables; the text itself names speed zero as "
        "the end of movement.",
    ),
    Ruling(
        id="gun-size-bands",
        question='The Straddle gun-size rule names only 8" (-1) and 6" (-2). What of other sizes?',
        ruling='Only the sizes the rule prints: 8" -1, 6" -2; any other size has no modifier; '
        "still 0 against a target of armor 0, 1 or 2.",
        reason='The rule names 8" and 6" and no other size, and every printed card\'s gun is '
        'one of them or 11" and larger, so the words play as they stand. Bands (a smaller gun '
        "never better off than a bigger one) extend the rule by its sense, not its words, and "
        "stay a choice (bands) for cards with other sizes.",
        readings=(
            Reading(
                id="bands",
                text='6" or smaller -2, 7" to 8" -1, 9" or larger 0 (0 against armor 0 to 2).',
            ),
            Reading(
                id="printed-only",
                text='Only the sizes the rule prints: 8" -1, 6" -2; any other size has no '
                "modifier (0 against armor 0 to 2).",
                default=True,
                wording_supports=True,
            ),
        ),
        wording='The rule names 8" and 6" only ("If gun size 8": -1", "If gun size 6": -2"); '
        "the bands extend it by the sense of the rule, not by its words.",
    ),
    Ruling(
        id="guns-bearing-is-a-straddle-modifier",
        question="The Actions example calls broadside guns a '+3 fire modifier', but the tables "
        "list the guns-bearing rating under the Straddle table.",
        ruling="The guns-bearing rating modifies the Straddle roll, not the Fire roll.",
        reason="The tables are the rules a player looks up during play; the Straddle table's own "
        "modifier list, and its worked example (bow guns +0), put it there.",
    ),
    Ruling(
        id="plunging-fire-ranges",
        question="Plunging fire happens 'if Long/Ext range'. Does Medium-Long count?",
        ruling="No: only Long and Extreme. At any other range Plunging fire has no effect. The "
        "number of FS hits is 2d6 minus the target's armor, never below 0.",
        reason="Medium-Long is a range of its own on every table.",
    ),
    Ruling(
        id="fire-control",
        question="'Fire Control; ship can't fire next turn': which turn is that?",
        ruling="The ship keeps any fire it has left this turn and cannot fire in the following "
        "turn. A ship's state carries fire_control: ready, lost-next-turn or lost-this-turn; the "
        "turn step moves it along.",
        reason="'Next turn' is the turn after the hit; firing that already happened or is due this "
        "turn is not taken back.",
    ),
    Ruling(
        id="simultaneous-actions",
        question="Does the order of the two Actions change the range (for example both Close at "
        "Medium, or Close and Withdraw at Extreme)?",
        ruling="No: both Actions are applied together as one net change. Closer than Short stays "
        "Short; a net move past Extreme ends the game as out of range.",
        reason="The rulebook's own example adds both ships' moves ('Had Graf Spee chosen C, range "
        "would've been Medium').",
        readings=(
            Reading(
                id="together",
                text="Both Actions change the range together, as one net change.",
                default=True,
            ),
            Reading(
                id="in-initiative-order",
                text="The Actions apply one after the other, the ship with the initiative first: "
                "a Withdraw past Extreme ends the game at once, and a Close at Short stays at "
                "Short before the other ship's Withdraw takes it to Medium.",
            ),
        ),
        wording="The words lean both ways: 'if range ever goes farther than Extreme ... the "
        "game is immediately over' reads as a check after each move, while the worked "
        "example only ever adds both moves.",
    ),
    Ruling(
        id="initiative-in-turn",
        question="The rules roll initiative every turn, and the second ship sees the first one's "
        "Action. When does the player choose in the turn step?",
        ruling="After seeing the enemy's Action when the enemy has the initiative: a turn asked "
        "without player_action answers result.pending with the initiative and the enemy's "
        "Action, and the same request with player_action and the same dice finishes it. When "
        "the player has the initiative, the pending answer names the player first and no enemy "
        "Action (the player commits first; the finishing call rolls it). A turn sent with "
        "player_action plays the same under either reading.",
        reason="'Roll 1d6 each turn to see who goes first' only matters if the second ship reacts; "
        "the +1 for the slower enemy makes going second the advantage the rules give it. "
        "Asking first changes no answer: the dice of a turn are read in the same order "
        "either way.",
        readings=(
            Reading(
                id="player-reacts",
                text="When the enemy has the initiative the player may see its Action first: a "
                "turn without player_action answers result.pending (with the enemy's Action, or "
                "none when the player has the initiative).",
                default=True,
                wording_supports=True,
            ),
            Reading(
                id="player-commits",
                text="The player's Action is committed before initiative is rolled: every turn "
                "needs player_action, and initiative is rolled and reported only.",
            ),
        ),
        wording="'Roll 1d6 each turn to see who goes first' gives the order of the Actions, "
        "which means something only if the second ship chooses after the first.",
    ),
    Ruling(
        id="torpedoes-are-not-guns",
        question="Can a CL whose guns are silenced (T hits or lost fire control) still launch "
        "torpedoes?",
        ruling="Yes. Torpedoes are launched after firing if the weather, the range and the ship "
        "type allow; T hits and fire control do not stop them. Both CLs launch together, and "
        "if both sink the game is a draw.",
        reason="The Torpedoes section sets its own conditions and names none of the gun limits.",
        readings=(
            Reading(
                id="guns-only",
                text="T hits and a lost fire control stop a ship's guns; its torpedoes launch "
                "whenever the Torpedoes section allows.",
                default=True,
                wording_supports=True,
            ),
            Reading(
                id="silenced-cannot-launch",
                text="A ship that can't fire (T hits at its Turret rating, or its fire control "
                "lost for this turn) launches no torpedoes either.",
            ),
        ),
        wording="The text says a silenced ship 'can't fire anymore' and that a CL "
        "'launches torpedoes': it keeps the two words apart, though sailors also fire "
        "torpedoes.",
    ),
    Ruling(
        id="draw",
        question="When is a game drawn?",
        ruling="When it ends without a single ship sunk (out of range or the End of Turn table), "
        "or when both ships sink together from torpedoes.",
        reason="Victory goes to the side whose enemy is sunk; with both or neither sunk, neither "
        "has won.",
    ),
    Ruling(
        id="turn-count-cap",
        question="A game's state counts its turns; is there any limit?",
        ruling="The count stops at 10,000: a turn played at 10,000 is played in full and hands "
        "back 10,000 again.",
        reason="No game of Salvo! lasts that long (in Fair weather the End of Turn table alone "
        "ends one after six turns on average); like the hit-count cap, the cap keeps every state "
        "the service hands back one it accepts again, and nothing a player sees changes.",
    ),
    Ruling(
        id="hit-count-cap",
        question="Damage is cumulative; is there any limit to how many hits of a kind a ship's "
        "state records?",
        ruling="Each kind of hit is counted up to 100. Further hits of that kind are still "
        "resolved and reported but no longer counted: a shot's hits, and the hits dealt in an "
        "attack's odds, are every hit resolved, while the state stops at 100.",
        reason="By then the ship is long sunk, silenced or stopped, so nothing a player sees "
        "changes; the cap keeps every state the service hands back one it accepts again.",
    ),
    Ruling(
        id="derived-cards",
        question="Nelson and Prinz Eugen are listed without stats, and Ajax appears only in an "
        "example.",
        ruling="Their cards are derived on the printed cards' scale and marked provenance "
        "'derived'. Speed is the designed speed in knots / 3 rounded down, which the printed "
        "cards bear out (KGV 28 kn -> 9, Hood 31 kn -> 10, Nurnberg 32 kn -> 10, where rounding "
        "to the nearest would give 11; only Graf Spee's 8 sits one below its 28.5 kn): Nelson 23 "
        "kn -> 7, Ajax 32.5 kn -> 10, Prinz Eugen 32 kn -> 10. Armor follows belt thickness "
        'against the printed cards (KGV 15" -> 6, Hood 12" -> 4, Graf Spee 4" -> 2, Nurnberg '
        '~2" -> 0): Nelson 14" -> 6, Ajax and Prinz Eugen about 3" -> 1. Flotation follows '
        "displacement (36,700 t -> 6, 42,000 t -> 7, 12,000 t -> 4, 6,500 t -> 3): Nelson 33,000 "
        "t -> 6, Prinz Eugen 16,000 t -> 4, Ajax 7,000 t -> 3. Turret counts the main turrets: "
        "two per turret on a capital ship (KGV 3 -> 6, Hood 4 -> 8, Graf Spee 2 -> 4), and on a "
        "cruiser, whose turrets are lightly armoured, four for every three, rounded (Nurnberg 3 "
        "-> 4): Nelson three triple turrets -> 6, Prinz Eugen four twins -> 5, Ajax four twins -> "
        "5. Bearings count the guns that bear, as on the printed cards: Nelson's nine 16\" guns "
        "all bear on the broadside (+5) and six ahead (+3), but its turrets are all forward, so "
        "only one bears astern, on the quarters (+1); Prinz Eugen's eight 8\" guns +2 broadside, "
        "two turrets each way +1; Ajax's eight 6\" guns +1 broadside and +0 bow and stern, as the "
        "rulebook's example has Ajax's bow guns at +0.",
        reason="The printed cards follow the real ships closely; the same reading of the same "
        "facts keeps the derived ships on their scale, and the Ajax example fixes its bow rating.",
    ),
)
