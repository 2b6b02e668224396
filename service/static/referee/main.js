// The page: read what the referee drops or pastes, check it in the browser, show it.

import { NotJSON, parse, Duplicate, isDict } from "./json.js";
import { SEALED_NOT_YET, check, cryptoAvailable, loadKeys, read, revealedSeeds } from "./verify.js";
import {
  MEANING,
  diceLine,
  forumLine,
  luck,
  modifierLines,
  oddsRequest,
  resultLine,
  rollLines,
  state,
  stepName,
} from "./explain.js";

const $ = (id) => document.getElementById(id);
const status = { runs: 0, done: 0, report: null, verdict: "none", luckPending: 0, error: null };
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

async function take(target, file, text) {
  const box = $(`${target}-text`);
  try {
    box.value = file ? await readFile(file) : text;
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
    const file = event.dataTransfer.files[0];
    take(target, file ?? null, file ? null : event.dataTransfer.getData("text"));
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
  const report = parsed.verdict ?? (await check(parsed.document, keys, revealed.seeds, acceptSupplied));
  report.signatures_checked = keys !== null; // as the standalone verifier says, refused or not
  if (revealed.problems.length) Object.assign(report, { valid: false, verdict: "invalid" });
  if (mine !== status.runs) return;
  const notes = [...(note ? [note] : []), ...revealed.problems];
  render(report, notes, revealed.problems.length > 0, source, mine);
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
  const { checked, ...plain } = report;
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
    const bad = report.entries.filter((e) => e.codes.length).length;
    const logCodes = report.log ? report.log.codes.length : 0;
    let summary = `${report.entries.length} ${report.entries.length === 1 ? "entry" : "entries"}`;
    if (verdict === "pending") {
      summary += `; ${report.not_yet_checkable} sealed rolls not yet checkable: add the reveal answer once the seal's reveal time has passed`;
    } else if (verdict === "invalid") {
      summary += `; ${bad} with problems${report.log ? `, ${logCodes} problems with the log as a whole` : ""}`;
    }
    if (source) summary += `; signatures checked against ${source}`;
    lines.push(element("p", { text: summary }));
    // What is wrong, at the top: each entry's problems, then the log's.
    const wrong = [];
    for (const entry of report.entries) {
      const document = checked[entry.index].document;
      entry.codes.forEach((code) => {
        if (code === SEALED_NOT_YET) return;
        wrong.push(`Entry ${entry.index + 1} (${isDict(document) ? stepName(document) : "?"}): ${MEANING[code] ?? code}`);
      });
    }
    if (report.log) {
      report.log.codes.forEach((code, i) => wrong.push(`${MEANING[code] ?? code} (${report.log.problems[i]})`));
    }
    if (wrong.length && verdict === "invalid") {
      lines.push(element("ul", { className: "summary" }, ...wrong.slice(0, 8).map((text) => element("li", { text }))));
      if (wrong.length > 8) lines.push(element("p", { text: `... and ${wrong.length - 8} more below` }));
    }
  }
  box.replaceChildren(...lines);
  $("notes").replaceChildren(...notes.map((text) => element("p", { className: "note", text })));
  renderLog(report, verdict);
  renderEntries(checked, mine);
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
    `The log ends with entry ${end.index + 1} (receipt hash ${end.receipt_hash ?? "none"}, ` +
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
  const items = entries.map((entry) => {
    const document = entry.document;
    const { kind, words } = state(entry);
    const codes = entry.codes();
    const problems = entry.asDict();
    const item = element("li", {
      className: `entry ${kind}`,
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
        element("span", { className: "number", text: `Entry ${entry.index + 1}` }),
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
    if (isDict(document)) {
      const rolls = Array.isArray(document.rolls) ? document.rolls : [];
      if (rolls.length) {
        const list = element("ul", { className: "rolls" });
        rollLines(document).forEach((line, i) => {
          list.append(element("li", {}, dieFaces(rolls[i]?.values, entry.derived[i]), " ", line));
        });
        item.append(list);
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
    const line = forumBox(isDict(document) ? forumLine(entry, null) : `Entry ${entry.index + 1}: not an answer`);
    item.append(line);
    if (isDict(document) && !codes.includes("not-a-response")) {
      scheduleLuck(entry, luckLine, line.querySelector("input"), mine);
    }
    return item;
  });
  $("entries").replaceChildren(...items);
}

// --- luck from /odds, when the service can be reached ----------------------------------------

const oddsCache = new Map();
let queue = Promise.resolve();

function fetchOdds(request) {
  const key = `${request.path}\n${request.body}`;
  if (!oddsCache.has(key)) {
    const job = queue.then(async () => {
      const answer = await fetch(new URL(`.${request.path}`, document.baseURI), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: request.body,
        signal: AbortSignal.timeout(8000),
      });
      const body = await answer.text();
      return { status: answer.status, body };
    });
    queue = job.catch(() => null);
    oddsCache.set(key, job);
    job.catch(() => oddsCache.delete(key)); // unreachable now: ask again on the next check
  }
  return oddsCache.get(key);
}

function scheduleLuck(entry, target, forum, mine) {
  const request = oddsRequest(entry.document);
  if (request === null) {
    target.dataset.luck = "none";
    target.textContent = "";
    return;
  }
  target.dataset.luck = "pending";
  target.textContent = "Luck: asking the service for this step's odds...";
  status.luckPending += 1;
  fetchOdds(request)
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
      if (mine === status.runs) show({ available: false, why: `the service cannot be reached (${error.message})` });
    })
    .finally(() => {
      status.luckPending -= 1;
    });

  function show(found) {
    target.dataset.luck = found.available ? "available" : "unavailable";
    if (found.available) target.dataset.percentile = String(found.percentile);
    target.textContent = found.available ? `Luck: ${found.words}.` : `Luck not available: ${found.why}.`;
    forum.value = forumLine(entry, found);
  }
}

// --- wiring ----------------------------------------------------------------------------------

function init() {
  wireDrop($("log-drop"), "log");
  wireDrop($("reveal-drop"), "reveal");
  wireDrop($("keys"), "jwks");
  // A file dropped beside the zones must not replace the page.
  window.addEventListener("dragover", (event) => event.preventDefault());
  window.addEventListener("drop", (event) => event.preventDefault());
  $("log-file").addEventListener("change", (event) => event.target.files[0] && take("log", event.target.files[0]));
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
  document.body.dataset.ready = "true";
}

init();
