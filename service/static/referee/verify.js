// The third verifier: what POST /v1/receipts/verify and tools/verify_dice.py check, with
// the same problem codes and the same words, run in the browser with WebCrypto (Ed25519,
// SHA-256, HMAC-SHA256). Port of tools/verify_dice.py; keep the three in step
// (tests/test_referee_page.py runs every fixture log through all three).

import {
  Duplicate,
  get,
  isDict,
  isInt,
  NoCanonicalForm,
  canonical,
  parse,
  pyDumps,
  pyEqual,
  pyStr,
} from "./json.js";
import { SEALED, SEEDED, SUPPLIED } from "./fixed.js";

export const ALGORITHM = "fc-dice-v1";
const NOTATION = /^([1-9]\d{0,6})d([1-9]\d{0,6})$/;
const DETACHED = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/;
export const MAX_SIDES = 1000;
export const MAX_DICE_PER_REQUEST = 1000;
const MAX_NONCE = 2 ** 53 - 1;
const MAX_SEED = 256;
export const MAX_LOG_ENTRIES = 100;
export const MAX_DOCUMENT_DICE = 10 * MAX_DICE_PER_REQUEST;
const MAX_ENTRY_PROBLEMS = 5;
const MAX_LOG_PROBLEMS = 20;
const MAX_ECHO = 60;
export const SEALED_NOT_YET = "sealed-not-yet-checkable";
export const REVEAL_MISMATCH = "reveal-mismatch";
// What a reveal whose seed does not hash to its commitment stands for among the revealed
// seeds: a reveal was passed for that commitment, so its rolls are wrong, not waiting.
const FORGED = Symbol("forged reveal");

const subtle = globalThis.crypto?.subtle;
const utf8 = new TextEncoder();

export function cryptoAvailable() {
  return Boolean(subtle);
}

// --- bytes ----------------------------------------------------------------------------------

