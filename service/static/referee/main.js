// The page: read what the referee drops or pastes, check it in the browser, show it.

import { NotJSON, parse, Duplicate, get, isDict } from "./json.js";
import { SEALED_NOT_YET, check, checkParts, cryptoAvailable, entryAt, entryName, loadKeys, read, revealedSeeds } from "./verify.js";
import {
  MEANING,
  diceLine,
  entryTitle,
  forumLine,
  leftOutNote,
  luck,
  MAX_ODDS_PER_LOG,
  modifierLines,
  oddsRequest,
  PINNED_BY_DIGEST,
  pinnedByDigest,
  planLuck,
  resultLine,
  rollLines,
  termLines,
  state,
  stepName,
} from "./explain.js";

const $ = (id) => document.getElementById(id);
const status = {
  runs: 0,
  done: 0,
  report: null,
  verdict: "none",
  luckPending: 0,
  oddsLimit: MAX_ODDS_PER_LOG,
  error: null,
};
window.referee = status;

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else if (name.startsWith("data-")) node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// --- reading what was dropped ----------------------------------------------------------------

async function readFile(file) {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new NotJSON(`${file.name} is not UTF-8 text`);
  }
}

// Several log files are the parts of one game, checked in order of their names, each
// continuing from the one before (as tools/verify_dice.py --part does).
async function readFiles(files) {
  if (files.length === 1) return readFile(files[0]);
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const texts = [];
  for (const file of sorted) texts.push(await readFile(file));
  return `{"parts": [\n${texts.join(",\n")}\n]}`;
}

async function take(target, file, text) {
  const box = $(`${target}-text`);
  try {
    box.value = file ? await readFiles(file instanceof File ? [file] : file) : text;
  } catch (error) {
    box.value = "";
    showError(`Cannot read that file: ${error.message}`);
    return;
  }
  if (target === "jwks") document.querySelector('input[name=keys][value=pasted]').checked = true;
  run();
}

function wireDrop(zone, target) {
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const files = [...event.dataTransfer.files];
    const chosen = target === "log" && files.length > 1 ? files : files[0];
    take(target, chosen ?? null, chosen ? null : event.dataTransfer.getData("text"));
  });
}

// --- the keys --------------------------------------------------------------------------------

async function keysFor() {
  const mode = document.querySelector("input[name=keys]:checked").value;
  if (mode === "pasted") {
    const pasted = $("jwks-text").value.trim();
    if (!pasted) return { keys: null, note: "signatures NOT checked: paste the saved key set" };
    try {
      return { keys: await loadKeys(parse(pasted, { unique: false })), source: "the pasted key set" };
    } catch (error) {
      return { keys: null, note: `signatures NOT checked: the pasted key set cannot be read (${error.message})` };
    }
  }
  try {
    const answer = await fetch(new URL("./.well-known/jwks.json", document.baseURI), {
      headers: { Accept: "application/json" },
      cache: "no-store",
      signal: AbortSignal.timeout(8000),
    });
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    const text = await answer.text();
    $("jwks-text").placeholder = text;
    return { keys: await loadKeys(parse(text, { unique: false })), source: "this service's key set" };
  } catch (error) {
    return {
      keys: null,
      note:
        `signatures NOT checked: this service's key set cannot be fetched (${error.message}); ` +
        "paste a key set saved earlier",
    };
  }
}

// --- one check -------------------------------------------------------------------------------

function showError(message) {
  status.error = message;
  status.verdict = "unreadable";
  const verdict = $("verdict");
  verdict.dataset.verdict = "unreadable";
  verdict.replaceChildren(element("p", { className: "big", text: "Cannot check" }), element("p", { text: message }));
  $("notes").replaceChildren();
  $("log-report").replaceChildren();
  $("entries").replaceChildren();
}

async function reveals() {
  const text = $("reveal-text").value.trim();
  if (!text) return { seeds: new Map(), problems: [] };
  let value;
  try {
    value = parse(text);
  } catch (error) {
    const why = error instanceof Duplicate ? error.message : error.message;
    return { seeds: new Map(), problems: [`the reveal answer cannot be read: ${why}`] };
  }
  const documents = Array.isArray(value) ? value : [value];
  return revealedSeeds(documents);
}

