// Rolls notations with rpg-dice-roller (the peer whose dialect docs/dice.md names), fed the
// given dice, and prints what it made of each: its total, and every die with its marks.
// Input (stdin): [{"notation": "4d6d1", "values": [3, 5, 2, 6]}, ...]; output (stdout): one
// JSON list, an entry per case: {"total", "dice": [...], "drawn"} or {"error"}.
import { DiceRoll, NumberGenerator } from "@dice-roller/rpg-dice-roller";

let queue = [];
let drawn = 0;
const fed = {
  // the peer asks for an integer in `range`; the uint32 it reads is the offset from the least
  next() {
    if (drawn >= queue.length) throw new Error("the peer wants more dice than were given");
    const value = queue[drawn++];
    const [least, most] = this.range;
    if (value < least || value > most) {
      throw new Error(`die ${drawn}: ${value} is not in ${least}..${most}`);
    }
    return value - least;
  },
};
NumberGenerator.generator.engine = fed;

function dice(results) {
  const out = [];
  for (const part of results) {
    if (part && Array.isArray(part.rolls)) {
      for (const roll of part.rolls) {
        out.push({
          value: roll.value,
          initial: roll.initialValue,
          counts: roll.calculationValue,
          used: roll.useInTotal,
          marks: [...roll.modifiers].sort(),
        });
      }
    } else if (part && Array.isArray(part.results)) {
      out.push(...dice(part.results));
    }
  }
  return out;
}

const input = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (chunk) => { text += chunk; });
  process.stdin.on("end", () => resolve(text));
}));
const answers = input.map(({ notation, values }) => {
  queue = values;
  drawn = 0;
  try {
    const roll = new DiceRoll(notation);
    return { total: roll.total, dice: dice(roll.rolls), drawn };
  } catch (error) {
    return { error: String(error && error.message ? error.message : error) };
  }
});
process.stdout.write(JSON.stringify(answers));
