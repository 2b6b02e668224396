// SALVO against the computer: deploy, then each round aim your salvo while the computer aims
// its own; both land together. The page keeps both oceans and sends them back each round.

import { Game, get, picture, post } from "./api.js";
import { $, busy, chosenDice, diceChoice, element, fill, logTools } from "./ui.js";

const BASE = "v1/rulesets/salvo-grid";
const COLUMNS = "ABCDEFGHIJ".split("");
const ROWS = Array.from({ length: 10 }, (_, i) => i + 1);
const LOOT_MARK = { crate: "+", mine: "−", "radar-buoy": "r" };
// Each ship's letter on its squares, so ships that touch are told apart.
const SHIP_LETTER = { carrier: "C", battleship: "B", cruiser: "R", submarine: "S", destroyer: "D" };

let ships = []; // GET /ships: each ship's name, size and special
let game = null;
let aim = []; // the squares aimed this round, in the order tapped
let specials = []; // the specials added to this round's salvo

const squareOf = (column, row) => `${column}${row}`;
const shipName = (id) => ships.find((s) => s.ship === id)?.name ?? id;

// --- boards --------------------------------------------------------------------------------

/** A 10 x 10 board of cells (buttons when tapped), labelled for screen readers. */
function board(label, cell) {
  const grid = element("div", { className: "board", role: "group", "aria-label": label });
  grid.append(element("span", { className: "label", "aria-hidden": "true" }));
  for (const column of COLUMNS) grid.append(element("span", { className: "label", "aria-hidden": "true", text: column }));
  for (const row of ROWS) {
    grid.append(element("span", { className: "label", "aria-hidden": "true", text: String(row) }));
    for (const column of COLUMNS) grid.append(cell(squareOf(column, row)));
  }
  return grid;
}

function fleetSquares(fleet) {
  const at = new Map();
  for (const placed of fleet) for (const square of placed.squares) at.set(square, placed.ship);
  return at;
}

// --- deployment ------------------------------------------------------------------------------

function shipSquares(size, bow, across) {
  const column = COLUMNS.indexOf(bow[0]);
  const row = Number(bow.slice(1));
  const squares = [];
  for (let i = 0; i < size; i++) {
    const c = across ? column + i : column;
    const r = across ? row : row + i;
    if (c > 9 || r > 10) return null;
    squares.push(squareOf(COLUMNS[c], r));
  }
  return squares;
}

function place(square) {
  const id = $("grid-ship").value;
  const size = ships.find((s) => s.ship === id).size;
  const squares = shipSquares(size, square, !game.ui.down);
  if (!squares) {
    $("grid-deploy-note").textContent = `The ${shipName(id)} does not fit there: it runs off the ocean.`;
    return;
  }
  game.ui.fleet = game.ui.fleet.map((p) => (p.ship === id ? { ship: id, squares } : p));
  game.ui.checked = false;
  game.save();
  $("grid-deploy-note").textContent = `The ${shipName(id)} now lies on ${squares.join(", ")}.`;
  drawDeploy();
  keepFocus("grid-deploy-board", square);
}

function drawDeploy() {
  const at = fleetSquares(game.ui.fleet);
  $("grid-deploy-board").replaceChildren(
    board("Your ocean: tap a square to place the chosen ship there", (square) =>
      element("button", {
        type: "button",
        "data-square": square,
        "data-ship": at.get(square),
        "aria-label": at.has(square) ? `${square}, ${shipName(at.get(square))}` : `${square}, open water`,
        text: SHIP_LETTER[at.get(square)] ?? "",
        onclick: () => place(square),
      }),
    ),
  );
  const rotate = $("grid-rotate");
  rotate.textContent = game.ui.down ? "Rotate: down" : "Rotate: across";
  rotate.setAttribute("aria-pressed", String(Boolean(game.ui.down)));
}

async function shuffle() {
  await busy(async () => {
    const answer = await game.step(`${BASE}/layout`, {});
    game.ui.fleet = answer.result.fleet;
    game.ui.checked = true;
    game.save();
    $("grid-deploy-note").textContent = "A new random layout.";
    drawDeploy();
    drawTools();
  });
}

