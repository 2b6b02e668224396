// Each entry as a player reads it: the step, each die, each modifier with its source, the
// table row, the outcome, how lucky the roll was, and a line to paste into a forum post.

import { SEALED, SEEDED, SUPPLIED } from "./fixed.js";
import { get, isDict, pyEqual } from "./json.js";
import { REVEAL_MISMATCH, SEALED_NOT_YET, entryName } from "./verify.js";

/** What each problem code means, in a player's words (the verifier's own words follow). */
export const MEANING = {
  "no-receipt": "This answer carries no signature.",
  "bad-header": "The signature is not one this service makes.",
  "unknown-key": "The signature names a key the key set does not hold.",
  "no-canonical-form": "The answer holds a value no signature can cover.",
  "receipt-not-canonical": "The signature is spelled otherwise than the service writes it.",
  altered: "The answer was changed after the service signed it.",
  "provenance-kid": "The answer names another key than its signature.",
  "rolls-missing": "The answer lists no dice.",
  notation: "A roll's dice cannot be read.",
  limit: "The answer declares more dice than the service ever rolls.",
  "bad-seed": "The seed is not text the service rolls from.",
  "no-dice": "The answer does not say how its dice were rolled.",
  "dice-mismatch": "The dice shown are not the dice the seed and nonce give.",
  "total-mismatch": "A roll's total is not the sum of its dice.",
  "supplied-dice": "The players rolled these dice at the table: the service only signed them.",
  "sealed-token": "The sealed seed of this roll cannot be read.",
  "sealed-commitment": "The sealed seed does not match its commitment.",
  [SEALED_NOT_YET]: "Sealed roll: add the reveal answer to check these dice.",
  [REVEAL_MISMATCH]: "The reveal added for this sealed roll is not the seed it committed to.",
  "cut-head": "The log does not start at the beginning of the game.",
  "checkpoint-altered": "The checkpoint this part continues from was altered, or is not this service's.",
  "checkpoint-unknown": "What this part continues from is not a checkpoint of this service.",
  "checkpoint-other-game": "This part is of another game than its checkpoint.",
  "chain-restart": "An entry does not point back to the one before it.",
  "chain-broken":
    "An entry does not follow the one before it: one was removed, inserted, moved or repeated.",
  "nonce-repeat": "A roll number is used twice: a roll was made again.",
  "nonce-back": "The roll numbers go backwards.",
  "nonce-gap": "A roll number is missing: a roll was made and left out.",
  "pending-unfinished": "A turn was asked, its enemy's Action seen, and never finished.",
  "another-seed": "A roll comes from another seed than the game's.",
  "client-seed-changed": "The players' half of the sealed seed changes mid-game.",
  "ruleset-changed": "An entry is of another ruleset than the game's.",
  "readings-changed": "An entry reads the rules another way than the game does.",
  more: "More problems than are listed.",
};

/** "Entry N" at the head of a card or a line: the verifiers' own numbering, from 1. */
export function entryTitle(index) {
  const name = entryName(index);
  return name[0].toUpperCase() + name.slice(1);
}

function text(value) {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(text).join(", ");
  if (isDict(value)) {
    return Object.keys(value)
      .map((name) => `${name} ${text(value[name])}`)
      .join(", ");
  }
  return String(value);
}

function signed(value) {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? `+${number}` : text(value);
}

export function stepName(document) {
  if (typeof get(document, "commitment") === "string" && get(document, "rolls") === null) {
    return "sealed seed";
  }
  const ruleset = get(document, "ruleset");
  const step = get(document, "step");
  return [ruleset ?? "dice", step ?? "?"].map(text).join("/");
}

/** The entry's state, in the standalone verifier's words. */
export function state(entry) {
  const codes = entry.codes();
  const document = entry.document;
  if (isDict(document) && typeof get(document, "commitment") === "string" && get(document, "rolls") === null) {
    return { kind: entry.signatureValid === false ? "bad" : "seal", words: "sealed seed" };
  }
  if (entry.signatureValid === false || entry.diceValid === false) {
    return { kind: "bad", words: "MISMATCH" };
  }
  if (entry.logFound.length) return { kind: "fault", words: "the log fails here" };
  if (codes.includes(SEALED_NOT_YET)) return { kind: "pending", words: "not yet checkable" };
  if (codes.includes("supplied-dice")) return { kind: "supplied", words: "supplied dice, signed as supplied" };
  return { kind: "ok", words: `ok, ${entry.rollsMatched} rolls match` };
}

