// Dice: any notation rolled on the service's dice, every die shown, and its odds as a picture.

import { dieWords } from "../referee/explain.js";
import { picture, post } from "./api.js";
import { $, busy, element, rollItems } from "./ui.js";

// Each die in the referee's words: why it was drawn, its face, what it counts (a
// penetrating explosion one less), its fate, a success or a critical.
function dieLine(die) {
  return element("li", { "data-fate": die.fate, text: dieWords(die) });
}

async function roll(event) {
  event.preventDefault();
  await busy(async () => {
    const notation = $("dice-notation").value.trim();
    const answer = await post("v1/dice/roll", { notation });
    const result = answer.result;
    $("dice-result").replaceChildren(
      element("p", { className: "conditions", id: "dice-total", text: `${result.notation} = ${result.total}` }),
      element("ol", { className: "rolls" }, ...rollItems(answer)),
      ...result.terms
        .filter((term) => term.dice?.length)
        .map((term) =>
          element("details", { open: true }, element("summary", { text: `What became of each die of ${term.label}` }), element("ul", {}, ...term.dice.map(dieLine))),
        ),
      element("p", { className: "help", text: `Seed ${answer.dice.seed}, nonce ${answer.dice.nonce}: the same seed and nonce roll the same dice.` }),
    );
  });
}

async function odds() {
  await busy(async () => {
    const image = await picture("v1/dice/odds", { notation: $("dice-notation").value.trim() });
    $("dice-picture").replaceChildren(image);
  });
}

export function init() {
  $("dice-form").addEventListener("submit", roll);
  $("dice-odds").addEventListener("click", odds);
}