async function ready() {
  await busy(async () => {
    if (!game.ui.checked) {
      // The layout placed by hand: the service names every fault before the battle.
      const check = await game.step(`${BASE}/layout`, { fleet: game.ui.fleet });
      drawTools();
      if (!check.result.legal) {
        $("grid-deploy-note").textContent = `Not yet: ${check.result.faults.map((f) => f.detail).join("; ")}`;
        return;
      }
      game.ui.fleet = check.result.fleet;
    }
    const lootA = await game.step(`${BASE}/loot`, { fleet: game.ui.fleet });
    const fleetB = (await game.step(`${BASE}/layout`, {})).result.fleet;
    const lootB = await game.step(`${BASE}/loot`, { fleet: fleetB });
    Object.assign(game.ui, {
      phase: "battle",
      oceans: { a: { fleet: game.ui.fleet, loot: lootA.result.loot }, b: { fleet: fleetB, loot: lootB.result.loot } },
      views: { a: {}, b: {} },
      sizes: { a: 5, b: 5 },
      afloat: ships.map((s) => s.ship),
      counts: [],
      dives: [],
      round: 1,
      told: null,
    });
    game.save();
    aim = [];
    specials = [];
    showPhase();
  });
}

// --- the battle ----------------------------------------------------------------------------

function sunkSquares(view) {
  return new Set((view.sunk ?? []).flatMap((s) => s.squares));
}

/** Where the player may fire: as the last salvo's answer says (`a.may_fire_at`); before
 * the first salvo nothing has been fired on, so every square of the board. */
function openSquares() {
  if (game.ui.mayFireAt) return new Set(game.ui.mayFireAt);
  return new Set(COLUMNS.flatMap((column) => ROWS.map((row) => squareOf(column, row))));
}

function costsAShot() {
  const rules = game.log.at(-1)?.rules ?? {};
  return rules["special-needs-its-ship-afloat"] === "costs-a-shot";
}

function shotsAllowed() {
  return Math.max(0, game.ui.sizes.a - (costsAShot() ? specials.length : 0));
}

function markOf(square, view, sunk) {
  if (sunk.has(square)) return "sunk";
  if ((view.hits ?? []).includes(square)) return "hit";
  if ((view.contacts ?? []).includes(square)) return "contact";
  if ((view.misses ?? []).includes(square)) return "miss";
  return null;
}

const MARK_WORDS = { sunk: "sunk", hit: "hit", contact: "contact", miss: "miss" };

function toggle(square) {
  const at = aim.indexOf(square);
  if (at >= 0) aim.splice(at, 1);
  else if (aim.length < shotsAllowed()) aim.push(square);
  else {
    $("grid-status").textContent = `Your salvo has ${shotsAllowed()} shots, all aimed: fire, or tap one to take it back.`;
    return;
  }
  drawBattle();
  keepFocus("grid-enemy-board", square);
}

/** A board drawn again keeps the keyboard's place on the square just tapped. */
function keepFocus(board, square) {
  $(board).querySelector(`[data-square="${square}"]`)?.focus();
}

function drawEnemy() {
  const view = game.ui.views.a;
  const sunk = sunkSquares(view);
  const open = openSquares();
  const over = game.ui.phase === "over";
  const fresh = new Set((game.ui.told?.told?.fire ?? []).map((f) => f.square));
  return board("Enemy waters: tap a square to aim a shot there", (square) => {
    const mark = markOf(square, view, sunk);
    const aimed = aim.includes(square);
    const words = [square, aimed ? "aimed" : MARK_WORDS[mark] ?? "not fired on"].join(", ");
    return element("button", {
      type: "button",
      "data-square": square,
      "data-mark": mark,
      "data-aimed": aimed ? "true" : null,
      "data-fresh": fresh.has(square) ? "true" : null,
      "aria-pressed": String(aimed),
      "aria-label": words,
      disabled: over || !open.has(square),
      onclick: () => toggle(square),
    });
  });
}

