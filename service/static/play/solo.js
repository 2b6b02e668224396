// Salvo!: your ship against the enemy's, a turn at a time, on the service's dice.

import { Game, get, picture, post } from "./api.js";
import { $, busy, chosenDice, diceChoice, element, fill, landOneByOne, logTools, rollItems } from "./ui.js";

const BASE = "v1/rulesets/salvo-solo";
const ACTIONS = { C: "Close", OB: "Offer Broadside", W: "Withdraw" };

let cards = new Map();
let game = null;

// --- the ship cards ------------------------------------------------------------------------

/** What the last turn answer says of a ship (`result.ships`): its speed, whether it is sunk,
 * may fire, must Offer Broadside. Before the first answer the ships are as their cards. */
function statusOf(side) {
  const status = game.ui.status?.[side];
  if (status) return status;
  const card = cards.get(game.ui.state[side].ship);
  return { speed: card.speed, sunk: false, can_fire: true, must_offer_broadside: false };
}

function track(label, taken, rating, after) {
  return [element("dt", { text: label }), element("dd", { text: `${taken} of ${rating}${after}` })];
}

function drawCard(side) {
  const named = game.ui.state[side];
  const card = cards.get(named.ship);
  const status = statusOf(side);
  // A state names only what it holds: the rest is undamaged.
  const state = { flotation_hits: 0, turret_hits: 0, speed_hits: 0, fire_control: "ready", ...named.state };
  const sunk = status.sunk;
  const box = $(`solo-card-${side}`);
  box.dataset.sunk = String(sunk);
  box.replaceChildren(
    element("h4", { text: `${side === "player" ? "You" : "Enemy"}: ${card.name}${sunk ? " (sunk)" : ""}` }),
    element(
      "dl",
      {},
      element("dt", { text: "Type" }),
      element("dd", { text: `${card.type}, ${card.guns}" guns` }),
      element("dt", { text: "Guns" }),
      element("dd", { text: `bow ${card.bow}, broadside ${card.broadside}, stern ${card.stern}` }),
      ...track("F hits", state.flotation_hits, card.flotation, `: sinks above ${card.flotation}`),
      ...track("T hits", state.turret_hits, card.turret, `: silent at ${card.turret}`),
      element("dt", { text: "Speed" }),
      element("dd", {
        text:
          `${status.speed} of ${card.speed} (${state.speed_hits} S hits)` +
          (status.must_offer_broadside ? ": only Offer Broadside" : ""),
      }),
      element("dt", { text: "Fire control" }),
      element("dd", { text: state.fire_control }),
      element("dt", { text: "Guns fire" }),
      element("dd", { text: status.can_fire ? "yes" : "no: cannot fire" }),
      element("dt", { text: "Armor" }),
      element("dd", { text: String(card.armor) }),
    ),
  );
}

function drawConditions() {
  const state = game.ui.state;
  $("solo-conditions").textContent = state
    ? `Turn ${state.turn} · ${state.weather} · range ${state.range ?? "out of range"}`
    : "Rolling weather and range…";
}

// --- one turn ------------------------------------------------------------------------------

function eventLine(event) {
  const r = event.result;
  const who = (side) => (side === "player" ? "You" : "The enemy");
  switch (event.phase) {
    case "initiative":
      return r.first === "player" ? "You have the initiative." : "The enemy has the initiative.";
    case "enemy-action":
      return `The enemy's Action: ${ACTIONS[r.action]} (${r.action}).`;
    case "player-action":
      return `Your Action: ${ACTIONS[r.action] ?? r.action}.`;
    case "maneuver":
      return r.out_of_range
        ? "The ships are out of range."
        : `Range now ${r.range}; your guns bear ${r.player_guns_bearing}, the enemy's ${r.enemy_guns_bearing}.`;
    case "fire": {
      const shots = (r.shots ?? []).map((shot) =>
        shot.hits ? `shot ${shot.shot} hits ${shot.hits}` : shot.fire?.straddle ? `shot ${shot.shot} straddles, no effect` : `shot ${shot.shot} misses`,
      );
      const why = r.why_not ?? r.reason ?? null;
      const said = shots.length ? shots.join("; ") : (why ?? "no shot");
      return `${who(event.side)} fire${event.side === "player" ? "" : "s"}: ${said}${r.target_sunk ? ": sunk!" : "."}`;
    }
    case "torpedo":
      return `${who(event.side)} launch${event.side === "player" ? "" : "es"} torpedoes: ${r.hit ? `a hit, ${r.hits ?? ""}` : "no hit"}.`;
    case "end-of-turn":
      return r.game_over ? "End of turn: the game is over." : "End of turn: the action goes on.";
    default:
      return null;
  }
}