/** The rolls: [{label, notation, values, total}], each as a sentence. */
export function rollLines(document) {
  const rolls = get(document, "rolls");
  return (Array.isArray(rolls) ? rolls : []).map((roll) => {
    const values = get(roll, "values");
    const faces = Array.isArray(values) ? values.map(text).join(" + ") : text(values);
    return `${text(get(roll, "label"))}: ${text(get(roll, "notation"))} shows ${faces} = ${text(get(roll, "total"))}`;
  });
}

const CAUSE_WORDS = {
  reroll: "reroll of die",
  explosion: "explosion of die",
  unique: "unique reroll of die",
};
const SUCCESS_WORDS = { success: "a success", failure: "a failure", neither: "neither success nor failure" };
const CRITICAL_WORDS = {
  success: "a critical success",
  failure: "a critical failure",
  both: "a critical success and failure",
};

/** One die of a rich roll in words: why it was drawn, its face, what it counts, its fate
 * (the companion's dice say each die so too). */
export function dieWords(die) {
  const parts = [`die ${text(get(die, "die"))}`];
  const cause = CAUSE_WORDS[get(die, "cause")];
  if (cause !== undefined) parts[0] += ` (${cause} ${text(get(die, "of"))})`;
  parts[0] += ` shows ${text(get(die, "face"))}`;
  if (get(die, "value") !== get(die, "face")) parts[0] += `, counts ${text(get(die, "value"))}`;
  parts.push(text(get(die, "fate")));
  if (get(die, "exploded") === true) {
    parts.push(get(die, "penetrated") === true ? "exploded, penetrating" : "exploded");
  }
  const success = SUCCESS_WORDS[get(die, "success")];
  if (success !== undefined) parts.push(success);
  const critical = CRITICAL_WORDS[get(die, "critical")];
  if (critical !== undefined) parts.push(critical);
  return parts.join(", ");
}

/** A roll in dice notation, term by term: every die of a term with modifiers (which were
 * kept, dropped, rerolled, compounded, which exploded or penetrated, which were successes
 * or critical) and what the term adds. Plain terms (NdS alone) say nothing more than their roll. */
export function termLines(document) {
  if (get(document, "ruleset") !== null || get(document, "step") !== "roll") return [];
  const terms = get(document, "result", "terms");
  return (Array.isArray(terms) ? terms : [])
    .filter((term) => Array.isArray(get(term, "dice")))
    .map((term) => {
      const adds =
        get(term, "counts") === "successes"
          ? `${text(get(term, "total"))} successes less failures`
          : `kept dice sum to ${text(get(term, "total"))}`;
      const sign = get(term, "sign") === -1 ? ", taken away" : "";
      return `${text(get(term, "notation"))}: ${get(term, "dice").map(dieWords).join("; ")}; ${adds}${sign}`;
    });
}

/** The modifiers: natural, each modifier with its source, final, the table row, outcome. */
export function modifierLines(document) {
  const modifiers = get(document, "modifiers");
  return (Array.isArray(modifiers) ? modifiers : []).map((modifier) => {
    const applied = get(modifier, "applied");
    const parts = (Array.isArray(applied) ? applied : []).map(
      (item) => `${signed(get(item, "value"))} ${text(get(item, "source"))}`,
    );
    const arithmetic = parts.length
      ? `${text(get(modifier, "natural"))} ${parts.join(" ")} = ${text(get(modifier, "final"))}`
      : `${text(get(modifier, "final"))}, no modifier`;
    return {
      roll: text(get(modifier, "roll")),
      arithmetic,
      table: text(get(modifier, "compared_with")),
      outcome: text(get(modifier, "outcome")),
    };
  });
}

// --- results in words -------------------------------------------------------------------------

const HIT_KINDS = [
  ["F", "flotation"],
  ["T", "turret"],
  ["S", "speed"],
];

function counted(count, name) {
  return `${count} ${count === 1 && name.endsWith("s") ? name.slice(0, -1) : name}`;
}

/** A Salvo! hits string ("FFT") as counts: "2 flotation hits, 1 turret hit". */
export function hitWords(letters) {
  const said = HIT_KINDS.map(([code, kind]) => [[...letters].filter((l) => l === code).length, kind])
    .filter(([count]) => count > 0)
    .map(([count, kind]) => counted(count, `${kind} hits`));
  return said.length ? said.join(", ") : "no hits";
}

const named = (name) => name.replaceAll("_", " ").replaceAll("-", " ");
const SAID_ALONE = new Set(["outcome", "name"]); // a table's own word: "NE", "Turret"

/** Any result in words: true flags by name (false ones left out), numbers and words with
 * their names, lists counted, a hits string as counts, nested objects in parentheses. */
