"""Where the fleet-action text is silent or leaves room: what this service decides, and why."""

from __future__ import annotations

from ...engine.ruleset import Reading, Ruling

RULINGS = (
    Ruling(
        id="never-worse-than-6",
        question="Visibility adds +1 or +2 to Hit and 'can never go worse than 6+'. What does that "
        "mean for a Green crew (6+) in poor or terrible visibility?",
        ruling="Visibility raises the To Hit number, and the number stops at 6+: a Green crew "
        "still hits on a 6 in any visibility, a Seasoned crew in terrible visibility needs 6+ "
        "(not 7+). A natural 6 always hits, with guns and torpedoes alike.",
        reason="A number above 6 could never be rolled on one die, so the cap is there to keep "
        "every ship able to hit; reading it any other way would leave a Green crew helpless at "
        "night, which the sentence rules out.",
    ),
    Ruling(
        id="visibility-torpedoes",
        question="Does visibility touch torpedoes?",
        ruling="Yes: torpedoes roll against the same To Hit number as guns, raised by visibility "
        "in the same way, and never worse than 6+.",
        reason="The torpedo rule says to roll 'against To Hit', and visibility is written as a "
        "change to To Hit in general, not to gunnery only. Fog and night hide a target from a "
        "torpedo aimer as much as from a gun layer. The 6+ cap keeps the torpedo's unmodified 6 "
        "always possible.",
        readings=(
            Reading(
                id="same-as-guns",
                text="Torpedoes roll against the To Hit number raised by visibility, never worse "
                "than 6+, as guns do.",
                default=True,
                wording_supports=True,
            ),
            Reading(
                id="guns-only",
                text="Visibility is a gunnery rule: torpedoes roll against the crew's own To Hit "
                "number whatever the visibility.",
            ),
        ),
        wording="The visibility line changes 'to Hit' with no weapon named, and the torpedo "
        "rule rolls 'against To Hit'; only its place at the end of the text, after the guns, "
        "lets a table read it as gunnery only.",
    ),
    Ruling(
        id="visibility-saves",
        question="Does visibility change armour saves?",
        ruling="No: armour saves are always rolled against the target's printed Armour.",
        reason="Visibility is written as a change 'to Hit' only; a save is the target's armour, "
        "which the weather does not thin.",
    ),
    Ruling(
        id="save-against-six",
        question="Can a ship with a 2+ save (a Battleship) save a hit that came up as an "
        "unmodified 6?",
        ruling="Yes: the save against a 6 is rolled like any other, at the target's Armour (2+ "
        "saves on 2 to 6). Only a failed save against the 6 is a catastrophic hit.",
        reason="The text makes the catastrophic hit depend on the target failing its save 'for "
        "that hit', so the save is still there; and the worked example has the Battleship roll "
        "its 2+ save against the Destroyer's 6 and go down only because the die showed a 1.",
    ),
    Ruling(
        id="unmodified-six",
        question="What is an 'unmodified 6' when visibility changes the number to hit?",
        ruling="Any attack die showing a 6. Visibility raises the number needed, it never changes "
        "the die, so every 6 that hits is an unmodified 6.",
        reason="The text writes visibility as '+1 to Hit', the To Hit number, as crew quality is; "
        "no rule adds to or takes from the die itself.",
    ),
    Ruling(
        id="save-order",
        question="The target rolls one die per hit. Which save belongs to which hit, and in what "
        "order are supplied dice read when several hits (or several 6s) land?",
        ruling="Supplied dice are read as all the attack dice first, in the order rolled, then one "
        "save die per hit. The k-th save die belongs to the k-th hit, counting hits in the "
        "order their attack dice were rolled. A 6 whose own save fails is catastrophic; with "
        "several 6s, any one of them failing its save is enough.",
        reason="It matches the worked example (hits 4, 5, 6 against saves 5, 2, 4: the save of 4 "
        "against the 6 fails), it is the order a player reads dice off the table, and since "
        "every save die is equally likely to show any face, the order changes no odds.",
    ),
    Ruling(
        id="catastrophic-once",
        question="Two or more 6s get through in one attack, or a torpedo salvo has two 6s. Is "
        "anything more than one sinking?",
        ruling="No: one catastrophic hit sinks the ship; further 6s add nothing. The result still "
        "counts every hit that got through in hull_lost.",
        reason="A ship can be sunk only once; hull_lost reports what the dice did so a player can "
        "check them.",
    ),
    Ruling(
        id="catastrophic-state",
        question="A catastrophic hit sinks a ship 'no matter how much Hull it has left'. What does "
        "its record show?",
        ruling="The ship has lost all its Hull: hull_left 0, sunk. The attack's own hull_lost "
        "still counts only the hits that got through.",
        reason="A sunk ship is removed from the table; recording it at zero Hull keeps one meaning "
        "of sunk (0 Hull left) for every ship, however it went down.",
    ),
    Ruling(
        id="hull-floor",
        question="More hits get through than the target has Hull left.",
        ruling="Hull stops at 0 and the ship is sunk; the attack's hull_lost counts every hit that "
        "got through, the ship's record never shows more Hull lost than its class has.",
        reason="The text sinks a ship at zero Hull and removes it; there is nothing below zero to "
        "lose.",
    ),
    Ruling(
        id="sunk-ships",
        question="A sunk ship fires, is fired at, or takes more damage.",
        ruling="Refused (422): a sunk ship is removed from the table, so it neither fires nor can "
        "be picked as a target, and damage to it is refused too.",
        reason="The text says to remove a ship at zero Hull; resolving anything against it would "
        "make a game log wrong.",
    ),
    Ruling(
        id="range-edge",
        question='Is a target at exactly the gun range (or exactly 16" for torpedoes) in range? '
        "What about farther?",
        ruling="At or within the range is in range; farther is refused (422) with the range named. "
        "The client measures the distance in inches, fractions allowed; the service moves "
        "nothing.",
        reason='A range of 48" reads as \'up to 48"\', as a move of 10" means up to 10"; refusing '
        "a shot the rules do not allow is better than resolving it silently.",
    ),
    Ruling(
        id="torpedo-line-of-sight",
        question="Do torpedoes need line of sight? The torpedo rule names only the range.",
        ruling="Yes: a ship fires torpedoes at a target it could pick for its guns (in line of "
        'sight), only the range is 16" instead of its gun range.',
        reason="Torpedoes are fired 'instead of guns': the weapon changes, picking the target does "
        "not.",
    ),
    Ruling(
        id="torpedoes-instead-of-guns",
        question="A ship fires torpedoes 'instead of' guns. Does the service stop it doing both?",
        ruling="In a turn, yes: an activation names one weapon, guns, torpedoes or none, and a "
        "ship goes once a turn. The single fire and torpedo steps keep no game between "
        "requests, so there keeping a ship to one of them is the players' (or the app's) part.",
        reason="The text lets a ship fire torpedoes 'instead of guns' when it goes; the turn "
        "knows which ships have gone, a single attack does not.",
    ),
    Ruling(
        id="initiative-ties",
        question="Ties are rolled again: how are supplied dice read, and how long can it go on?",
        ruling="Each round reads two dice: player A's, then player B's. A tie rolls another round. "
        "At most 20 rounds are rolled in one request; 20 ties in a row is refused as over a "
        "limit (422), and a new roll is needed.",
        reason="The rule has no end, but a service must bound its work. With seeded dice 20 ties "
        "in a row is a chance of one in 6**20 (about 3.7 x 10**15), so no real game meets the "
        "bound.",
    ),
    Ruling(
        id="target-crew",
        question="Does the target's crew quality matter when it is fired at?",
        ruling="No: only the firer's crew sets To Hit; the target's Armour and Hull come from its "
        "class. A target may be sent without a crew.",
        reason="The text ties crew quality to 'the score needed to hit' and nothing else.",
    ),
    Ruling(
        id="initiative-each-turn",
        question="Is initiative rolled every turn, or once for the game?",
        ruling="Every turn: each turn starts with both players rolling, and the loser picks "
        "first that turn.",
        reason="'The game is played in turns. Both players roll 1D6 for initiative' reads as the "
        "first thing a turn does, and 'start a new turn' at the end sends the players back to "
        "it; a fresh roll each turn also keeps one player from picking first all game.",
        readings=(
            Reading(
                id="every-turn",
                text="Initiative is rolled at the start of every turn; the loser picks first.",
                default=True,
                wording_supports=True,
            ),
            Reading(
                id="once-a-game",
                text="Initiative is rolled once, on the first turn; the same player picks first "
                "every turn after.",
            ),
        ),
        wording="The initiative sentence follows 'The game is played in turns' and 'start a new "
        "turn' closes the sequence, so the text's order puts a roll in every turn; that the "
        "roll is written once, before the example turn, lets a table read it as once a game.",
    ),
    Ruling(
        id="picks-when-one-side-is-out",
        question="The players pick alternately 'until every ship has gone'. What happens when "
        "one player has no ship left to pick (all gone or sunk) and the other still has some?",
        ruling="That player passes; the other picks its remaining ships one after another until "
        "every ship afloat has gone. The turn then ends.",
        reason="The turn ends only 'when every ship has gone', so the ships left must still go; "
        "with no ship to pick, a player has no pick to make.",
    ),
    Ruling(
        id="sunk-before-going",
        question="A ship is sunk before it has gone this turn.",
        ruling="It is removed at once: it cannot be picked, does not count as a ship still to "
        "go, and the turn can end without it. A ship that has gone and is sunk later stays "
        "in gone.",
        reason="The text removes a ship at zero Hull, and a removed ship has nothing to move or "
        "fire.",
    ),
    Ruling(
        id="moving-without-firing",
        question="Must a ship fire when it goes? What of a ship with no enemy in range or sight?",
        ruling="A ship may go and fire nothing (weapon none): it moves and its go is over. When it "
        "fires, it names its target, the range and line of sight as the players measured them "
        "after its move.",
        reason="'That ship moves, then fires' cannot be kept by a ship with no target in range "
        "or sight, and the service cannot see the table; a ship that moves only is the one "
        "reading that never leaves a player stuck.",
    ),
    Ruling(
        id="measured-move",
        question="How does the service check a move of 'up to its Speed' with 'one turn of up to "
        "90 degrees'?",
        ruling="The players move the model; an activation may say how far it moved (inches) and "
        "how far it turned (degrees). Given, more than the class's Speed or a turn of more than "
        "90 degrees is refused (422); left out, nothing is checked.",
        reason="Only the players see the table; the numbers they measure are what the service can "
        "hold to the text.",
    ),
    Ruling(
        id="game-over",
        question="When is the game over?",
        ruling="As soon as a player has no ship afloat, even mid-turn: the other player wins, the "
        "answer says so, and a further turn call with that state is refused (422).",
        reason="The worked example ends 'Player B wins' the moment the Battleship goes down, with "
        "no turn left to finish.",
    ),
    Ruling(
        id="declared-fire",
        question="The odds of a turn are asked for before it is played. What if a ship is sunk "
        "before its declared shot, or its target is?",
        ruling="The declared attacks are played in the order listed. A ship sunk before its "
        "place does not fire; a ship whose target is already sunk holds its fire (the odds do "
        "not guess another target). Ships not declared, and ships declared with weapon none, "
        "fire nothing (their `fires` is null).",
        reason="The odds answer the fire the players declare; choosing a new target is a "
        "decision at the table, which no odds can make for them.",
    ),
)
