// Each entry as a player reads it: the step, each die, each modifier with its source, the
// table row, the outcome, how lucky the roll was, and a line to paste into a forum post.

import { get, isDict, pyEqual } from "./json.js";
import { SEALED_NOT_YET } from "./verify.js";

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
  "cut-head": "The log does not start at the beginning of the game.",
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

export function resultLine(document) {
  const result = get(document, "result");
  return isDict(result) ? text(result) : result === null ? "" : text(result);
}

export function diceLine(document) {
  const dice = get(document, "dice");
  const mode = get(dice, "mode");
  if (mode === "seeded") return `seed ${text(get(dice, "seed"))}, nonce ${text(get(dice, "nonce"))}`;
  if (mode === "sealed") {
    return (
      `sealed seed ${text(get(dice, "commitment")).slice(0, 12)}..., client seed ` +
      `${text(get(dice, "client_seed"))}, nonce ${text(get(dice, "nonce"))}`
    );
  }
  if (mode === "supplied") return "dice supplied by the player";
  if (typeof get(document, "commitment") === "string") {
    return `commitment ${get(document, "commitment")}, reveal after ${text(get(document, "reveal_after"))}`;
  }
  return "no dice";
}

// --- luck -------------------------------------------------------------------------------------

const ODDS_PATH = /^\/v1\/rulesets\/[a-z0-9-]+\/[a-z0-9-]+$/;

/** The /odds request of an entry, or null when its step has none to ask. */
export function oddsRequest(document) {
  const path = get(document, "provenance", "request", "path");
  const body = get(document, "provenance", "request", "body");
  if (typeof path !== "string" || !ODDS_PATH.test(path) || !isDict(body)) return null;
  const rolls = get(document, "rolls");
  if (!Array.isArray(rolls) || rolls.length === 0) return null;
  const inputs = {};
  for (const name of Object.keys(body)) {
    if (name !== "dice" && name !== "prev") inputs[name] = body[name];
  }
  const rules = get(document, "rules"); // the signed readings in force, defaults included
  if (isDict(rules)) inputs.rules = rules;
  return { path: `${path}/odds`, body: JSON.stringify(inputs) };
}

/** The luck of an outcome among the step's outcomes: its probability, and its percentile
 * (the share of rolls that give a more common outcome: 0 for the likeliest, near 100 for
 * a long shot). */
export function luck(document, odds) {
  const outcomes = get(odds, "outcomes");
  if (!Array.isArray(outcomes)) return { available: false, why: "the odds answer lists no outcomes" };
  const result = get(document, "result");
  const found = outcomes.find((outcome) => pyEqual(get(outcome, "result"), result));
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
  const parts = [`Entry ${entry.index + 1}, ${stepName(document)}`];
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
  const codes = entry.codes();
  parts.push(
    entry.signatureValid === true ? "signature OK" : entry.signatureValid === null ? "signature not checked" : "signature FAILS",
  );
  parts.push(codes.length ? `${words} [${codes.join(", ")}]` : words);
  if (entry.receiptHash) parts.push(`receipt sha256 ${entry.receiptHash.slice(0, 16)}`);
  return `${parts.join(" | ")} (checked in the browser, Fire Control referee's page)`;
}
