// What the games share on screen: the choice of dice, the rolls as they land, the log's tools.

import { Game, freshSeed, toReferee } from "./api.js";

export const $ = (id) => document.getElementById(id);

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("data-") || name.startsWith("aria-") || name === "role") node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** Replace a node's children, leaving out the null ones (replaceChildren writes "null"). */
export function fill(node, ...children) {
  node.replaceChildren(...children.filter((child) => child !== null && child !== undefined && child !== false));
}

/** Say what went wrong, in the page's alert line; nothing when `error` is null. */
export function problem(error) {
  const line = $("problem");
  line.hidden = error === null;
  line.textContent = error === null ? "" : `${error.message}`;
  if (error !== null) console.warn(error);
}

/** Run a click's work with its buttons held, saying any problem. */
export async function busy(work) {
  document.body.dataset.busy = "true";
  problem(null);
  try {
    return await work();
  } catch (error) {
    problem(error);
    return undefined;
  } finally {
    document.body.dataset.busy = "false";
  }
}

// --- the dice a game rolls -------------------------------------------------------------------

/** Fill a game's "The dice" fieldset: a fresh seed, or a sealed seed revealed after the game. */
export function diceChoice(game) {
  const box = document.querySelector(`fieldset.dice-mode[data-game=${game}]`);
  box.replaceChildren(
    element("legend", { text: "The dice" }),
    element(
      "label",
      {},
      element("input", { type: "radio", name: `${game}-mode`, value: "seeded", checked: true }),
      "seeded (anyone can replay them)",
    ),
    element(
      "label",
      {},
      element("input", { type: "radio", name: `${game}-mode`, value: "sealed" }),
      "sealed (the seed is revealed after the game)",
    ),
    element(
      "div",
      { className: "row seeded-only" },
      element("label", { htmlFor: `${game}-seed`, text: "Seed (a fresh one; any text replays a game)" }),
      element("input", { type: "text", id: `${game}-seed`, value: freshSeed(), autocomplete: "off", spellcheck: false }),
    ),
    element(
      "div",
      { className: "row sealed-only" },
      element("label", { htmlFor: `${game}-reveal`, text: "Reveal the seed after (minutes): past the game's end" }),
      element("input", { type: "number", id: `${game}-reveal`, value: "60", min: "0.1", step: "any", inputMode: "decimal" }),
    ),
  );
}

export function chosenDice(game) {
  const mode = document.querySelector(`input[name=${game}-mode]:checked`).value;
  const seed = $(`${game}-seed`).value.trim() || freshSeed();
  const minutes = Number($(`${game}-reveal`).value) || 60;
  return { mode, seed, revealIn: Math.max(1, Math.round(minutes * 60)) };
}

// --- rolls, one by one ---------------------------------------------------------------------

function signed(value) {
  return value < 0 ? `− ${-value}` : `+ ${value}`;
}

/** One roll with its dice and, when a table read it, every modifier and the outcome. */
export function rollItem(roll, check) {
  const item = element(
    "li",
    { "data-roll": roll.label },
    element("strong", { text: roll.label }),
    ": ",
    element("span", { className: "dice", text: `${roll.notation} → ${roll.values.join(", ")} = ${roll.total}` }),
  );
  if (check) {
    const applied = check.applied.map((m) => ` ${signed(m.value)} (${m.source})`).join("");
    item.append(
      element("span", {
        className: "mods",
        text: `${check.natural}${applied} = ${check.final}; ${check.compared_with}: ${check.outcome}`,
      }),
    );
  }
  return item;
}

/** The items of an answer's rolls, each with the modifiers read for it. */
export function rollItems(answer) {
  const checks = new Map((answer.modifiers ?? []).map((check) => [check.roll, check]));
  return (answer.rolls ?? []).map((roll) => rollItem(roll, checks.get(roll.label)));
}

const slow = () => !window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Append items to a list one by one, as the dice land (at once for reduced motion). */
export async function landOneByOne(list, items, pause = 350) {
  for (const item of items) {
    item.classList.add("new");
    list.append(item);
    if (slow()) await new Promise((done) => setTimeout(done, pause));
  }
}

// --- the log -------------------------------------------------------------------------------

function download(name, text) {
  const link = element("a", {
    href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
    download: name,
  });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

const revealTimers = new Map();

/** The log's tools under a game: save it, open it on the referee's page, reveal, start again. */
export function logTools(game, kind, onNew) {
  const box = document.querySelector(`.log-tools[data-game=${kind}]`);
  const note = element("p", { className: "note", "aria-live": "polite" });
  const count = game.log.length;
  const dice =
    game.mode === "sealed"
      ? `sealed seed, commitment ${game.log[0].commitment.slice(0, 16)}…, revealed after ${new Date(game.reveal_after).toLocaleString()}`
      : `seed ${game.seed}`;
  const tools = element("div", { className: "toolbar" });
  tools.append(
    element("button", { type: "button", text: "Save the log", className: "save-log", onclick: () => download(`${game.name()}.json`, game.logText()) }),
  );
  if (game.mode === "sealed") {
    const reveal = element("button", {
      type: "button",
      className: "reveal",
      text: game.reveal ? "Save the reveal" : "Reveal the seed",
      // The service reveals the seed once the game is over and its time has come.
      disabled: !game.reveal && (!game.over || Date.now() < Date.parse(game.reveal_after)),
      onclick: async () => {
        if (game.reveal) {
          download(`${game.name()}-reveal.json`, JSON.stringify(game.reveal, null, 1));
          return;
        }
        await busy(async () => {
          try {
            await game.revealSeed();
            logTools(game, kind, onNew);
          } catch (error) {
            if (error.status !== 409) throw error;
            note.textContent = `Not yet: the service reveals the seed after ${new Date(game.reveal_after).toLocaleString()}.`;
          }
        });
      },
    });
    tools.append(reveal);
    const wait = Date.parse(game.reveal_after) - Date.now();
    if (game.over && !game.reveal && wait > 0) {
      note.textContent = `The service reveals the seed after ${new Date(game.reveal_after).toLocaleTimeString()}.`;
      clearTimeout(revealTimers.get(kind));
      revealTimers.set(kind, setTimeout(() => reveal.isConnected && logTools(game, kind, onNew), wait + 500));
    }
  }
  tools.append(
    element("button", { type: "button", className: "to-referee", text: "Check on the referee's page", onclick: () => toReferee(game) }),
    element("button", {
      type: "button",
      text: "New game",
      className: "new-game",
      onclick: () => {
        Game.forget(kind);
        onNew();
      },
    }),
  );
  const lines = [
    element("p", {
      className: "log-line",
      "data-count": String(count),
      text: `The log: ${count} signed ${count === 1 ? "answer" : "answers"}, ${dice}. Kept in this browser: a reload resumes the game.`,
    }),
  ];
  if (game.reveal) lines.push(element("p", { className: "revealed", text: `Revealed seed: ${game.reveal.seed}` }));
  if (game.unsaved) lines.push(element("p", { text: "This browser's storage is full: save the log as a file." }));
  box.replaceChildren(element("h3", { text: "The game's log" }), ...lines, tools, note);
}