export function resultWords(result) {
  if (!isDict(result)) return result === null ? "" : text(result);
  const parts = [];
  for (const [name, value] of Object.entries(result)) {
    if (value === null || value === false) continue;
    if (value === true) parts.push(named(name));
    else if (name === "hits" && typeof value === "string" && /^[FTS]*$/.test(value)) parts.push(hitWords(value));
    else if (typeof value === "string" && SAID_ALONE.has(name)) parts.push(value);
    else if (Array.isArray(value)) parts.push(counted(value.length, named(name)));
    else if (isDict(value)) {
      const inner = resultWords(value);
      if (inner) parts.push(`${named(name)} (${inner})`);
    } else parts.push(`${named(name)} ${text(value)}`);
  }
  return parts.join(", ");
}

function attackWords(result) {
  const shots = Array.isArray(get(result, "shots")) ? result.shots : [];
  const hits = shots.map((shot) => get(shot, "hits")).filter((h) => typeof h === "string").join("");
  const lost = shots.some((shot) => get(shot, "special_damage", "fire_control_lost") === true);
  const target = text(get(result, "target", "name"));
  return [
    `${counted(shots.length, "shots")}, ${get(result, "straddled") === true ? "straddled" : "no straddle"}`,
    hitWords(hits) + (lost ? ", fire control lost" : ""),
    `${target} ${get(result, "target_sunk") === true ? "sunk" : "not sunk"}`,
  ].join("; ");
}

/** The steps whose results say more in words of their own than in the generic ones. */
const STEP_WORDS = {
  "null/roll": (result) => `${text(get(result, "notation"))} totals ${text(get(result, "total"))}`,
  "salvo-solo/initiative": (result) => `${text(get(result, "first"))} acts first`,
  "salvo-solo/fire": (result) => {
    const { straddle, ...rest } = result;
    return [straddle === true ? "straddle" : "miss", resultWords(rest)].filter(Boolean).join(", ");
  },
  "salvo-solo/end-of-turn": (result) =>
    get(result, "game_over") === true ? "game over" : "the game goes on",
  "salvo-solo/attack": attackWords,
  "salvo-solo/turn": (result) => {
    const events = get(result, "events");
    const said = [counted(Array.isArray(events) ? events.length : 0, "events")];
    const pending = get(result, "pending");
    if (isDict(pending)) {
      const enemy = get(pending, "enemy_action");
      said.push(
        enemy === null || enemy === undefined
          ? "waits for the player's Action (the player has the initiative)"
          : `waits for the player's Action (the enemy's is ${text(enemy)})`,
      );
    }
    return said.join("; ");
  },
};

/** The entry's result in words, for its card and its forum line. */
export function resultLine(document) {
  const result = get(document, "result");
  const words = STEP_WORDS[`${get(document, "ruleset")}/${get(document, "step")}`];
  if (words !== undefined && isDict(result)) return words(result);
  return resultWords(result);
}

export function diceLine(document) {
  const dice = get(document, "dice");
  const mode = get(dice, "mode");
  if (mode === SEEDED) return `seed ${text(get(dice, "seed"))}, nonce ${text(get(dice, "nonce"))}`;
  if (mode === SEALED) {
    return (
      `sealed seed ${text(get(dice, "commitment")).slice(0, 12)}..., client seed ` +
      `${text(get(dice, "client_seed"))}, nonce ${text(get(dice, "nonce"))}`
    );
  }
  if (mode === SUPPLIED) return "dice supplied by the player";
  if (typeof get(document, "commitment") === "string") {
    return `commitment ${get(document, "commitment")}, reveal after ${text(get(document, "reveal_after"))}`;
  }
  return "no dice";
}

// --- luck -------------------------------------------------------------------------------------

const ODDS_PATH = /^\/v1\/rulesets\/([a-z0-9-]+)\/[a-z0-9-]+$/;
const utf8 = new TextEncoder();

/** At most this many /odds requests for one log; entries that ask the same share one. A
 * Salvo! game played step by step asks one a roll (initiative, the enemy's Action, each
 * shot's fire and straddle, special damage, end of turn: about a dozen a turn). Played by
 * the advisor bench's three fixed players, 1,500 seeded games each, 99 in 100 of each
 * player's games rolled at most 81 times (weather and range included) and 997 in 1,000 of
 * all at most 90. A salvo-grid battle's steps have no /odds. The page checks logs of at
 * most 100 entries (MAX_LOG_ENTRIES), so a longer game comes in parts anyway. */
export const MAX_ODDS_PER_LOG = 90;
/** The service's request body limit: it refuses a larger /odds request (413) unread. */
export const MAX_ODDS_BODY_BYTES = 64 * 1024;