function drawOwn() {
  const ocean = game.ui.oceans.a;
  const at = fleetSquares(ocean.fleet);
  const fired = new Set(ocean.shots_received ?? []);
  const lost = new Set((game.ui.lost ?? []).flatMap((s) => s.squares));
  const loot = new Map(ocean.loot.map((p) => [p.square, p.kind]));
  const fresh = new Set((game.ui.told?.own_ocean?.fire ?? []).map((f) => f.square));
  return board("Your fleet and the computer's fire on it", (square) => {
    const ship = at.get(square);
    let mark = null;
    if (lost.has(square)) mark = "sunk";
    else if (fired.has(square)) mark = ship ? "hit" : "miss";
    else if ((ocean.contacts ?? []).includes(square)) mark = "contact";
    const words = [square, ship ? shipName(ship) : "open water", MARK_WORDS[mark], loot.has(square) ? loot.get(square) : null];
    return element("span", {
      className: "sq",
      role: "img",
      "data-square": square,
      "data-ship": ship,
      "data-mark": mark,
      "data-loot": loot.has(square) && !ship ? LOOT_MARK[loot.get(square)] : null,
      "data-fresh": fresh.has(square) ? "true" : null,
      "aria-label": words.filter(Boolean).join(", "),
      text: ship && !mark ? SHIP_LETTER[ship] : "",
    });
  });
}

function drawSpecials() {
  const used = new Set(game.ui.oceans.a.specials_used ?? []);
  const added = new Set(specials.map((s) => s.ship));
  const box = $("grid-special");
  const available = ships.filter((s) => game.ui.afloat.includes(s.ship) && !used.has(s.ship) && !added.has(s.ship));
  const choice = element("select", { id: "grid-special-ship" }, ...available.map((s) => element("option", { value: s.ship, text: `${s.name}: ${s.special}` })));
  const square = element("input", { id: "grid-special-square", placeholder: "C5", size: 4, autocomplete: "off", spellcheck: false });
  const orientation = element("select", { id: "grid-special-orientation" }, element("option", { value: "horizontal", text: "across" }), element("option", { value: "vertical", text: "down" }));
  const line = element(
    "select",
    { id: "grid-special-line" },
    ...ROWS.map((r) => element("option", { value: `row:${r}`, text: `row ${r}` })),
    ...COLUMNS.map((c) => element("option", { value: `column:${c}`, text: `column ${c}` })),
  );
  const add = element("button", {
    type: "button",
    text: "Add to this salvo",
    hidden: available.length === 0,
    onclick: () => {
      const ship = choice.value;
      const info = ships.find((s) => s.ship === ship);
      const special = { ship };
      if (info.special_aim.includes("square")) {
        const aimed = square.value.trim().toUpperCase();
        if (!/^[A-J](10|[1-9])$/.test(aimed)) {
          $("grid-status").textContent = `Aim the ${info.special} at a square, A1 to J10.`;
          return;
        }
        special.square = aimed;
      }
      if (info.special_aim.includes("orientation")) special.orientation = orientation.value;
      if (info.special_aim.includes("row")) {
        const [kind, value] = line.value.split(":");
        special[kind] = kind === "row" ? Number(value) : value;
      }
      specials.push(special);
      aim = aim.slice(0, shotsAllowed());
      drawBattle();
    },
  });
  const listed = specials.map((s, i) =>
    element(
      "li",
      {},
      `${shipName(s.ship)}: ${ships.find((x) => x.ship === s.ship).special} ${s.square ?? s.row ?? s.column ?? ""} `,
      element("button", { type: "button", text: "remove", onclick: () => (specials.splice(i, 1), drawBattle()) }),
    ),
  );
  // Only what the chosen special is aimed with (GET /ships: special_aim).
  const aimedBy = {
    square: element("span", { className: "pair-inline" }, element("label", { htmlFor: "grid-special-square", text: "at square" }), square),
    orientation: element("span", { className: "pair-inline" }, element("label", { htmlFor: "grid-special-orientation", text: "running" }), orientation),
    row: element("span", { className: "pair-inline" }, element("label", { htmlFor: "grid-special-line", text: "along" }), line),
  };
  const showAim = () => {
    const info = ships.find((s) => s.ship === choice.value);
    for (const [kind, span] of Object.entries(aimedBy)) span.hidden = !info?.special_aim.includes(kind);
  };
  choice.addEventListener("change", showAim);
  showAim();
  fill(
    box,
    available.length ? element("label", { htmlFor: "grid-special-ship", text: "Special" }) : null,
    available.length ? choice : element("p", { text: "No special left to use." }),
    ...Object.values(aimedBy),
    add,
    listed.length ? element("ul", { className: "specials" }, ...listed) : null,
  );
}

