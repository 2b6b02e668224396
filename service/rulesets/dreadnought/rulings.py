"""Where the dreadnought text is silent or contradicts itself: what the service rules, and why."""

from __future__ import annotations

from ...engine.ruleset import Reading, Ruling

RULINGS = (
    Ruling(
        id="barrels-bonus",
        question="The barrels bonus (to hit: +1/2 per barrel rounded up; damage: +1 per barrel for "
        "High and All weapons, +1/2 rounded up for the rest): which barrels does it count?",
        ruling="Only the barrels beyond the first, for to hit and for damage alike. A single gun "
        "gets nothing; 8 barrels get +4 to hit and, for a High weapon, +7 damage (+4 for Low or "
        "Medium). Torpedoes: ruling torpedo-count.",
        reason="The rule text's own example counts an 8-gun battery as '7 extra barrels divided by "
        "2 rounded up, or +4'. The bonus is for multiple weapons, so the first one is the battery "
        "itself; counting damage the same way keeps one rule for both.",
        readings=(
            Reading(
                id="beyond-the-first",
                text="To hit and damage both count the barrels beyond the first: 8 barrels give +4 "
                "to hit and +7 damage for a High weapon (+4 for Low or Medium).",
                default=True,
            ),
            Reading(
                id="damage-every-barrel",
                text="To hit counts the barrels beyond the first, as the text's example does; the "
                "damage bonus counts every barrel, the first too: 8 barrels give +4 to hit and "
                "+8 damage for a High weapon (+4 for Low or Medium); a single gun adds 1 to "
                "its damage whatever its weapon.",
            ),
        ),
        wording="The to-hit example counts '7 extra barrels' of 8; the damage sentence says "
        "'+1 per barrel' of 'extra damage caused by multiple barrels', which counts every "
        "barrel word for word but speaks of the extra ones in spirit: the words settle "
        "neither.",
    ),
    Ruling(
        id="equal-dice",
        question="Low, Medium and High damage add dice that are 'equal lowest', 'equal middle' or "
        "'equal highest'. Which dice count when two of three match?",
        ruling="Take the die the type names (lowest, middle or highest of the three) and add every "
        "die that shows the same number. 2,2,5 gives Low 4, Medium 4, High 5; 2,5,5 gives Low "
        "2, Medium 10, High 10; 4,4,4 gives 12 for every type. All is always the sum.",
        reason="With three dice a pair always holds the middle position, so 'equal middle' can "
        "only mean the middle die and its twin; one rule for all three types is what a player "
        "applies at a glance.",
    ),
    Ruling(
        id="doubles",
        question="The gunner die is a D10 or D8 while the other two are D8s. What counts as "
        "doubles or triples?",
        ruling="Any two of the three dice showing the same number are doubles, whichever kinds "
        "they are (the gunner die pairs with either D8); all three alike are triples. A D10's 9 "
        "or 10 can never pair. Triples are the Magazine Hit and are never also read as doubles. "
        "The same holds for a torpedo's 2D6 and gunner die.",
        reason="The text says any throw that includes doubles or triples; it counts faces, not "
        "dice kinds. The gunner die is part of the throw for hitting and damage, so it is part of "
        "it for criticals too.",
    ),
    Ruling(
        id="low-doubles",
        question="The Critical Hits table lists doubles 8, 7, 6 and 5. What do doubles 1 to 4 do?",
        ruling="Nothing: the hit does its damage and there is no critical effect.",
        reason="The table has no row for them, and inventing effects would change every ship's "
        "odds; low doubles mostly come with low rolls that rarely hit anyway.",
    ),
    Ruling(
        id="seven-to-nine-rows",
        question='Which 7"-9" row does a gun use, and which row takes a calibre of exactly 7" '
        'or 9"?',
        ruling='Exactly 7" and exactly 9" are 7"-9" guns, like 8": the neighbouring rows are '
        'printed "<7"" and ">9"", which leave both ends out. Every 7"-9" gun uses the '
        'first row (short 1-4", medium 5-10", long 11-18", High damage) against Destroyers and '
        'Protected Cruisers, and the second (1-8", 9-16", 17-24", Low damage) against Armoured '
        "Cruisers and heavier.",
        reason='The text says the duplicated row is on purpose so that guns of about 8" may fire '
        "at both kinds of target with different ranges and damage. The first row follows the "
        "progression of the light weapons, the second that of the heavy ones.",
    ),
    Ruling(
        id="calibre-gaps",
        question='The table has no row for calibres over 12" and under 13.5" (a 13" or 13.4" '
        'gun), nor over 15" (16" or 18").',
        ruling='Over 12" and under 13.5" uses the 11"-12" row; over 15" uses the 13.5"-15" row.',
        reason='A gun that has not reached 13.5" has not reached that row; the largest row is the '
        'best the table offers, and refusing to let a 16" gun fire would be worse than '
        'giving it the ranges of a 15".',
    ),
    Ruling(
        id="range-bands",
        question='Distances are measured in inches, but bands are printed in whole inches ("1-2", '
        '"3-6", "7-8"). Which band is 2.5", or 0"?',
        ruling='Each band runs up to and including its upper figure: up to 2" is short, over 2" up '
        'to 6" medium, over 6" up to 8" long, beyond that out of range. 0" is short.',
        reason="A player measures 'is it within 6 inches?'; the printed lower figures are only the "
        "previous band's upper figure plus one whole inch.",
    ),
    Ruling(
        id="range-changes-score-needed",
        question="'Short range reduces the to hit by 2; long range increases it by 2.' Is that the "
        "roll or the score needed?",
        ruling="The score needed: at short range a target that needs 16 needs 14, at long range "
        "18. The roll is shown unchanged in the trail.",
        reason="'To hit' is the name of the target's figure on the Ship Characteristics table; "
        "reducing the roll at short range would make close shots harder, which no one means.",
    ),
    Ruling(
        id="wear-down",
        question="'As ships are damaged their Dam Reduc value is reduced'; damage also lowers "
        "speed and eliminates secondary guns. By how much?",
        ruling="In proportion to the boxes left, rounded up: damage reduction, speed and the "
        "barrels of every secondary battery are each the full figure times boxes left over damage "
        "boxes, rounded up. A Super Dreadnought (80 boxes, 4) keeps 4 down to 61 boxes left, has "
        "3 from 60, 2 from 40, 1 from 20. On Destroyers and Protected Cruisers every battery "
        "wears down this way; on heavier ships the primary (largest calibre) battery never does "
        "and loses barrels only to Turret Explodes.",
        reason="The text gives no schedule. Proportional wear reaches zero only when the ship "
        "breaks up, never costs an undamaged ship anything (the worked example deducts the "
        "full 4 from 'an otherwise undamaged' ship), and needs no extra table.",
    ),
    Ruling(
        id="damage-floor",
        question="Damage reduction larger than the damage rolled: can a hit do negative damage?",
        ruling="No: damage after reduction is never below 0. A hit that is fully absorbed still "
        "hits, so it can still cause a critical.",
        reason="Armour stops a shell, it does not repair the ship; the critical table asks only "
        "that the throw also hits.",
    ),
    Ruling(
        id="break-up",
        question="When does a ship break up?",
        ruling="When its damage taken reaches its damage boxes (no box left); Magazine Hit or a "
        "turret that blows up destroys it at once. A step aimed at a ship that is already gone is "
        "refused.",
        reason="Dam Boxes is 'the number of boxes the ship can take before it breaks up'.",
    ),
    Ruling(
        id="battlecruiser-boxes",
        question='Battlecruiser damage boxes are printed "40+?".',
        ruling="40 for the class; a record card may give its own damage boxes (any class may).",
        reason="The text says every ship should have its own record card; 40 is the figure printed "
        "and the question mark leaves the rest to the card.",
    ),
    Ruling(
        id="printed-figures",
        question="The Armoured Cruiser's damage reduction (1) is printed below the Protected "
        "Cruiser's (2).",
        ruling="Kept as printed; a card may give its own damage reduction, speed, to hit and "
        "boxes.",
        reason="The table is a guideline by its own words; a service that silently 'corrects' it "
        "would disagree with players' printed copies.",
    ),
    Ruling(
        id="blow-up-roll",
        question="Turret Explodes: '1 in D6' and '2 in D6' of blowing up. Which faces?",
        ruling="Roll a D6 after the turret is lost: 1 in D6 blows up on a 6, 2 in D6 on a 5 or 6.",
        reason="The highest faces, as the rudder repair counts '5,6 on 1d6'; the chance is exactly "
        "the one printed.",
    ),
    Ruling(
        id="blow-up-who",
        question="Which ships roll to blow up after a turret explodes?",
        ruling="British Battleships (the pre-dreadnought class) and German Battlecruisers 1 in "
        "D6; British Battlecruisers 2 in D6. Every other ship, British Dreadnoughts and Super "
        "Dreadnoughts among them, loses the turret and does not roll.",
        reason="The text names exactly these, and it defines its own word: 'Battleship means pre "
        "dreadnought battleship'. The Critical Hits table writes 'British Battleships' with that "
        "class's name, so it is read as the text defines it. Extending the blow-up to British "
        "Dreadnoughts and Super Dreadnoughts is a reading of the table's reach, not of its "
        "words, and stays a choice (every-british-battleship).",
        readings=(
            Reading(
                id="every-british-battleship",
                text="British Battleships, Dreadnoughts and Super Dreadnoughts and German "
                "Battlecruisers roll 1 in D6 to blow up, British Battlecruisers 2 in D6.",
            ),
            Reading(
                id="pre-dreadnought-only",
                text="The text's own definition ('Battleship means pre dreadnought battleship') "
                "holds here too: only British Battleships (pre-dreadnoughts) and German "
                "Battlecruisers roll 1 in D6, British Battlecruisers 2 in D6; British "
                "Dreadnoughts and Super Dreadnoughts lose the turret and do not roll.",
                default=True,
                wording_supports=True,
            ),
        ),
        wording="The Ship Type notes define Battleship as the pre-dreadnought class, and the "
        "Critical Hits table writes 'British Battleships' with that class's name; only the "
        "table's reach over every capital ship argues for the broader reading.",
    ),
    Ruling(
        id="two-turrets",
        question="'(2 turrets = 50% no effect)': when, and how is it rolled?",
        ruling="When the target has two main turrets or fewer left, roll a D6 first: 1-3 no "
        "effect, 4-6 the turret explodes (then the blow-up roll if the ship has one). A ship "
        "whose main turrets are all gone takes no effect. A lost turret takes its share of the "
        "main battery's barrels (barrels times turrets left over turrets, rounded down).",
        reason="Fewer turrets give a shell fewer to find; a D6 split down the middle is the 50% "
        "the text prints, with the dice on the table.",
        readings=(
            Reading(
                id="turrets-left",
                text="The D6 for 50% no effect is rolled when two main turrets or fewer are left, "
                "however many the ship was built with.",
                default=True,
            ),
            Reading(
                id="as-built",
                text="The D6 for 50% no effect is rolled for a ship built with two main turrets or "
                "fewer (its card's turrets); a ship built with more never rolls it, however "
                "many it has lost. A ship with no main turret left still takes no effect.",
            ),
        ),
        wording="'(2 turrets = 50% no effect)' names a kind of ship, as the rows around it "
        "name British battleships and battlecruisers, or the state of one: the words settle "
        "neither.",
    ),
    Ruling(
        id="turrets",
        question="A record card may not say how many turrets a battery has.",
        ruling="Then it has twin turrets: barrels / 2, rounded up.",
        reason="Twin mountings were the rule for the main batteries of the era's British and "
        "German capital ships.",
    ),
    Ruling(
        id="rudder-jam-direction",
        question="Rudder Destroyed: 'jammed either left, right or straight ahead': who chooses?",
        ruling="A D6: 1-2 left, 3-4 right, 5-6 straight ahead. Each turn after, the rudder step "
        "rolls a D6 and 5 or 6 frees it.",
        reason="Three directions, equal chances, a die every player has; the text leaves it to "
        "fate, not to either player.",
    ),
    Ruling(
        id="german-turn-cost",
        question="'German capital ships have a turning cost of 2': which ships are capital ships?",
        ruling="German ships of Armoured Cruiser class or heavier turn for 2: German Battleships, "
        "Dreadnoughts and Super Dreadnoughts go from 3 to 2; the rest are already 2 or less.",
        reason="The Critical Hits table itself calls ships 'rated A.C. or heavier' capital ships.",
    ),
    Ruling(
        id="speed",
        question='The class speeds are ranges ("6-7""). Which speed does a ship have?',
        ruling="Its record card's speed; a card without one takes the class's higher figure.",
        reason="Each ship should have its own record card; the class's best figure is what a ship "
        "of the class can reach, and a slower ship says so on its card.",
    ),
    Ruling(
        id="torpedo-throws",
        question="Do torpedoes use the gunnery modifiers, the range bands, damage reduction and "
        "criticals?",
        ruling="Torpedoes need the target's to-hit score, with the torpedo bonus (ruling "
        "torpedo-count) and the To Hit Modifiers: director down from the firer's state, and "
        "the turned, first-time, more-than-one-ship and not-under-fire modifiers as a gun "
        "takes them (sent with a single torpedo throw, worked out in a turn). The short and "
        'long changes do not apply (the torpedo row has only a 0-10" band). Beyond 10" they '
        "miss with no roll. A hit does All damage plus the torpedo bonus, less the target's "
        "damage reduction, and doubles or triples on a hit against an Armoured Cruiser or "
        "heavier are criticals, as for guns.",
        reason="The To Hit Modifiers table names no weapon and the text never exempts "
        "torpedoes, whose row is a to-hit throw ('2D6 + Gnr') like any gun's; its damage and "
        "critical rules likewise speak of any throw and any hit. Only the turn sequence "
        "(targets declared before the ships move) argues against, which is the service's "
        "argument, not the text's: it stays a choice (torpedo-bonus-only).",
        readings=(
            Reading(
                id="torpedo-bonus-only",
                text="A torpedo throw takes only the torpedo bonus; the To Hit Modifiers table is "
                "for guns (a gunnery flag sent with a torpedo is refused).",
            ),
            Reading(
                id="gunnery-modifiers",
                text="The To Hit Modifiers table applies to torpedo throws too: director down "
                "from the firer's state, and the turned, first-time, more-than-one-ship and "
                "not-under-fire flags sent with the torpedo request.",
                default=True,
                wording_supports=True,
            ),
        ),
        wording="The To Hit Modifiers table sits beside the Weapons Effect table, whose "
        "torpedo row is read like any gun row, and names no weapon; the text never exempts "
        "torpedoes, and only the turn sequence (targets declared before moving) argues "
        "against. The words lean to the modifiers applying.",
    ),
    Ruling(
        id="torpedo-count",
        question="The torpedo row gives '+1 per torpedo' to hit and to damage. Does the first "
        "torpedo count?",
        ruling="Yes: +1 per torpedo, the first too, to hit and to damage. A single torpedo "
        "gets +1; 4 torpedoes +4.",
        reason="The torpedo row prints '+1 per torpedo' in both Multi Weapons columns and says "
        "nothing of extra torpedoes; the example that counts only the extra barrels ('7 extra "
        "barrels') is written for guns. Counting as the barrels do is the service's wish for "
        "one way of counting, not the text's, and stays a choice (beyond-the-first).",
        readings=(
            Reading(
                id="beyond-the-first",
                text="+1 per torpedo beyond the first: 1 torpedo +0, 4 torpedoes +3.",
            ),
            Reading(
                id="every-torpedo",
                text="+1 per torpedo, the first too: 1 torpedo +1, 4 torpedoes +4, to hit and to "
                "damage.",
                default=True,
                wording_supports=True,
            ),
        ),
        wording="The torpedo row's 'Multi Weapons' columns print '+1 per torpedo', which "
        "counts every torpedo word for word; only the barrel example, written for guns, "
        "counts the extra ones. The words lean to every torpedo.",
    ),
    Ruling(
        id="gunner-die",
        question="Who rolls a D10 gunner die?",
        ruling="German ships always, British ships with a good crew; every other ship a D8.",
        reason="The text: 'German and good British' D10, 'other British and all other "
        "nationalities' D8. The card carries nationality and crew.",
    ),
    Ruling(
        id="orders-this-turn",
        question="The turn sequence: which orders does each ship move on this turn, and what "
        "does a ship with no plot do?",
        ruling='Ships in line astern and ships with an enemy within 6" move on the orders '
        "written this turn. Every other ship moves on the plot it wrote last turn (the state "
        "keeps it as `plot`), and its orders written now take effect next turn; with no plot "
        "it keeps straight on at the same speed, so it cannot have turned (a turn declared for "
        "it is refused), unless its rudder is jammed left or right: then it keeps its speed "
        "on its jammed rudder (`moves_on` `its jammed rudder`; ruling jammed-rudder says "
        "whether it turned). The service records the orders' words; the players move the models.",
        reason="The text: later this turn 'you either use the movement plot from the previous "
        "turn, or if there isn't one, keep moving at a straight line at same speed'.",
    ),
    Ruling(
        id="simultaneous-fire",
        question="Guns fire simultaneously and torpedoes are resolved after them: against which "
        "state of the ships is each throw judged, and when does damage count?",
        ruling="Every gun and torpedo throw of a turn is judged against the ships as they were "
        "when the turn began (damage reduction, barrels, turrets, director); all damage and "
        "critical effects are applied together after the last torpedo, in fire order. A ship "
        "sunk this turn still fires, and a director destroyed this turn costs -2 from the next.",
        reason="'Fire all guns simultaneously, any sequence you like': a sequence that changed "
        "the outcome would not be simultaneous; the torpedoes were launched before the ships "
        "moved, so they are already running when the guns fire.",
    ),
    Ruling(
        id="turn-modifiers",
        question="'More than one ship firing at the same target' and 'not under fire this turn': "
        "what counts?",
        ruling="More than one ship: two or more ships whose guns fire at the target this turn "
        "(two batteries of one ship are one ship); every battery firing at it takes -1. Not "
        "under fire: no gun of any ship fires at the firing ship this turn (+1). Torpedoes "
        "count for neither. Both are worked out from the declarations, never sent.",
        reason="The table speaks of ships and of fire; 'all guns on one ship of one calibre fire "
        "as one battery' and the turn's 'fire guns' phase are gunnery, while torpedo targets are "
        "declared before the ships move.",
    ),
    Ruling(
        id="first-time-firing",
        question="'First time firing at this target -1': from which turn does it count?",
        ruling="The first turn a ship's guns fire at a target, every battery of that ship firing "
        "at it takes -1; from the next turn on it does not, whatever it fired at in between. "
        "The state keeps, for each ship, the targets it has fired at and the last turn "
        "(`fired_at`).",
        reason="A ship that has found the range of a target keeps the fall of its shot in its "
        "plot; the words 'first time' count the first occasion only.",
        readings=(
            Reading(
                id="first-turn-at-target",
                text="-1 only on the first turn the ship's guns fire at this target in the action.",
                default=True,
            ),
            Reading(
                id="since-last-turn",
                text="-1 unless the ship's guns fired at this target last turn: a ship that "
                "switches away and comes back ranges afresh.",
            ),
        ),
        wording="'First time firing at this target' counts occasions, which leans to the first "
        "turn only; the modifier's purpose, finding the range, argues for ranging afresh after "
        "a change of target, so both are fair.",
    ),
    Ruling(
        id="jammed-rudder",
        question="A rudder 'jammed either left, right or straight ahead': what does it do to a "
        "ship's orders and to the 'turned this turn' modifiers?",
        ruling="Jammed straight ahead, the ship cannot turn. Jammed left or right, it turns "
        "every turn: it counts as a ship that turned (-1 to its own fire and to fire at it), "
        "whatever its orders say. A declaration that says otherwise is refused.",
        reason="A rudder stuck over swings the ship round whatever the plot says; the players "
        "move it in circles, which is a turn in every turn it is jammed. For the same reason "
        "a ship with no plot and its rudder jammed over is never said to keep straight on.",
        readings=(
            Reading(
                id="turns-every-turn",
                text="Jammed left or right, the ship turns every turn (turned is true).",
                default=True,
            ),
            Reading(
                id="as-measured",
                text="Jammed left or right, whether the ship turned is as the players "
                "declare it (a jammed rudder limits the move, which they measure); jammed "
                "straight ahead it still cannot turn.",
            ),
        ),
        wording="The text says only 'jammed either left, right or straight ahead' and never "
        "what a jammed ship's plot may hold: the words settle neither.",
    ),
    Ruling(
        id="rudder-repair",
        question="'Need a 5,6 on 1d6 each turn to fix': when in the turn, and from which turn?",
        ruling="At the end of the turn, after all damage: a ship whose rudder was jammed when "
        "the turn began rolls a D6, 5 or 6 frees it for the next turn's movement. A rudder "
        "jammed this turn rolls first at the end of the next turn, so it moves jammed at least "
        "once; so does one already jammed and jammed again this turn, whose new jam the old "
        "jam's roll does not free.",
        reason="A repair party works through the turn; a rudder freed in the very turn it jams "
        "would never have jammed a move at all.",
        readings=(
            Reading(
                id="next-turn",
                text="The first repair roll comes at the end of the turn after the rudder jammed.",
                default=True,
            ),
            Reading(
                id="same-turn",
                text="A rudder jammed this turn rolls at the end of this turn too.",
            ),
        ),
        wording="'Each turn' does not say whether the turn of the hit is one: the words "
        "settle neither.",
    ),
    Ruling(
        id="bridge-no-orders",
        question="Bridge Destroyed: 'Give no orders for 2 turns'. Which turns, and how does the "
        "ship move?",
        ruling="The two turns after the one it is hit in: the state counts them down "
        "(`no_orders_turns`, 2 then 1 then 0). A ship that gives no orders moves on a plot "
        "written before the hit, if it has one, else straight on at the same speed; orders "
        "sent for it are refused, and it plots nothing for later turns. A ship sunk this turn "
        "counts nothing down: its state keeps the count it had, and no bridge event names it.",
        reason="Orders are written at the start of the turn, before the guns fire, so the hit "
        "turn's orders stand; straight on at the same speed is the text's own course for a "
        "ship with no plot.",
    ),
    Ruling(
        id="torpedoes-lost",
        question="Torpedoes 'run a distance of 10\" for one turn and are then lost': can a "
        "torpedo stay in the water into the next turn?",
        ruling="No: every salvo declared in a turn is resolved in that turn, against the "
        "distance from its firing point to the target after movement, and is then gone; the "
        "state carries no torpedo between turns.",
        reason="The text resolves torpedoes at the end of the turn they are fired and says "
        "they are lost after one turn.",
    ),
    Ruling(
        id="boxes-marked",
        question="More damage than a ship has boxes left: how much is marked?",
        ruling="A record card holds no more marks than its damage boxes: a turn marks damage "
        "up to the boxes left, and the damage odds count points the same way.",
        reason="The ship breaks up when its boxes are gone; what is beyond them is not on the "
        "card.",
    ),
)