async function run() {
  status.runs += 1;
  const mine = status.runs;
  document.body.dataset.busy = "true";
  try {
    await runChecks(mine);
  } catch (error) {
    if (mine === status.runs) showError(`The check stopped: ${error.message}`);
  } finally {
    if (mine === status.runs) {
      status.done = mine;
      document.body.dataset.busy = "false";
      document.body.dataset.done = String(mine);
    }
  }
}

async function runChecks(mine) {
  status.error = null;
  const text = $("log-text").value.trim();
  if (!text) {
    status.report = null;
    status.verdict = "none";
    $("verdict").dataset.verdict = "none";
    $("verdict").replaceChildren(element("p", { text: "Drop a game log to check it." }));
    $("notes").replaceChildren();
    $("log-report").replaceChildren();
    $("entries").replaceChildren();
    return;
  }
  if (!cryptoAvailable()) {
    showError(
      "This browser offers no WebCrypto here: open the page over https (or from localhost), " +
        "where browsers allow it.",
    );
    return;
  }
  let parsed;
  try {
    parsed = read(text);
  } catch (error) {
    showError(`The log is not JSON: ${error.message}`);
    return;
  }
  const { keys, note, source } = await keysFor();
  const revealed = await reveals();
  const acceptSupplied = $("accept-supplied").checked;
  const parts = parsed.verdict ? null : partsOf(parsed.document);
  const report =
    parsed.verdict ??
    (parts !== null
      ? await checkParts(parts, keys, revealed.seeds, acceptSupplied)
      : await check(parsed.document, keys, revealed.seeds, acceptSupplied));
  report.signatures_checked = keys !== null; // as the standalone verifier says, refused or not
  if (revealed.problems.length) Object.assign(report, { valid: false, verdict: "invalid" });
  if (mine !== status.runs) return;
  const notes = [...(note ? [note] : []), ...revealed.problems, ...partNotes(report)];
  render(report, notes, revealed.problems.length > 0, source, mine);
}

/** The parts of a game several files were read as (`{"parts": [...]}`), or null. */
function partsOf(document) {
  if (!isDict(document) || Object.keys(document).length !== 1 || !Object.hasOwn(document, "parts")) {
    return null;
  }
  return Array.isArray(document.parts) && document.parts.length ? document.parts : null;
}

/** How many entries were checked: a game in parts counts as one game, all its parts. */
function gameSize(report) {
  const part = report.part;
  const count = part ? part.entries : report.entries.length;
  const entries = `${count} ${count === 1 ? "entry" : "entries"}`;
  if (!part) return entries;
  return part.held ? `${entries} in ${part.of} parts` : `${entries} in the first ${part.number} of ${part.of} parts`;
}

function partNotes(report) {
  const part = report.part;
  if (!part) return [];
  if (!part.held) {
    return [`part ${part.number} of ${part.of} does not hold: the parts after it were not checked`];
  }
  return [`${part.of} parts checked in order, each continuing from the one before: below, the last`];
}

// What the page shows for each verdict of the report (tools/verify_dice.py's words).
const SHOWN = {
  valid: "valid",
  invalid: "invalid",
  "not-yet-checkable": "pending",
  "signatures-not-checked": "unchecked",
};

function verdictOf(report, revealFailed) {
  if (revealFailed) return "invalid";
  return SHOWN[report.verdict] ?? "invalid";
}

const HEADLINES = {
  valid: "VALID: every signature holds and every die re-derives",
  invalid: "INVALID",
  pending: "NOT YET CHECKABLE: nothing wrong so far, but sealed rolls wait for the reveal",
  unchecked: "NOT CHECKED: the dice check out, but the signatures were NOT checked",
};