async function showAnswer(answer, fresh = true) {
  const list = $("solo-rolls");
  list.replaceChildren();
  const turn = answer.provenance?.request?.body?.state?.turn;
  $("solo-rolls-title").textContent = turn ? `Turn ${turn}, roll by roll` : "The last turn, roll by roll";
  const items = rollItems(answer);
  const action = answer.provenance?.request?.body?.player_action;
  if (action) items.push(element("li", { className: "event", text: `Your Action: ${ACTIONS[action]} (${action}).` }));
  for (const event of answer.result.events ?? []) {
    const line = eventLine(event);
    if (line) items.push(element("li", { className: "event", text: line }));
  }
  if (fresh) {
    $("solo-rolls-title").scrollIntoView({ block: "start" });
    await landOneByOne(list, items);
  }
  else list.append(...items);
}

function drawTurn() {
  const turn = game.ui.turn;
  const pendingBox = $("solo-pending");
  const choices = $("solo-choices");
  const adviceBox = $("solo-advice");
  $("solo-turn").hidden = game.over;
  if (!turn || game.over) {
    pendingBox.replaceChildren();
    choices.replaceChildren();
    adviceBox.replaceChildren();
    return;
  }
  $("solo-turn-title").textContent = `Turn ${game.ui.state.turn}: your Action`;
  fill(
    pendingBox,
    turn.pending?.first === "enemy"
      ? element("p", {
          text:
            `The enemy has the initiative and will ${ACTIONS[turn.pending.enemy_action]} ` +
            `(${turn.pending.enemy_action}). Choose your Action in reply.`,
        })
      : element("p", {
          text: "You have the initiative: choose your Action first; the enemy's is rolled after it.",
        }),
    turn.pendingAt !== undefined && game.log[turn.pendingAt]
      ? element("ol", { className: "rolls pending-rolls" }, ...rollItems(game.log[turn.pendingAt]))
      : null,
  );
  if (turn.advice) {
    const best = turn.advice.best_action;
    const percent = (outcome) => `${Math.round(outcome.p * 100)}%`;
    adviceBox.replaceChildren(
      element(
        "table",
        { className: "advice" },
        element("caption", {
          text: `Advice: ${ACTIONS[best]} (${best}). Each Action, then Close, played to the end in at least ${Math.min(...turn.advice.actions.map((a) => a.samples))} games:`,
        }),
        element(
          "thead",
          {},
          element("tr", {}, ...["Action", "win", "draw", "loss", "turns"].map((h) => element("th", { scope: "col", text: h }))),
        ),
        element(
          "tbody",
          {},
          ...turn.advice.actions.map((a) =>
            element(
              "tr",
              { "data-best": String(a.action === best), "data-action": a.action },
              element("td", { text: `${ACTIONS[a.action]} (${a.action})` }),
              element("td", { text: percent(a.win) }),
              element("td", { text: percent(a.draw) }),
              element("td", { text: percent(a.loss) }),
              element("td", { text: a.expected_turns.toFixed(1) }),
            ),
          ),
        ),
      ),
    );
  } else {
    adviceBox.replaceChildren(element("p", { className: "help", text: turn.adviceProblem ?? "" }));
  }
  choices.replaceChildren(
    ...turn.choices.map((action) =>
      element("button", {
        type: "button",
        className: action === turn.advice?.best_action ? "primary" : "",
        "data-action": action,
        text: `${ACTIONS[action]} (${action})`,
        onclick: () => choose(action),
      }),
    ),
  );
}

async function nextTurn() {
  const state = game.ui.state;
  // Asked without an Action, the turn waits for it: who has the initiative, the enemy's
  // Action when the enemy has it, and the Actions the player may choose.
  const answer = await game.step(`${BASE}/turn`, { state });
  const pending = answer.result.pending;
  game.ui.status = answer.result.ships;
  drawCard("player");
  drawCard("enemy");
  if (!pending) {
    // The turn needed nothing from the player.
    await finished(answer);
    return;
  }
  let advice = null;
  let adviceProblem = null;
  try {
    advice = (await post(`${BASE}/advice`, { state, enemy_action: pending.enemy_action })).result;
  } catch (error) {
    adviceProblem = `No advice this turn: ${error.message}`;
  }
  const pendingAt = game.log.length - 1;
  game.ui.turn = { pending, pendingAt, choices: pending.choices, advice, adviceProblem };
  game.save();
  drawTurn();
  drawTools();
}

async function choose(action) {
  await busy(async () => {
    for (const button of $("solo-choices").querySelectorAll("button")) button.disabled = true;
    const turn = game.ui.turn;
    const answer = await game.step(
      `${BASE}/turn`,
      { state: game.ui.state, player_action: action },
      turn.pending?.dice ?? null,
    );
    game.ui.turn = null;
    drawTurn();
    await finished(answer);
  });
  drawTurn();
}