/** The /odds request of an entry, or null when its step has none to ask: the step's own path
 * (`step`), its ruleset, and the /odds `path` and `body`. */
export function oddsRequest(document) {
  const path = get(document, "provenance", "request", "path");
  const body = get(document, "provenance", "request", "body");
  const match = typeof path === "string" ? ODDS_PATH.exec(path) : null;
  if (match === null || !isDict(body)) return null;
  const rolls = get(document, "rolls");
  if (!Array.isArray(rolls) || rolls.length === 0) return null;
  const inputs = {};
  for (const name of Object.keys(body)) {
    if (name !== "dice" && name !== "prev") inputs[name] = body[name];
  }
  const rules = get(document, "rules"); // the signed readings in force, defaults included
  if (isDict(rules)) inputs.rules = rules;
  return { step: path, ruleset: match[1], path: `${path}/odds`, body: JSON.stringify(inputs) };
}

/** Whether an entry that rolled dice pins its request by digest (asked with `Prefer:
 * return=minimal`): its inputs are not in the log, so the page cannot ask their odds. */
export function pinnedByDigest(document) {
  const request = get(document, "provenance", "request");
  const rolls = get(document, "rolls");
  return (
    isDict(request) &&
    !isDict(get(request, "body")) &&
    typeof get(request, "rest_sha256") === "string" &&
    Array.isArray(rolls) &&
    rolls.length > 0
  );
}

export const PINNED_BY_DIGEST =
  "the answer pins its request by digest (asked with Prefer: return=minimal), so the log " +
  "does not hold the inputs whose odds the page would ask";

function unsigned(entry) {
  if (entry.codes().includes("no-receipt")) return "this entry carries no signature";
  if (entry.signatureValid === null) return "this entry's signature was not checked";
  return "this entry's signature does not hold";
}

/** Which entries' odds to ask, once per distinct request, and why the others are left out.
 * `wanted` is [{entry, request}] in log order (request from oddsRequest); `hasOdds(request)`
 * says whether the service gives the step an /odds: true, false, an Error (its ruleset could
 * not be read) or undefined (not asked). Each entry gets {kind: "ask", key}, "no-odds",
 * "unreachable" (with `error`) or "left-out" (with `reason` and `why`). Only an entry
 * whose signature holds is asked: a service answered and signed that very request; the
 * request of any other entry is whatever its author wrote, of any size and cost. */
export function planLuck(wanted, hasOdds) {
  const asked = new Set();
  return wanted.map(({ entry, request }) => {
    const odds = hasOdds(request);
    if (odds === false) return { kind: "no-odds" };
    if (entry.signatureValid !== true) {
      return {
        kind: "left-out",
        reason: "unsigned",
        why: `${unsigned(entry)}, and the page asks the odds of signed entries only`,
      };
    }
    if (odds instanceof Error) return { kind: "unreachable", error: odds };
    if (utf8.encode(request.body).length > MAX_ODDS_BODY_BYTES) {
      return {
        kind: "left-out",
        reason: "size",
        why: `its request is larger than the ${MAX_ODDS_BODY_BYTES / 1024} KiB the service takes`,
      };
    }
    const key = `${request.path}\n${request.body}`;
    if (!asked.has(key)) {
      if (asked.size >= MAX_ODDS_PER_LOG) {
        return {
          kind: "left-out",
          reason: "limit",
          why: `the page asks at most ${MAX_ODDS_PER_LOG} odds for one log, and this entry's would be one more`,
        };
      }
      asked.add(key);
    }
    return { kind: "ask", key };
  });
}

/** The page's note for the entries whose luck it left out, or null when it left out none. */
export function leftOutNote(plan) {
  const count = (reason) => plan.filter((p) => p.kind === "left-out" && p.reason === reason).length;
  const parts = [];
  const unsignedCount = count("unsigned");
  if (unsignedCount) {
    parts.push(`${unsignedCount} without a signature that holds (the page asks the odds of signed entries only)`);
  }
  const limit = count("limit");
  if (limit) parts.push(`${limit} past the limit of ${MAX_ODDS_PER_LOG} odds requests for one log`);
  const size = count("size");
  if (size) parts.push(`${size} whose request is larger than the service takes`);
  if (!parts.length) return null;
  const total = unsignedCount + limit + size;
  return `Luck left out for ${total} ${total === 1 ? "entry" : "entries"}: ${parts.join("; ")}.`;
}