export function unb64(text) {
  // base64url without padding, leniently as Python's urlsafe_b64decode reads it.
  if (text.length % 4 === 1) throw new Error("base64 text of a length no bytes have");
  const plain = text.replaceAll("-", "+").replaceAll("_", "/");
  const padded = plain + "=".repeat((4 - (plain.length % 4)) % 4);
  const binary = atob(padded);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function b64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

// base64url as the service writes it: unpadded, a length some bytes have, spare bits zero.
function canonicalB64url(text) {
  try {
    return b64url(unb64(text)) === text;
  } catch {
    return false;
  }
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join(
    "",
  );
}

export async function sha256Hex(text) {
  return hex(await subtle.digest("SHA-256", utf8.encode(text)));
}

// --- the dice (docs/dice.md) -----------------------------------------------------------------

/** The byte stream of fc-dice-v1: HMAC-SHA256(key=UTF-8(seed), "fc-dice-v1:<nonce>:<block>"). */
export class Stream {
  constructor(seed, nonce) {
    this.seed = seed;
    this.nonce = nonce;
    this.block = 0;
    this.bytes = new Uint8Array(0);
    this.at = 0;
    this.key = null;
  }

  async next() {
    if (this.at >= this.bytes.length) {
      this.key ??= await subtle.importKey(
        "raw",
        utf8.encode(this.seed),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const message = utf8.encode(`${ALGORITHM}:${this.nonce}:${this.block}`);
      this.bytes = new Uint8Array(await subtle.sign("HMAC", this.key, message));
      this.block += 1;
      this.at = 0;
    }
    const byte = this.bytes[this.at];
    this.at += 1;
    return byte;
  }
}

/** One die of `sides` sides: 1 or 2 bytes big-endian, rejection above the last whole
 * multiple of `sides` (no modulo bias). */
export async function die(stream, sides) {
  const width = sides <= 256 ? 1 : 2;
  const bound = 256 ** width;
  const limit = bound - (bound % sides);
  for (;;) {
    let number = 0;
    for (let i = 0; i < width; i += 1) number = number * 256 + (await stream.next());
    if (number < limit) return (number % sides) + 1;
  }
}

// --- keys and signatures ---------------------------------------------------------------------

/** kid -> CryptoKey, from a JWKS (what /.well-known/jwks.json serves). Throws on a key of
 * the set that cannot be imported, as the standalone verifier stops on one. */
export async function loadKeys(jwks) {
  const found = new Map();
  const keys = isDict(jwks) && Array.isArray(get(jwks, "keys")) ? jwks.keys : [];
  for (const key of keys) {
    if (!isDict(key)) continue;
    if (key.kty === "OKP" && key.crv === "Ed25519" && Object.hasOwn(key, "kid")) {
      const x = typeof key.x === "string" ? unb64(key.x) : null;
      if (x === null || x.length !== 32) throw new Error(`key ${pyDumps(key.kid)}: no Ed25519 x`);
      const imported = await subtle.importKey("raw", x, { name: "Ed25519" }, false, ["verify"]);
      if (typeof key.kid === "string") found.set(key.kid, imported);
    }
  }
  return found;
}

async function checkSignature(keys, document) {
  const receipt = get(document, "receipt");
  if (typeof receipt !== "string" || !DETACHED.test(receipt)) {
    return [false, "no-receipt", "no receipt: `receipt` must be a detached JWS (header..sig)"];
  }
  const [head, signature] = receipt.split("..");
  if (!canonicalB64url(head) || !canonicalB64url(signature)) {
    return [
      false,
      "receipt-not-canonical",
      "the receipt is not spelled as the service writes it (base64url with its spare " +
        "bits zero): another spelling of a receipt is another receipt",
    ];
  }
  let header = null;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(unb64(head));
    header = parse(text, { unique: false });
  } catch {
    header = null;
  }
  if (!isDict(header) || !pyEqual(get(header, "alg"), "Ed25519")) {
    return [false, "bad-header", "the receipt's header is not an Ed25519 JWS header"];
  }
  if (keys === null) return [null, null, null];
  const kid = get(header, "kid");
  const key = typeof kid === "string" ? keys.get(kid) : undefined;
  if (key === undefined) {
    const shown = pyDumps(kid).slice(0, 60);
    return [false, "unknown-key", `the receipt names a key this service does not know: ${shown}`];
  }
  let payload;
  try {
    const content = Object.create(null);
    for (const name of Object.keys(document)) {
      if (name !== "receipt") content[name] = document[name];
    }
    payload = b64url(canonical(content));
  } catch (error) {
    if (!(error instanceof NoCanonicalForm)) throw error;
    return [false, "no-canonical-form", `the document has no RFC 8785 form (${error.message})`];
  }
  let valid = false;
  try {
    valid = await subtle.verify(
      { name: "Ed25519" },
      key,
      unb64(signature),
      utf8.encode(`${head}.${payload}`),
    );
  } catch {
    valid = false;
  }
  if (!valid) return [false, "altered", "the signature does not match the document: it was altered"];
  const provenance = get(document, "provenance");
  if (!isDict(provenance) || !pyEqual(get(provenance, "kid"), kid)) {
    return [false, "provenance-kid", "the provenance names another key than the receipt"];
  }
  return [true, null, null];
}

// --- one entry -------------------------------------------------------------------------------

export function show(value) {
  const text = pyDumps(value);
  return text.length <= MAX_ECHO ? text : `${text.slice(0, MAX_ECHO - 3)}...`;
}

/** "entry N", counting from 1 as players and the cards do (the reports' `index` counts
 * from 0, as POST /v1/receipts/verify's does). */
export function entryName(index) {
  return `entry ${index + 1}`;
}

/** The entry a log problem is at: every log problem's text starts with the name of the
 * entry where the log fails ("entry 3's prev is not ..."); null for one that names none
 * ("... and 2 more"). */
export function entryAt(entries, message) {
  const match = /^entry (\d+)\b/.exec(message);
  if (match === null) return null;
  return entries.find((entry) => entry.index === Number(match[1]) - 1) ?? null;
}

function capped(found, limit) {
  if (found.length <= limit) return found;
  return [...found.slice(0, limit), ["more", `... and ${found.length - limit} more`]];
}

function count(value) {
  return typeof value === "number" && isInt(value) && value >= 0 && value <= MAX_NONCE
    ? value
    : null;
}

// A Salvo! turn answered result.pending.
export function leftPending(document) {
  return (
    isDict(get(document, "result", "pending")) &&
    pyEqual(get(document, "ruleset"), "salvo-solo") &&
    pyEqual(get(document, "step"), "turn")
  );
}

// What a pending turn's finishing request may differ in: its prev, the player's Action,
// the dice written out (fresh dice come back as pending.dice) and the readings' spelling;
// the members a request echoed by digest keeps as they were sent.
const PENDING_FREE = new Set(["prev", "player_action", "dice", "rules"]);

// The request members a response's provenance shows: its whole `body`, or under
// `Prefer: return=minimal` the members it kept as sent (`sent`) beside the digest of the
// rest (`rest_sha256`).
export function echoed(document) {
  const request = get(document, "provenance", "request");
  let body = get(request, "body");
  if (!isDict(body)) body = get(request, "sent");
  return isDict(body) ? body : null;
}

// The member `name` of the request a response answers, from either echo.
export function asked(document, name) {
  return get(echoed(document), name);
}

// What a turn asked apart from PENDING_FREE: the rest of its body, or that rest's digest
// when the request was echoed by digest (the two calls of one turn ask alike).
function question(answer) {
  const request = get(answer, "provenance", "request");
  const body = get(request, "body");
  const digest = get(request, "rest_sha256");
  if (isDict(body)) return ["body", withoutKeys(body, PENDING_FREE)];
  if (typeof digest === "string" && isDict(get(request, "sent"))) return ["rest_sha256", digest];
  return null;
}

function withoutKeys(value, names) {
  return Object.fromEntries(Object.entries(value).filter(([name]) => !names.has(name)));
}

function sameDice(before, after) {
  if (!isDict(before) || !isDict(after)) return false;
  const unsourced = new Set(["seed_source"]);
  return pyEqual(withoutKeys(before, unsourced), withoutKeys(after, unsourced));
}

// The second call of a Salvo! turn left pending: the same request plus player_action (prev,
// dice and rules aside), the same dice and readings in force in both answers, its rolls
// beginning with the pending answer's. One turn, not a replay.
export function finishesPendingTurn(before, document) {
  const turns = [before, document].every(
    (answer) =>
      isDict(answer) &&
      pyEqual(get(answer, "ruleset"), "salvo-solo") &&
      pyEqual(get(answer, "step"), "turn"),
  );
  if (!turns || !isDict(get(before, "result", "pending"))) return false;
  const questions = [before, document].map(question);
  if (questions.includes(null)) return false;
  const [asks, finished] = [before, document].map((answer) => echoed(answer) ?? {});
  if (Object.hasOwn(asks, "player_action") || !Object.hasOwn(finished, "player_action")) {
    return false;
  }
  const opening = get(before, "rolls");
  const rolls = get(document, "rolls");
  return (
    pyEqual(questions[0], questions[1]) &&
    pyEqual(get(before, "rules"), get(document, "rules")) &&
    sameDice(get(before, "dice"), get(document, "dice")) &&
    Array.isArray(opening) &&
    Array.isArray(rolls) &&
    pyEqual(rolls.slice(0, opening.length), opening)
  );
}

export function rolled(document) {
  const rolls = get(document, "rolls");
  return Array.isArray(rolls) && rolls.length > 0;
}

function declaredDice(document) {
  const rolls = get(document, "rolls");
  let total = 0;
  for (const roll of Array.isArray(rolls) ? rolls : []) {
    const notation = isDict(roll) ? get(roll, "notation") : null;
    const match = typeof notation === "string" ? NOTATION.exec(notation) : null;
    total += match ? Number(match[1]) : 0;
  }
  return total;
}

function documentLimit(documents) {
  if (documents.length > MAX_LOG_ENTRIES) {
    return (
      `a log to verify holds at most ${MAX_LOG_ENTRIES} entries, not ${documents.length}: ` +
      "verify a longer game in parts"
    );
  }
  const dice = documents.reduce((sum, document) => sum + declaredDice(document), 0);
  if (dice > MAX_DOCUMENT_DICE) {
    return (
      `a document to verify holds at most ${MAX_DOCUMENT_DICE} dice in all, not ${dice} ` +
      `(a request rolls at most ${MAX_DICE_PER_REQUEST} dice of 2 to ${MAX_SIDES} sides)`
    );
  }
  return null;
}

class Entry {
  constructor(index, document) {
    this.index = index;
    this.document = document;
    this.signatureValid = false;
    this.diceValid = null;
    this.receiptHash = null;
    this.found = [];
    this.rollsMatched = 0;
    this.derived = []; // the dice re-derived, roll by roll, to show beside the response's
    this.logFound = []; // [code, message] of the log's problems at this entry, for its card
  }

  /** How every text names this entry: counting from 1, as players do (`index` from 0). */
  get name() {
    return entryName(this.index);
  }

  add(code, message) {
    this.found.push([code, message]);
  }

  codes() {
    return this.found.map(([code]) => code);
  }

  asDict() {
    const found = capped(this.found, MAX_ENTRY_PROBLEMS);
    return {
      index: this.index,
      signature_valid: this.signatureValid,
      dice_valid: this.diceValid,
      receipt_hash: this.receiptHash,
      problems: found.map(([, message]) => message),
      codes: found.map(([code]) => code),
    };
  }
}

function readRolls(entry) {
  const rolls = get(entry.document, "rolls");
  if (!Array.isArray(rolls)) {
    entry.add("rolls-missing", "`rolls` is missing: there are no dice to re-derive");
    return null;
  }
  const read = [];
  for (const [index, roll] of rolls.entries()) {
    const notation = isDict(roll) ? get(roll, "notation") : null;
    const match = typeof notation === "string" ? NOTATION.exec(notation) : null;
    if (match === null) {
      entry.add("notation", `rolls[${index}]: cannot read the notation ${show(notation)}`);
      return null;
    }
    read.push([Number(match[1]), Number(match[2])]);
  }
  const dice = read.reduce((sum, [n]) => sum + n, 0);
  if (read.some(([, sides]) => sides < 2 || sides > MAX_SIDES) || dice > MAX_DICE_PER_REQUEST) {
    entry.add(
      "limit",
      `the rolls declare ${dice} dice, some of more than ${MAX_SIDES} sides or fewer ` +
        `than 2, past what the service rolls (${MAX_DICE_PER_REQUEST} dice a request, ` +
        `2 to ${MAX_SIDES} sides): no answer of this service`,
    );
    return null;
  }
  return read;
}

async function rederive(entry, stream, read) {
  const rolls = get(entry.document, "rolls");
  const before = entry.found.length;
  for (const [index, [n, sides]] of read.entries()) {
    const roll = rolls[index];
    const expected = [];
    for (let i = 0; i < n; i += 1) expected.push(await die(stream, sides));
    entry.derived.push(expected);
    const label = show(get(roll, "label"));
    if (!pyEqual(get(roll, "values"), expected)) {
      entry.add(
        "dice-mismatch",
        `rolls[${index}] (${label}): the response says ${show(get(roll, "values"))}, ` +
          `the seed and nonce give ${show(expected)}`,
      );
    } else if (!pyEqual(get(roll, "total"), expected.reduce((a, b) => a + b, 0))) {
      entry.add("total-mismatch", `rolls[${index}] (${label}): the total is not the sum`);
    }
  }
  entry.diceValid = entry.found.length === before;
  entry.rollsMatched = entry.diceValid ? read.length : 0;
}

function seedText(entry, value, what) {
  if (typeof value === "string" && value.isWellFormed()) {
    const length = [...value].length;
    if (length >= 1 && length <= MAX_SEED) return value;
  }
  entry.diceValid = false;
  entry.add(
    "bad-seed",
    `the ${what} is not 1 to ${MAX_SEED} characters of Unicode text (a lone surrogate ` +
      "escape has no UTF-8 form): no answer of this service",
  );
  return null;
}

async function checkDice(entry, revealed) {
  const dice = get(entry.document, "dice");
  if (dice === null && get(entry.document, "rolls") === null) return;
  const mode = isDict(dice) ? get(dice, "mode") : null;
  const nonce = isDict(dice) ? count(get(dice, "nonce")) : null;
  if (mode === SUPPLIED) {
    entry.add(
      "supplied-dice",
      "the player supplied these dice: they cannot be re-derived " +
        "(only seeded rolls and revealed sealed rolls can)",
    );
    return;
  }
  if ((mode !== SEEDED && mode !== SEALED) || nonce === null) {
    entry.diceValid = false;
    entry.add("no-dice", "`dice` names no seeded, sealed or supplied dice with a nonce");
    return;
  }
  const read = readRolls(entry);
  if (read === null) {
    entry.diceValid = false;
    return;
  }
  if (mode === SEEDED) {
    const seed = seedText(entry, get(dice, "seed"), "seed");
    if (seed !== null) await rederive(entry, new Stream(seed, nonce), read);
    return;
  }
  const clientSeed = seedText(entry, get(dice, "client_seed"), "client seed");
  if (clientSeed === null) return;
  const commitment = get(dice, "commitment");
  const serverSeed = typeof commitment === "string" ? revealed.get(commitment) : undefined;
  if (serverSeed === FORGED) {
    entry.diceValid = false;
    entry.add(
      REVEAL_MISMATCH,
      `sealed roll (commitment ${show(commitment)}): the reveal passed for it does not ` +
        "match (its seed does not hash to the commitment), so these dice cannot be " +
        "re-derived from it",
    );
    return;
  }
  if (serverSeed === undefined) {
    entry.add(
      SEALED_NOT_YET,
      `sealed roll (commitment ${show(commitment)}): pass the revealed seed ` +
        "(the saved answer of POST /v1/seeds/reveal) to re-derive it",
    );
    return;
  }
  entry.sealedSeed = `${serverSeed}:${clientSeed}`;
  await rederive(entry, new Stream(entry.sealedSeed, nonce), read);
}

async function checkEntry(index, document, keys, revealed) {
  const entry = new Entry(index, document);
  if (!isDict(document)) {
    entry.add("not-a-response", "not a response document (a JSON object)");
    return entry;
  }
  const receipt = get(document, "receipt");
  if (typeof receipt === "string" && receipt.isWellFormed()) {
    entry.receiptHash = await sha256Hex(receipt);
  }
  const [valid, code, message] = await checkSignature(keys, document);
  entry.signatureValid = valid;
  if (code) entry.add(code, message);
  await checkDice(entry, revealed);
  return entry;
}

// --- the log ---------------------------------------------------------------------------------

function seedOf(document) {
  const mode = get(document, "dice", "mode");
  if (mode === SEEDED) return `seed\u0000${pyStr(get(document, "dice", "seed"))}`;
  if (mode === SEALED) return `commitment\u0000${pyStr(get(document, "dice", "commitment"))}`;
  if (typeof get(document, "commitment") === "string") {
    return `commitment\u0000${document.commitment}`;
  }
  return null;
}

// The ruleset and readings in force of the game: its first entry's that names a ruleset.
function gameRules(entries) {
  const first = entries.find((e) => typeof get(e.document, "ruleset") === "string");
  return first === undefined ? null : [first.document.ruleset, get(first.document, "rules")];
}

function otherGame(found, what) {
  found.push([
    "checkpoint-other-game",
    `the entries ${what} than the checkpoint's game: the checkpoint is of another game`,
  ]);
}

// One game, one ruleset, one set of readings in force; a plain roll names none. After a
// checkpoint the game's are the checkpoint's. Answers [holds, the game's].
function oneRuleset(entries, found, start) {
  const own = gameRules(entries);
  const game = start !== null && start.game !== null ? start.game : own;
  let holds = true;
  if (own !== null && game !== null && !pyEqual(own, game)) {
    holds = false;
    otherGame(found, "name another ruleset or other readings");
  }
  for (const entry of game === null ? [] : entries) {
    const ruleset = get(entry.document, "ruleset");
    if (typeof ruleset !== "string") continue;
    if (ruleset !== game[0]) {
      holds = false;
      found.push([
        "ruleset-changed",
        `${entry.name} is of the ruleset ${show(ruleset)}, the game's is ` +
          `${show(game[0])}: one game is played under one ruleset`,
      ]);
    } else if (!pyEqual(get(entry.document, "rules"), game[1])) {
      holds = false;
      found.push([
        "readings-changed",
        `${entry.name} reads the rules otherwise than the game's first entry ` +
          `(its rules ${show(get(entry.document, "rules"))}): a reading is chosen once a game`,
      ]);
    }
  }
  return [holds, game];
}

/** The log's checks, continuing from `start` (a checkpoint's carry-over) when given, as if
 * the entries it vouches for came first; `carry` is what a checkpoint after them carries. */
function checkLog(entries, acceptSupplied, start = null, opening = []) {
  const found = [...opening];
  const flags = { chain: true, head: true, nonces: true, oneSeed: true };
  const prevOf = (entry) => asked(entry.document, "prev");
  const pairs = entries.slice(1).map((entry, i) => [entries[i], entry]);
  if (start !== null) {
    // the checkpoint's last entry comes before this part's first
    const before = new Entry(start.entries - 1, null);
    before.receiptHash = start.receiptHash;
    pairs.unshift([before, entries[0]]);
  } else if (prevOf(entries[0]) !== null) {
    flags.head = false;
    found.push([
      "cut-head",
      `${entries[0].name} carries a prev: the log does not start at the beginning of the game ` +
        "(its first entries are missing)",
    ]);
  }
  for (const [before, entry] of pairs) {
    const prev = prevOf(entry);
    if (prev === null) {
      flags.chain = false;
      found.push(["chain-restart", `${entry.name} carries no prev: the chain starts again`]);
    } else if (!pyEqual(prev, before.receiptHash)) {
      flags.chain = false;
      found.push([
        "chain-broken",
        `${entry.name}'s prev is not the hash of ${before.name}'s ` +
          "receipt: an entry was removed, inserted, reordered or replayed",
      ]);
    }
  }
  const [holdsRuleset, rules] = oneRuleset(entries, found, start);
  flags.oneRuleset = holdsRuleset;
  const first = entries.find(
    (e) =>
      (rolled(e.document) || typeof get(e.document, "commitment") === "string") &&
      seedOf(e.document) !== null,
  );
  const own = first === undefined ? null : seedOf(first.document);
  const game = start !== null && start.seed !== null ? start.seed : own;
  if (own !== null && own !== game) {
    flags.oneSeed = false;
    otherGame(found, "roll from another seed");
  }
  let clientSeed = start !== null ? start.clientSeed : null;
  let last = null;
  let pending = null; // the game's last roll, when it left a turn pending
  let supplied = 0;
  if (start !== null) {
    if (start.nonce !== null) last = [start.nonce, start.nonceShown];
    if (start.pending !== null) pending = new Entry(start.pending[0], start.pending[1]);
    supplied = start.supplied;
    if (supplied && !acceptSupplied) {
      found.push([
        "supplied-dice",
        `${supplied} entries before the checkpoint: the players supplied their ` +
          "dice, in a game the service rolls from one seed (a referee who accepts " +
          "table dice says accept_supplied)",
      ]);
    }
  }
  for (const entry of entries) {
    const document = entry.document;
    if (get(document, "dice", "mode") === SUPPLIED) {
      supplied += 1;
      if (!acceptSupplied) {
        found.push([
          "supplied-dice",
          `${entry.name}: the player supplied its dice, in a game the ` +
            "service rolls from one seed (a referee who accepts table dice says " +
            "accept_supplied)",
        ]);
      }
      continue;
    }
    const seed = seedOf(document);
    if (seed === null || get(document, "dice") === null) continue;
    if (seed !== game) {
      if (rolled(document)) {
        flags.oneSeed = false;
        found.push([
          "another-seed",
          `${entry.name} rolls from another ${seed.split("\u0000")[0]} than the game's ` +
            "first: a roll from another seed stands in for one of the game's",
        ]);
      }
      continue;
    }
    if (get(document, "dice", "mode") === SEALED) {
      if (clientSeed === null) {
        clientSeed = get(document, "dice", "client_seed");
      } else if (!pyEqual(get(document, "dice", "client_seed"), clientSeed)) {
        flags.oneSeed = false;
        found.push(["client-seed-changed", `${entry.name} changes the client seed`]);
      }
    }
    const nonce = count(get(document, "dice", "nonce"));
    if (nonce === null) continue;
    const didRoll = rolled(document);
    if (last === null && nonce > 1) {
      flags.head = false;
      found.push([
        "cut-head",
        `${entry.name}'s first roll has nonce ${nonce}: the log does not start ` +
          "at the beginning of the game (nonce 0 or 1 comes first)",
      ]);
    } else if (last !== null) {
      const [before, rolledBefore] = last;
      // a step that rolls nothing (advice on the pending turn) leaves it pending
      let oneTurn = false;
      if (pending !== null && didRoll) {
        oneTurn = finishesPendingTurn(pending.document, document);
        if (!oneTurn) {
          flags.nonces = false;
          found.push([
            "pending-unfinished",
            `${entry.name} does not finish the turn ${pending.name} left pending ` +
              "(the same request with player_action and the dice pending.dice names): that " +
              "turn was thrown away",
          ]);
        }
      }
      if (oneTurn) {
        // the second call of one turn: the pending call's dice and nonce
      } else if (nonce === before) {
        if (rolledBefore && didRoll) {
          flags.nonces = false;
          found.push(["nonce-repeat", `${entry.name} repeats nonce ${nonce}`]);
        }
      } else if (nonce < before) {
        flags.nonces = false;
        found.push(["nonce-back", `${entry.name} goes back from nonce ${before} to ${nonce}`]);
      } else if (nonce > before + 1) {
        flags.nonces = false;
        const missing =
          nonce === before + 2
            ? `nonce ${before + 1} is`
            : `nonces ${before + 1} to ${nonce - 1} are`;
        found.push(["nonce-gap", `${entry.name}: ${missing} missing before it`]);
      }
    }
    if (didRoll) pending = leftPending(document) ? entry : null;
    last = [nonce, didRoll || (last !== null && last[0] === nonce && last[1])];
  }
  for (const [code, message] of found) entryAt(entries, message)?.logFound.push([code, message]);
  const shown = capped(found, MAX_LOG_PROBLEMS);
  const final = entries[entries.length - 1];
  return {
    entries: entries.length,
    chain_unbroken: flags.chain,
    starts_at_beginning: flags.head,
    nonces_consecutive: flags.nonces,
    one_seed: flags.oneSeed,
    one_ruleset: flags.oneRuleset,
    supplied_entries: supplied,
    accept_supplied: acceptSupplied,
    ends_with: {
      index: final.index,
      receipt_hash: final.receiptHash,
      nonce: last === null ? null : last[0],
    },
    continues_from: null,
    problems: shown.map(([, message]) => message),
    codes: shown.map(([code]) => code),
    carry: {
      entries: final.index + 1,
      receiptHash: final.receiptHash,
      nonce: last === null ? null : last[0],
      nonceShown: last === null ? false : last[1],
      seed: game,
      clientSeed,
      game: rules,
      pending: pending === null ? null : [pending.index, pending.document],
      supplied,
    },
  };
}

// --- checkpoints -----------------------------------------------------------------------------

export const CHECKPOINT_FORMAT = "fc-checkpoint-v1";
const NOT_A_CHECKPOINT =
  "the checkpoint is not one this service gives: an object of `state` " +
  `(format ${CHECKPOINT_FORMAT}), \`provenance\` and \`receipt\`, as a verify answer's ` +
  "`checkpoint` holds it";

function index(value) {
  return count(value) !== null;
}

function sameMembers(document, names) {
  const own = Object.keys(document);
  return own.length === names.length && names.every((name) => Object.hasOwn(document, name));
}

/** The carry-over a checkpoint's `state` names, or null when it is not one. */
function carryOf(state) {
  if (!isDict(state) || !pyEqual(get(state, "format"), CHECKPOINT_FORMAT)) return null;
  const [entries, hashed, nonce] = [get(state, "entries"), get(state, "receipt_hash"), get(state, "nonce")];
  const [seed, game, pending] = [get(state, "seed"), get(state, "game"), get(state, "pending")];
  const [clientSeed, supplied] = [get(state, "client_seed"), get(state, "supplied_entries")];
  if (!(index(entries) && entries >= 1 && typeof hashed === "string" && /^[0-9a-f]{64}$/.test(hashed))) {
    return null;
  }
  if (!(nonce === null || index(nonce)) || typeof get(state, "nonce_shown") !== "boolean") return null;
  if (!(index(supplied) && (clientSeed === null || typeof clientSeed === "string"))) return null;
  let readSeed = null;
  if (isDict(seed) && get(seed, "mode") === SEEDED && typeof get(seed, "seed") === "string") {
    readSeed = `seed\u0000${seed.seed}`;
  } else if (isDict(seed) && get(seed, "mode") === SEALED && typeof get(seed, "commitment") === "string") {
    readSeed = `commitment\u0000${seed.commitment}`;
  } else if (seed !== null) {
    return null;
  }
  if (!(game === null || (isDict(game) && typeof get(game, "ruleset") === "string"))) return null;
  if (!(pending === null || (isDict(pending) && index(get(pending, "index")) && isDict(get(pending, "answer"))))) {
    return null;
  }
  return {
    entries,
    receiptHash: hashed,
    nonce,
    nonceShown: state.nonce_shown,
    seed: readSeed,
    clientSeed,
    game: game === null ? null : [game.ruleset, get(game, "rules")],
    pending: pending === null ? null : [pending.index, pending.answer],
    supplied,
  };
}

/** [carry-over, the log's `continues_from`, problems] of a checkpoint document. */
async function readCheckpoint(keys, document) {
  const found = [];
  let carry = null;
  let signed = false;
  if (isDict(document) && sameMembers(document, ["state", "provenance", "receipt"])) {
    const [valid, , message] = await checkSignature(keys, document);
    signed = valid;
    if (valid === false) {
      found.push([
        "checkpoint-altered",
        `the checkpoint's signature does not hold (${message}): it was altered, ` +
          "or this service did not make it",
      ]);
    }
    carry = carryOf(get(document, "state"));
  }
  if (carry === null) found.push(["checkpoint-unknown", NOT_A_CHECKPOINT]);
  const continues = {
    entries: carry ? carry.entries : null,
    receipt_hash: carry ? carry.receiptHash : null,
    signature_valid: signed,
  };
  return [carry, continues, found];
}

// The verdicts, as tools/verify_dice.py names them (the page has no dice-only check).
export const VALID = "valid";
export const INVALID = "invalid";
export const NOT_YET = "not-yet-checkable";
export const UNSIGNED = "signatures-not-checked";

function verdictOf(holds, waiting, keysGiven) {
  if (!holds) return INVALID;
  if (!keysGiven) return UNSIGNED;
  return waiting ? NOT_YET : VALID;
}

const LOG_CHECKS = [
  "chain_unbroken",
  "starts_at_beginning",
  "nonces_consecutive",
  "one_seed",
  "one_ruleset",
];

function refused(code, field, message) {
  return {
    valid: false,
    verdict: INVALID,
    not_yet_checkable: 0,
    entries: [],
    log: null,
    signatures_checked: false,
    refused: { code, field, message },
    checked: [],
    carry: null,
  };
}

/** The verdict, shaped as `tools/verify_dice.py --json` prints it; `checked` holds each
 * entry's working (the re-derived dice) for the page to explain. `keys` null: signatures
 * are not checked (and the verdict says so). */
export async function check(document, keys, revealed, acceptSupplied, carried = null) {
  let documents;
  let isLog;
  let [start, continues, opening] = [carried, null, []];
  if (carried !== null) {
    continues = { entries: carried.entries, receipt_hash: carried.receiptHash, signature_valid: true };
  }
  if (isDict(document) && sameMembers(document, ["checkpoint", "entries"])) {
    const checkpoint = document.checkpoint;
    document = document.entries;
    if (!isDict(checkpoint) || !Array.isArray(document)) {
      document = null;
    } else {
      [start, continues, opening] = await readCheckpoint(keys, checkpoint);
    }
  }
  if (isDict(document)) {
    [documents, isLog] = [[document], start !== null];
  } else if (Array.isArray(document) && document.length && document.every(isDict)) {
    [documents, isLog] = [document, true];
  } else {
    return refused("validation", "(body)", "Must be an object or a list of objects.");
  }
  const limit = documentLimit(documents);
  if (limit !== null) return refused("limit", "(body)", limit);
  const entries = [];
  const offset = start !== null ? start.entries : 0;
  for (const [i, item] of documents.entries()) {
    entries.push(await checkEntry(offset + i, item, keys, revealed ?? new Map()));
  }
  const log = isLog ? checkLog(entries, acceptSupplied, start, opening) : null;
  const carry = log === null ? null : log.carry;
  if (log !== null) {
    delete log.carry;
    log.continues_from = continues;
  }
  let holds = entries.every((e) => e.signatureValid !== false && e.diceValid !== false);
  if (log !== null) {
    holds =
      holds &&
      LOG_CHECKS.every((name) => log[name]) &&
      (acceptSupplied || log.supplied_entries === 0) &&
      opening.length === 0;
  }
  const waiting = entries.filter((e) => e.codes().includes(SEALED_NOT_YET)).length;
  const verdict = verdictOf(holds, waiting, keys !== null);
  return {
    valid: verdict === VALID,
    verdict,
    not_yet_checkable: waiting,
    entries: entries.map((e) => e.asDict()),
    log,
    signatures_checked: keys !== null,
    refused: null,
    checked: entries,
    carry: verdict === VALID || verdict === UNSIGNED ? carry : null,
  };
}

/** Parts of one game checked in order, each continuing from the one before, as the
 * standalone verifier's --part does: the last part's verdict, or the first that does not
 * hold (and which part it is). */
export async function checkParts(parts, keys, revealed, acceptSupplied) {
  let report = null;
  let entries = 0; // of the game: every part checked so far, not the last alone
  for (const [i, part] of parts.entries()) {
    if (report !== null && report.carry === null) {
      report.part = { number: i, of: parts.length, held: false, entries };
      return report;
    }
    report = await check(part, keys, revealed, acceptSupplied, report === null ? null : report.carry);
    entries += report.entries?.length ?? 0;
  }
  report.part = { number: parts.length, of: parts.length, held: true, entries };
  return report;
}

/** Read a document: the parsed value, or a refused verdict for a member named twice. */
export function read(text) {
  try {
    return { document: parse(text) };
  } catch (error) {
    if (error instanceof Duplicate) {
      return { verdict: refused("duplicate-member", error.field, error.message) };
    }
    throw error;
  }
}

/** Commitment -> server seed from saved reveal answers, each checked against its hash. */
export async function revealedSeeds(documents) {
  const seeds = new Map();
  const problems = [];
  for (const document of documents) {
    const seed = get(document, "seed");
    const commitment = get(document, "commitment");
    if (typeof seed !== "string" || !seed.isWellFormed()) {
      problems.push(`a revealed seed is not text: ${show(seed)}`);
    } else if ((await sha256Hex(seed)) !== commitment) {
      problems.push(`the revealed seed does not hash to its commitment ${pyStr(commitment)}`);
      if (typeof commitment === "string" && !seeds.has(commitment)) seeds.set(commitment, FORGED);
    } else {
      seeds.set(commitment, seed);
    }
  }
  return { seeds, problems };
}