function render(report, notes, revealFailed, source, mine) {
  const { checked, carry, part, ...plain } = report;
  status.report = JSON.parse(JSON.stringify(plain));
  const verdict = verdictOf(report, revealFailed);
  status.verdict = verdict;
  const box = $("verdict");
  box.dataset.verdict = verdict;
  const lines = [element("p", { className: "big", text: HEADLINES[verdict] })];
  if (report.refused) {
    const { code, field, message } = report.refused;
    lines.push(
      element("p", { "data-code": code, className: "problem", text: `[${code}] ${field}: ${message}` }),
    );
  } else {
    // What is wrong, apart from sealed rolls that only wait for their reveal.
    const bad = report.entries.filter((e) => e.codes.some((code) => code !== SEALED_NOT_YET)).length;
    const logCodes = report.log ? report.log.codes.length : 0;
    let summary = gameSize(report);
    if (verdict === "pending") {
      summary += `; ${report.not_yet_checkable} sealed rolls not yet checkable: add the reveal answer once the seal's reveal time has passed`;
    } else if (verdict === "invalid") {
      summary += `; ${bad} with problems${report.log ? `, ${logCodes} problems with the log as a whole` : ""}`;
      if (report.not_yet_checkable) {
        summary += `; besides, ${report.not_yet_checkable} sealed rolls wait for the reveal`;
      }
    }
    if (source) summary += `; signatures checked against ${source}`;
    lines.push(element("p", { text: summary }));
    // What is wrong, at the top: each entry's problems, then the log's.
    const wrong = [];
    for (const entry of report.entries) {
      const document = checked.find((e) => e.index === entry.index).document;
      entry.codes.forEach((code) => {
        if (code === SEALED_NOT_YET) return;
        wrong.push(`${entryTitle(entry.index)} (${isDict(document) ? stepName(document) : "?"}): ${MEANING[code] ?? code}`);
      });
    }
    if (report.log) {
      report.log.codes.forEach((code, i) => {
        const at = entryAt(checked, report.log.problems[i]);
        wrong.push({ text: `${MEANING[code] ?? code} (${report.log.problems[i]})`, at });
      });
    }
    if (wrong.length && verdict === "invalid") {
      lines.push(element("ul", { className: "summary" }, ...wrong.slice(0, 8).map(summaryLine)));
      if (wrong.length > 8) lines.push(element("p", { text: `... and ${wrong.length - 8} more below` }));
    }
  }
  box.replaceChildren(...lines);
  $("notes").replaceChildren(...notes.map((text) => element("p", { className: "note", text })));
  renderLog(report, verdict);
  renderEntries(checked, mine);
}

function cardId(index) {
  return `card-${index + 1}`;
}

/** A line of the verdict's summary: a log problem links to the card of the entry it is at. */
function summaryLine(line) {
  if (typeof line === "string") return element("li", { text: line });
  if (line.at === null) return element("li", { text: line.text });
  return element("li", {}, element("a", { href: `#${cardId(line.at.index)}`, text: line.text }));
}

const LOG_WORDS = {
  chain_unbroken: "every entry points back to the one before it (prev)",
  starts_at_beginning: "the log starts at the beginning of the game",
  nonces_consecutive: "the roll numbers (nonces) count up by one",
  one_seed: "every roll comes from the game's one seed",
  one_ruleset: "every entry is of the game's one ruleset, read the same way",
};

function renderLog(report, verdict) {
  const log = report.log;
  const target = $("log-report");
  if (!log) {
    target.replaceChildren();
    return;
  }
  const checks = Object.entries(LOG_WORDS).map(([name, words]) =>
    element("li", { className: log[name] ? "ok" : "bad", "data-check": name, text: `${log[name] ? "yes" : "NO"}: ${words}` }),
  );
  if (log.supplied_entries) {
    checks.push(
      element("li", {
        className: log.accept_supplied ? "ok" : "bad",
        text: `${log.supplied_entries} entries with dice rolled at the table (${log.accept_supplied ? "accepted" : "not accepted"})`,
      }),
    );
  }
  const problems = log.codes.map((code, i) =>
    element(
      "li",
      { className: "problem", "data-code": code },
      element("strong", { text: MEANING[code] ?? code }),
      " ",
      element("span", { className: "words", text: `[${code}] ${log.problems[i]}` }),
    ),
  );
  const end = log.ends_with;
  const ends =
    `The log ends with ${entryName(end.index)} (receipt hash ${end.receipt_hash ?? "none"}, ` +
    `nonce ${end.nonce ?? "none"}): compare it with the last receipt each player holds; ` +
    "a log cut at its tail passes every other check.";
  const line =
    `Fire Control log, ${log.entries} entries: ${verdict.toUpperCase()}` +
    (log.codes.length ? ` [${log.codes.join(", ")}]` : "") +
    `; ends with receipt sha256 ${(end.receipt_hash ?? "none").slice(0, 16)}, nonce ${end.nonce ?? "none"}`;
  const parts = [
    element("h2", { text: "The log as a whole" }),
    element("ul", { className: "checks" }, ...checks),
    problems.length ? element("ul", { className: "problems", id: "log-problems" }, ...problems) : null,
    element("p", { className: "ends", text: ends }),
    forumBox(line, "log-line"),
  ];
  target.replaceChildren(...parts.filter((part) => part !== null));
}