/** A Salvo! attack's outcome as its /odds lists it: not the shots, but what they did to the
 * target (the service's attack summary: the F, T and S hits dealt, fire control newly lost,
 * the target sunk, the firer straddled). The hits dealt are those its shots report, past a
 * count's cap too (the target's state stops counting there); fire control from the target's
 * state in the request and after the attack. The summary's two other members, the speed
 * lost and the guns silenced, follow from those hits and the target's card, the same for
 * every outcome of one request: the members here pick out the one outcome. */
export function attackSummary(document) {
  const result = get(document, "result");
  const before = get(document, "provenance", "request", "body", "target", "state");
  const after = get(result, "target", "state");
  const shots = get(result, "shots");
  if (!isDict(after) || !Array.isArray(shots)) return null;
  const was = (name, missing) => get(before, name) ?? missing; // the request's defaults
  const hits = shots.map((shot) => (isDict(shot) ? String(get(shot, "hits") ?? "") : "")).join("");
  const dealt = (kind) => hits.split(kind).length - 1;
  return {
    flotation_hits: dealt("F"),
    turret_hits: dealt("T"),
    speed_hits: dealt("S"),
    fire_control_lost: get(after, "fire_control") !== was("fire_control", "ready"),
    sunk: get(result, "target_sunk"),
    straddled: get(result, "straddled"),
  };
}

/** Steps whose /odds outcomes are not their results but a summary of them. */
const OUTCOME_OF = { "salvo-solo/attack": attackSummary };

/** Whether an /odds outcome is this entry's: its result, or the members of its summary. */
function outcomeMatcher(document) {
  const summarise = OUTCOME_OF[`${get(document, "ruleset")}/${get(document, "step")}`];
  const result = get(document, "result");
  if (summarise === undefined) return (outcome) => pyEqual(outcome, result);
  const summary = summarise(document);
  if (summary === null) return () => false;
  return (outcome) => isDict(outcome) && Object.keys(summary).every((name) => pyEqual(get(outcome, name), summary[name]));
}

/** The luck of an outcome among the step's outcomes: its probability, and its percentile
 * (the share of rolls that give a more common outcome: 0 for the likeliest, near 100 for
 * a long shot). */
export function luck(document, odds) {
  const outcomes = get(odds, "outcomes");
  if (!Array.isArray(outcomes)) return { available: false, why: "the odds answer lists no outcomes" };
  const matches = outcomeMatcher(document);
  const found = outcomes.find((outcome) => matches(get(outcome, "result")));
  if (found === undefined) {
    return { available: false, why: "this outcome is not among the outcomes /odds lists" };
  }
  const p = Number(get(found, "p"));
  const commoner = outcomes
    .filter((outcome) => Number(get(outcome, "p")) > p + 1e-12)
    .reduce((sum, outcome) => sum + Number(get(outcome, "p")), 0);
  const percentile = Math.min(100, Math.max(0, Math.round(commoner * 100)));
  return {
    available: true,
    probability: text(get(found, "probability")),
    p,
    percentile,
    words:
      `a ${text(get(found, "probability"))} chance (${(p * 100).toFixed(1)}%): ` +
      `luck percentile ${percentile}, ${percentile}% of rolls give a more common outcome`,
  };
}

/** The line a referee pastes into a forum post. */
export function forumLine(entry, luckFound) {
  const document = entry.document;
  const { words } = state(entry);
  const parts = [`${entryTitle(entry.index)}, ${stepName(document)}`];
  const rolls = get(document, "rolls");
  if (Array.isArray(rolls) && rolls.length) {
    parts.push(
      rolls
        .map((roll) => `${text(get(roll, "notation"))} [${text(get(roll, "values"))}] = ${text(get(roll, "total"))}`)
        .join("; "),
    );
  }
  const modifiers = modifierLines(document);
  if (modifiers.length === 1) {
    const [m] = modifiers;
    parts.push(`${m.arithmetic} vs ${m.table}: ${m.outcome}`);
  } else if (modifiers.length > 1) {
    parts.push(`${modifiers.length} modified rolls`);
  }
  const result = resultLine(document);
  if (result) parts.push(`result: ${result}`);
  parts.push(diceLine(document));
  if (luckFound?.available) parts.push(`luck: ${luckFound.probability}, percentile ${luckFound.percentile}`);
  const codes = [...entry.codes(), ...entry.logFound.map(([code]) => code)];
  parts.push(
    entry.signatureValid === true ? "signature OK" : entry.signatureValid === null ? "signature not checked" : "signature FAILS",
  );
  parts.push(codes.length ? `${words} [${codes.join(", ")}]` : words);
  if (entry.receiptHash) parts.push(`receipt sha256 ${entry.receiptHash.slice(0, 16)}`);
  return `${parts.join(" | ")} (checked in the browser, Fire Control referee's page)`;
}