function toldLines(told, own) {
  const lines = [];
  const mine = told.told;
  for (const f of mine.fire) {
    const what = f.result === "sunk" ? `sunk: the ${shipName(f.ship)}, on ${f.position.join(", ")}` : f.result;
    lines.push(`${f.square} (${f.by}): ${what}${f.loot ? `; you found a ${f.loot}` : ""}`);
  }
  for (const s of mine.specials) {
    lines.push(`${shipName(s.ship)}'s ${s.special} on ${s.squares.join(", ")}${s.count === null ? "" : `: ${s.count} enemy ship squares not yet hit`}`);
  }
  for (const r of mine.radar) lines.push(`Radar buoy at ${r.buoy}: ${r.contact ? `a contact at ${r.contact}` : "no contact"}`);
  if (mine.loot_bonus) lines.push(`Loot: ${mine.loot_bonus > 0 ? "+" : ""}${mine.loot_bonus} shots in your next salvo`);
  const theirs = [];
  for (const f of own.fire) {
    const what = f.ship ? `${f.result} on your ${shipName(f.ship)}` : f.result;
    theirs.push(`${f.square} (${f.by}): ${what}${f.loot ? `; the computer found your ${f.loot}` : ""}`);
  }
  for (const r of own.radar) theirs.push(`The computer's radar buoy at ${r.buoy}: ${r.contact ? `a contact at ${r.contact}` : "no contact"}`);
  for (const s of own.sunk) theirs.push(`The computer sank your ${shipName(s.ship)}`);
  return [lines, theirs];
}

function drawTold() {
  const told = game.ui.told;
  if (!told) {
    $("grid-told").replaceChildren(element("p", { className: "help", text: "Aim your first salvo." }));
    return;
  }
  const [mine, theirs] = toldLines(told, told.own_ocean);
  $("grid-told").replaceChildren(
    element("h4", { text: `Round ${game.ui.round - 1}: your salvo` }),
    element("ul", { id: "grid-told-mine" }, ...mine.map((text) => element("li", { text }))),
    element("h4", { text: "The computer's salvo" }),
    element("ul", { id: "grid-told-theirs" }, ...theirs.map((text) => element("li", { text }))),
  );
}

function drawBattle() {
  const over = game.ui.phase === "over";
  $("grid-enemy-board").replaceChildren(drawEnemy());
  $("grid-own-board").replaceChildren(drawOwn());
  const allowed = shotsAllowed();
  $("grid-status").textContent = over
    ? "The battle is over."
    : `Round ${game.ui.round}: aim ${allowed} ${allowed === 1 ? "shot" : "shots"} (${aim.length} aimed)` +
      `${specials.length ? ` and ${specials.length} special` : ""}. The computer has ${game.ui.sizes.b}.`;
  $("grid-status").dataset.aimed = String(aim.length);
  $("grid-status").dataset.allowed = String(allowed);
  $("grid-fire").disabled = over || aim.length + specials.length === 0;
  $("grid-clear").disabled = over;
  $("grid-special-box").hidden = over;
  drawSpecials();
  drawTold();
  drawOver();
}

async function fire() {
  await busy(async () => {
    const ui = game.ui;
    $("grid-fire").disabled = true;
    // The computer aims as the player does, from its own ocean and its view of the player's.
    const computer = await game.step(`${BASE}/computer`, { ocean: ui.oceans.b, view: ui.views.b });
    const answer = await game.step(`${BASE}/salvo`, {
      a: { ocean: ui.oceans.a, salvo: { shots: aim, specials } },
      b: { ocean: ui.oceans.b, salvo: computer.result.salvo },
    });
    const result = answer.result;
    for (const report of result.a.told.specials) {
      if (report.count === null) continue;
      const seen = new Set([...(result.a.view.hits ?? []), ...sunkSquares(result.a.view)]);
      ui.counts.push({ ship: report.ship, squares: report.squares, count: report.count, hit: report.squares.filter((s) => seen.has(s)) });
    }
    for (const f of result.a.told.fire) if (f.result === "contact" && f.by === "shot") ui.dives.push(f.square);
    Object.assign(ui, {
      oceans: { a: result.a.ocean, b: result.b.ocean },
      views: { a: result.a.view, b: result.b.view },
      sizes: { a: result.a.salvo_size, b: result.b.salvo_size },
      mayFireAt: result.a.may_fire_at,
      afloat: result.a.afloat,
      lost: [...(ui.lost ?? []), ...result.a.own_ocean.sunk],
      told: { told: result.a.told, own_ocean: result.a.own_ocean },
      round: ui.round + 1,
    });
    if (result.game_over) {
      ui.phase = "over";
      ui.end = { winner: result.winner, draw: result.draw };
      game.over = true;
    }
    aim = [];
    specials = [];
    $("grid-heatmap").replaceChildren();
    game.save();
    drawBattle();
    drawTools();
  });
}