function forumBox(line, id) {
  const field = element("input", { type: "text", readOnly: true, value: line, className: "forum" });
  if (id) field.id = id;
  const button = element("button", { type: "button", className: "copy", text: "Copy" });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = "Copied";
    } catch {
      field.select();
    }
  });
  return element("p", { className: "line" }, element("span", { text: "For a forum post: " }), field, button);
}

function dieFaces(values, derived) {
  const faces = Array.isArray(values) ? values : [];
  return element(
    "span",
    { className: "dice" },
    ...faces.map((face, i) =>
      element("span", {
        className: derived && derived[i] !== undefined && Number(derived[i]) !== Number(face) ? "die wrong" : "die",
        title: derived && derived[i] !== undefined ? `re-derived: ${derived[i]}` : "",
        text: String(face),
      }),
    ),
  );
}

function renderEntries(entries, mine) {
  const wanted = [];
  const items = entries.map((entry) => {
    const document = entry.document;
    const { kind, words } = state(entry);
    const codes = entry.codes();
    const problems = entry.asDict();
    const item = element("li", {
      className: `entry ${kind}${entry.logFound.length ? " fault" : ""}`,
      id: cardId(entry.index),
      "data-index": String(entry.index),
      "data-state": kind,
      "data-codes": problems.codes.join(" "),
    });
    const signature =
      entry.signatureValid === true ? "signature holds" : entry.signatureValid === null ? "signature not checked" : "signature FAILS";
    item.append(
      element(
        "h3",
        {},
        element("span", { className: "number", text: entryTitle(entry.index) }),
        " ",
        element("span", { className: "step", text: isDict(document) ? stepName(document) : "not an answer" }),
        " ",
        element("span", { className: "state", text: words }),
      ),
      element("p", { className: "facts", text: `${signature}; ${isDict(document) ? diceLine(document) : ""}` }),
    );
    if (problems.codes.length) {
      item.append(
        element(
          "ul",
          { className: "problems" },
          ...problems.codes.map((code, i) =>
            element(
              "li",
              { className: "problem", "data-code": code },
              element("strong", { text: MEANING[code] ?? code }),
              " ",
              element("span", { className: "words", text: `[${code}] ${problems.problems[i]}` }),
            ),
          ),
        ),
      );
    }
    if (entry.logFound.length) {
      // Where the log as a whole fails: on this entry's card, not only in the log's box.
      item.dataset.logCodes = entry.logFound.map(([code]) => code).join(" ");
      item.append(
        element(
          "ul",
          { className: "faults" },
          ...entry.logFound.map(([code, message]) =>
            element(
              "li",
              { className: "fault", "data-code": code },
              element("strong", { text: MEANING[code] ?? code }),
              " ",
              element("span", { className: "words", text: `[${code}] ${message}` }),
            ),
          ),
        ),
      );
    }
    if (isDict(document)) {
      const rolls = Array.isArray(document.rolls) ? document.rolls : [];
      if (rolls.length) {
        const list = element("ul", { className: "rolls" });
        rollLines(document).forEach((line, i) => {
          list.append(element("li", {}, dieFaces(rolls[i]?.values, entry.derived[i]), " ", line));
        });
        item.append(list);
      }
      const terms = termLines(document);
      if (terms.length) {
        item.append(element("ul", { className: "terms" }, ...terms.map((line) => element("li", { text: line }))));
      }
      const modifiers = modifierLines(document);
      if (modifiers.length) {
        const table = element("table", { className: "modifiers" });
        table.append(
          element(
            "tr",
            {},
            ...["roll", "with its modifiers", "compared with", "outcome"].map((h) => element("th", { text: h })),
          ),
        );
        for (const m of modifiers) {
          table.append(
            element("tr", {}, ...[m.roll, m.arithmetic, m.table, m.outcome].map((t) => element("td", { text: t }))),
          );
        }
        item.append(table);
      }
      const result = resultLine(document);
      if (result) item.append(element("p", { className: "result", text: `Result: ${result}` }));
    }
    const luckLine = element("p", { className: "luck", "data-luck": "none" });
    item.append(luckLine);
    const line = forumBox(isDict(document) ? forumLine(entry, null) : `${entryTitle(entry.index)}: not an answer`);
    item.append(line);
    const request = isDict(document) && !codes.includes("not-a-response") ? oddsRequest(document) : null;
    if (request !== null) {
      luckLine.dataset.luck = "pending";
      luckLine.textContent = "Luck: asking the service for this step's odds...";
      wanted.push({ entry, request, target: luckLine, forum: line.querySelector("input") });
    } else if (pinnedByDigest(document)) {
      luckLine.dataset.luck = "unavailable";
      luckLine.textContent = `Luck not available: ${PINNED_BY_DIGEST}.`;
    }
    return item;
  });
  $("entries").replaceChildren(...items);
  askLuck(wanted, mine);
}

