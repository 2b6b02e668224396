// The public API as any app calls it, and a game: its dice, its signed log, kept in the browser.

import { sha256hex } from "./sha256.js";

/** A problem answer (RFC 9457) or a failed request, in words a player reads. */
export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail ?? body?.title ?? `the service answered ${status}`);
    this.status = status;
    this.body = body;
    this.field = body?.errors?.[0]?.field ?? null;
  }
}

function url(path) {
  return new URL(`./${path}`, document.baseURI);
}

async function answerOf(response) {
  const text = await response.text();
  let value = null;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (!response.ok) throw new Problem(response.status, value);
  return value;
}

/** POST a JSON body to a documented operation; its JSON answer. */
export async function post(path, body) {
  const response = await fetch(url(path), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  return answerOf(response);
}

/** GET a documented operation's JSON answer. */
export async function get(path) {
  return answerOf(await fetch(url(path), { headers: { Accept: "application/json" } }));
}

/** POST to an `/odds` (or the heat map) asking for its picture: an <img> of the SVG. */
export async function picture(path, body) {
  const response = await fetch(url(path), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "image/svg+xml" },
    body: JSON.stringify(body),
  });
  if (!response.ok) await answerOf(response);
  const svg = await response.text();
  const image = document.createElement("img");
  const title = /<title>([^<]*)<\/title>/.exec(svg);
  image.alt = title ? title[1] : "the odds";
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  return image;
}

/** A fresh random seed: 16 random bytes in hex (crypto.getRandomValues works over plain http too). */
export function freshSeed(bytes = 16) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return [...values].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const STORE = "fire-control:play:";

/**
 * One game on the service's dice: seeded (a fresh seed) or sealed (a secret server seed the
 * service reveals after the game). Every signed answer goes into `log`, chained by `prev`,
 * the nonce counting up by one a roll, and the whole game is kept in localStorage.
 */
export class Game {
  constructor(data) {
    Object.assign(this, data);
  }

  static load(kind) {
    try {
      const data = JSON.parse(localStorage.getItem(STORE + kind) ?? "null");
      return data && Array.isArray(data.log) ? new Game(data) : null;
    } catch {
      return null;
    }
  }

  static forget(kind) {
    localStorage.removeItem(STORE + kind);
  }

  /** A new game: for a sealed one, the service's seal heads the log. */
  static async start(kind, ruleset, choice) {
    const game = new Game({ kind, ruleset, mode: choice.mode, nonce: 0, log: [], reveal: null, over: false, ui: {} });
    if (choice.mode === "sealed") {
      // The page picks the client seed and binds the token to it, so the token rolls with
      // no other: the service committed to its seed before it saw this one.
      const clientSeed = freshSeed(32);
      const seal = await post("v1/seeds", {
        reveal_in: choice.revealIn,
        ruleset,
        client_seed_sha256: sha256hex(clientSeed),
      });
      Object.assign(game, { sealed: seal.sealed, client_seed: clientSeed, reveal_after: seal.reveal_after });
      game.log.push(seal);
    } else {
      game.seed = choice.seed;
    }
    game.save();
    return game;
  }

  /** The `dice` of a roll with this nonce. */
  dice(nonce) {
    return this.mode === "sealed"
      ? { sealed: this.sealed, client_seed: this.client_seed, nonce }
      : { seed: this.seed, nonce };
  }

  prev() {
    const last = this.log.at(-1);
    return last ? sha256hex(last.receipt) : undefined;
  }

  /**
   * A signed step of the game: the next nonce (or the `dice` given, as a pending Salvo!
   * turn names them), chained to the last answer. The answer joins the log.
   */
  async step(path, body, dice = null) {
    const sent = { ...body, dice: dice ?? this.dice(this.nonce + 1) };
    const prev = this.prev();
    if (prev) sent.prev = prev;
    const answer = await post(path, sent);
    this.log.push(answer);
    this.nonce = sent.dice.nonce;
    this.save();
    return answer;
  }

  /** The game as a file: the JSON list of its signed answers, oldest first. */
  logText() {
    return JSON.stringify(this.log, null, 1);
  }

  name() {
    const by = this.mode === "sealed" ? `sealed-${this.log[0].commitment.slice(0, 8)}` : this.seed.slice(0, 8);
    return `${this.ruleset}-${by}`;
  }

  /** The seed of a sealed game, once its time has come; a 409 before. */
  async revealSeed() {
    this.reveal = await post("v1/seeds/reveal", { sealed: this.sealed });
    this.save();
    return this.reveal;
  }

  save() {
    try {
      localStorage.setItem(STORE + this.kind, JSON.stringify(this));
      this.unsaved = false;
    } catch {
      this.unsaved = true; // the browser's storage is full: the game goes on, save the file
    }
  }
}

/** Hand a log (and a reveal) to the referee's page, which reads it once on opening. */
export function toReferee(game) {
  localStorage.setItem(
    "fire-control:referee-handoff",
    JSON.stringify({ log: game.logText(), reveal: game.reveal ? JSON.stringify(game.reveal) : "" }),
  );
  window.location.assign(url("referee#from-play"));
}