async function heatmap() {
  await busy(async () => {
    const view = { ...game.ui.views.a };
    const marked = new Set([...(view.contacts ?? []), ...(view.hits ?? []), ...sunkSquares(view)]);
    const dives = [...new Set(game.ui.dives)].filter((s) => marked.has(s)).slice(0, 3);
    if (dives.length) view.dive_contacts = dives;
    const body = { view };
    if (game.ui.counts.length) body.counts = game.ui.counts;
    $("grid-heatmap").replaceChildren(await picture(`${BASE}/heatmap`, body));
  });
}

function drawOver() {
  const box = $("grid-over");
  box.hidden = game.ui.phase !== "over";
  if (box.hidden) return;
  const end = game.ui.end;
  const headline = end.draw ? "A draw: both fleets went down together" : end.winner === "a" ? "You win: every enemy ship is sunk" : "The computer wins: your fleet is sunk";
  box.dataset.outcome = end.draw ? "draw" : end.winner === "a" ? "player" : "computer";
  box.replaceChildren(element("p", { className: "big", text: `Game over. ${headline}.` }));
}

// --- starting, resuming ------------------------------------------------------------------------

function drawTools() {
  logTools(game, "grid", newGame);
}

function showPhase() {
  const phase = game?.ui.phase ?? null;
  $("grid-setup").hidden = phase !== null;
  $("grid-deploy").hidden = phase !== "deploy";
  $("grid-game").hidden = phase !== "battle" && phase !== "over";
  if (phase === "deploy") drawDeploy();
  if (phase === "battle" || phase === "over") drawBattle();
  if (phase !== null) {
    // The log's tools follow the game wherever it is on the page.
    const tools = document.querySelector(".log-tools[data-game=grid]");
    (phase === "deploy" ? $("grid-deploy") : $("grid-game")).append(tools);
    drawTools();
  }
}

function newGame() {
  game = null;
  aim = [];
  specials = [];
  diceChoice("grid");
  $("grid-heatmap").replaceChildren();
  showPhase();
}

async function start(event) {
  event.preventDefault();
  await busy(async () => {
    game = await Game.start("grid", "salvo-grid", chosenDice("grid"));
    const answer = await game.step(`${BASE}/layout`, {});
    game.ui = { phase: "deploy", fleet: answer.result.fleet, checked: true, down: false };
    game.save();
    showPhase();
  });
}

export async function init() {
  ships = (await get(`${BASE}/ships`)).ships;
  $("grid-ship").replaceChildren(...ships.map((s) => element("option", { value: s.ship, text: `${s.name} (${s.size})` })));
  $("grid-setup").addEventListener("submit", start);
  $("grid-shuffle").addEventListener("click", shuffle);
  $("grid-rotate").addEventListener("click", () => {
    game.ui.down = !game.ui.down;
    game.save();
    drawDeploy();
  });
  $("grid-ready").addEventListener("click", ready);
  $("grid-fire").addEventListener("click", fire);
  $("grid-clear").addEventListener("click", () => {
    aim = [];
    specials = [];
    drawBattle();
  });
  $("grid-heat").addEventListener("click", heatmap);
  document.addEventListener("keydown", (event) => {
    // The rule text's keys: R rotates, Escape clears the aim, Enter fires (on the board).
    if ($("grid").hidden || !game) return;
    if (event.key === "Escape" && game.ui.phase === "battle") $("grid-clear").click();
    if ((event.key === "r" || event.key === "R") && game.ui.phase === "deploy" && event.target.tagName !== "INPUT") $("grid-rotate").click();
  });
  diceChoice("grid");
  game = Game.load("grid");
  if (game && !game.ui?.phase) game = null;
  showPhase();
}