// --- luck from /odds, when the service can be reached ----------------------------------------

// What the service answered, kept for the log on the page only: re-checking it (another key
// set, accept_supplied) asks nothing twice, and another log starts afresh.
let oddsCache = new Map();
const stepsCache = new Map(); // ruleset id -> its steps' /odds paths, or why they are unknown
let queue = Promise.resolve(); // one request at a time

function serially(ask) {
  const job = queue.then(ask);
  queue = job.catch(() => null);
  return job;
}

async function oddsPaths(ruleset) {
  if (!stepsCache.has(ruleset)) {
    const job = serially(async () => {
      const answer = await fetch(new URL(`./v1/rulesets/${ruleset}`, document.baseURI), {
        headers: { Accept: "application/json" },
        signal: AbortSignal.timeout(8000),
      });
      if (answer.status === 404) return new Map(); // no such ruleset: no step of it has /odds
      if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
      const steps = get(parse(await answer.text(), { unique: false }), "steps");
      return new Map(
        (Array.isArray(steps) ? steps : []).map((step) => [get(step, "path"), get(step, "odds_path")]),
      );
    });
    stepsCache.set(ruleset, job);
    job.catch(() => stepsCache.delete(ruleset)); // unreachable now: ask again on the next check
  }
  try {
    return await stepsCache.get(ruleset);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function fetchOdds(cache, key, request) {
  if (!cache.has(key)) {
    const job = oddsCache.get(key) ?? serially(async () => {
      const answer = await fetch(new URL(`.${request.path}`, document.baseURI), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: request.body,
        signal: AbortSignal.timeout(8000),
      });
      const body = await answer.text();
      return { status: answer.status, body };
    });
    cache.set(key, job);
    job.catch(() => cache.delete(key)); // unreachable now: ask again on the next check
  }
  return cache.get(key);
}

/** The luck of each entry that rolled dice: the rulesets' steps first (which have /odds),
 * then one request per distinct /odds request of a signed entry, at most MAX_ODDS_PER_LOG. */
async function askLuck(wanted, mine) {
  status.luckPending += 1;
  try {
    // Only signed entries' rulesets are asked about: one log keeps one ruleset.
    const rulesets = new Set(wanted.filter(({ entry }) => entry.signatureValid === true).map(({ request }) => request.ruleset));
    const known = new Map();
    for (const ruleset of rulesets) known.set(ruleset, await oddsPaths(ruleset));
    if (mine !== status.runs) return;
    const plan = planLuck(wanted, (request) => {
      const paths = known.get(request.ruleset);
      if (paths === undefined || paths instanceof Error) return paths;
      return paths.get(request.step) === request.path;
    });
    const note = leftOutNote(plan);
    if (note) $("notes").append(element("p", { className: "note", id: "luck-left-out", text: note }));
    const cache = new Map();
    plan.forEach((decision, i) => {
      const { entry, request, target, forum } = wanted[i];
      const show = (found) => showLuck(entry, target, forum, found);
      if (decision.kind === "no-odds") show({ available: false, why: "this step has no /odds" });
      else if (decision.kind === "unreachable") show(unreached(decision.error));
      else if (decision.kind === "left-out") show({ available: false, leftOut: decision.reason, why: decision.why });
      else scheduleLuck(entry, fetchOdds(cache, decision.key, request), show, mine);
    });
    oddsCache = cache;
  } finally {
    status.luckPending -= 1;
  }
}

function unreached(error) {
  return { available: false, why: `the service cannot be reached (${error.message})` };
}

function scheduleLuck(entry, asked, show, mine) {
  status.luckPending += 1;
  asked
    .then(({ status: code, body }) => {
      if (mine !== status.runs) return;
      let found;
      if (code === 200) {
        try {
          found = luck(entry.document, parse(body, { unique: false }));
        } catch {
          found = { available: false, why: "the odds answer cannot be read" };
        }
      } else if (code === 404 || code === 405) {
        found = { available: false, why: "this step has no /odds" };
      } else {
        let detail = "";
        try {
          detail = parse(body, { unique: false }).detail ?? "";
        } catch {
          detail = "";
        }
        found = { available: false, why: `the service does not work out these odds (${code}${detail ? `: ${detail}` : ""})` };
      }
      show(found);
    })
    .catch((error) => {
      if (mine === status.runs) show(unreached(error));
    })
    .finally(() => {
      status.luckPending -= 1;
    });
}

function showLuck(entry, target, forum, found) {
  if (found.available) {
    target.dataset.luck = "available";
    target.dataset.percentile = String(found.percentile);
    target.textContent = `Luck: ${found.words}.`;
  } else if (found.leftOut) {
    target.dataset.luck = "left-out";
    target.dataset.leftOut = found.leftOut;
    target.textContent = `Luck left out: ${found.why}.`;
  } else {
    target.dataset.luck = "unavailable";
    target.textContent = `Luck not available: ${found.why}.`;
  }
  forum.value = forumLine(entry, found);
}

// --- wiring ----------------------------------------------------------------------------------

// The companion page (/play) hands a game's log over in one tap: it leaves the log (and the
// reveal of a sealed game) under this key and opens /referee#from-play; read once, then gone.
const HANDOFF = "fire-control:referee-handoff";

function handedOver() {
  if (window.location.hash !== "#from-play") return false;
  let handed = null;
  try {
    handed = JSON.parse(window.localStorage.getItem(HANDOFF) ?? "null");
  } catch {
    handed = null;
  }
  window.localStorage.removeItem(HANDOFF);
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  if (!isDict(handed) || typeof handed.log !== "string") return false;
  $("log-text").value = handed.log;
  $("reveal-text").value = typeof handed.reveal === "string" ? handed.reveal : "";
  return true;
}

function init() {
  wireDrop($("log-drop"), "log");
  wireDrop($("reveal-drop"), "reveal");
  wireDrop($("keys"), "jwks");
  // A file dropped beside the zones must not replace the page.
  window.addEventListener("dragover", (event) => event.preventDefault());
  window.addEventListener("drop", (event) => event.preventDefault());
  $("log-file").addEventListener("change", (event) => {
    const files = [...event.target.files];
    if (files.length) take("log", files.length > 1 ? files : files[0]);
  });
  $("reveal-file").addEventListener("change", (event) => event.target.files[0] && take("reveal", event.target.files[0]));
  $("check").addEventListener("click", run);
  $("clear").addEventListener("click", () => {
    for (const id of ["log-text", "reveal-text", "log-file", "reveal-file"]) $(id).value = "";
    $("accept-supplied").checked = false;
    run();
  });
  for (const id of ["log-text", "reveal-text", "jwks-text"]) {
    $(id).addEventListener("change", () => {
      if (id === "jwks-text") document.querySelector('input[name=keys][value=pasted]').checked = true;
      run();
    });
  }
  for (const input of document.querySelectorAll("input[name=keys], #accept-supplied")) {
    input.addEventListener("change", run);
  }
  if (handedOver()) run();
  document.body.dataset.ready = "true";
}

init();