async function finished(answer) {
  const result = answer.result;
  game.ui.state = result.state;
  game.ui.status = result.ships;
  game.ui.last = game.log.length - 1;
  if (result.game_over) {
    game.over = true;
    game.ui.end = { winner: result.winner, draw: result.draw, reason: result.reason };
  }
  game.save();
  drawCard("player");
  drawCard("enemy");
  await showAnswer(answer);
  drawConditions();
  if (game.over) {
    drawOver();
    drawTurn();
    drawTools();
  } else {
    await nextTurn();
  }
}

function drawOver() {
  const box = $("solo-over");
  box.hidden = !game.over;
  if (!game.over) return;
  const end = game.ui.end;
  const headline = end.draw ? "A draw" : end.winner === "player" ? "You win" : "The enemy wins";
  box.dataset.outcome = end.draw ? "draw" : end.winner;
  fill(box, element("p", { className: "big", text: `Game over: ${headline}` }), end.reason ? element("p", { text: end.reason }) : null);
}

function drawTools() {
  logTools(game, "solo", newGame);
}

// --- the attack odds ------------------------------------------------------------------------

async function odds(event) {
  event.preventDefault();
  await busy(async () => {
    const state = game.ui.state;
    const firer = $("solo-odds-firer").value;
    const target = firer === "player" ? "enemy" : "player";
    const image = await picture(`${BASE}/attack/odds`, {
      firer: state[firer],
      target: state[target],
      range: state.range,
      weather: state.weather,
      guns_bearing: $("solo-odds-bearing").value,
      previously_straddled: Boolean(state[`${firer}_has_straddled`]),
    });
    $("solo-odds-picture").replaceChildren(image);
  });
}

// --- starting, resuming ---------------------------------------------------------------------

function showGame(on) {
  $("solo-setup").hidden = on;
  $("solo-game").hidden = !on;
}

function newGame() {
  game = null;
  diceChoice("solo");
  $("solo-over").hidden = true;
  $("solo-rolls").replaceChildren();
  $("solo-odds-picture").replaceChildren();
  showGame(false);
}

async function start(event) {
  event.preventDefault();
  await busy(async () => {
    const player = $("solo-player").value;
    const enemy = $("solo-enemy").value;
    if (player === enemy) throw new Error("Pick two different ships.");
    game = await Game.start("solo", "salvo-solo", chosenDice("solo"));
    game.ui = { ships: { player, enemy }, state: null, turn: null };
    showGame(true);
    drawConditions();
    drawTools();
    $("solo-over").hidden = true;
    const list = $("solo-rolls");
    list.replaceChildren();
    $("solo-rolls-title").textContent = "Weather and range, roll by roll";
    const weather = await game.step(`${BASE}/weather`, {});
    await landOneByOne(list, rollItems(weather));
    const range = await game.step(`${BASE}/range`, { weather: weather.result.weather });
    await landOneByOne(list, rollItems(range));
    game.ui.state = {
      turn: 1,
      weather: weather.result.weather,
      range: range.result.range,
      player: { ship: player },
      enemy: { ship: enemy },
    };
    game.save();
    drawConditions();
    drawCard("player");
    drawCard("enemy");
    await nextTurn();
  });
}

function resume(stored) {
  game = stored;
  showGame(true);
  drawConditions();
  drawTools();
  if (!game.ui.state) {
    // Stopped between the weather and the range: start again on a fresh game.
    newGame();
    return;
  }
  drawCard("player");
  drawCard("enemy");
  const last = game.ui.last; // the last finished turn's answer, once there is one
  if (last !== undefined && game.log[last]) showAnswer(game.log[last], false);
  else {
    $("solo-rolls-title").textContent = "Weather and range, roll by roll";
    fill($("solo-rolls"), ...game.log.filter((a) => a.step === "weather" || a.step === "range").flatMap(rollItems));
  }
  drawTurn();
  drawOver();
  if (!game.over && !game.ui.turn) busy(nextTurn);
}

export async function init() {
  const ships = await get(`${BASE}/ships`);
  cards = new Map(ships.ships.map((card) => [card.name, card]));
  const option = (card) => element("option", { value: card.name, text: `${card.name} (${card.type}, ${card.nation})` });
  $("solo-player").replaceChildren(...ships.ships.map(option));
  $("solo-enemy").replaceChildren(...ships.ships.map(option));
  $("solo-player").value = "Ajax";
  $("solo-enemy").value = "Graf Spee";
  $("solo-setup").addEventListener("submit", start);
  $("solo-odds-form").addEventListener("submit", odds);
  diceChoice("solo");
  const stored = Game.load("solo");
  if (stored) resume(stored);
}
