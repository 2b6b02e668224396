// A salvo-solo game played through openapi-fetch, typed by openapi-typescript from the
// service's own OpenAPI document (README, "Use it from an app"):
//
//   npx openapi-typescript http://127.0.0.1:8080/openapi.json \
//       --default-non-nullable false -o fire-control.d.ts
//   npx tsc --strict --noEmit -p .
//   npx tsc -p . && node dist/play.js http://127.0.0.1:8080
//
// The test suite does exactly this (tests/test_generated_clients.py).
import createClient from "openapi-fetch";
import type { components, paths } from "./fire-control.js";

type GameState = components["schemas"]["SalvoSoloGameState"];
type TurnAnswer = components["schemas"]["SalvoSoloTurnResponse"];
type TurnRequest = components["schemas"]["SalvoSoloTurnRequest"];
type Action = components["schemas"]["SalvoSoloAction"];

const MOST_TURNS = 200;

// What the next request's `prev` carries: the hex SHA-256 of the previous receipt, so the
// game's receipts form a chain the service (or anyone) can check.
async function receiptHash(receipt: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(receipt));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The player's captain: close while the enemy is far, offer broadside once in range.
// Among the Actions the rules allow its ship: the last answer's `actions.player`.
function choose(state: GameState, allowed: Action[]): Action {
  const wanted = state.range === "Long" || state.range === "Medium-Long" ? "C" : "OB";
  return allowed.includes(wanted) ? wanted : allowed[0];
}

export async function playSalvoSolo(baseUrl: string, seed: string): Promise<TurnAnswer[]> {
  const client = createClient<paths>({ baseUrl });
  let state: GameState = {
    turn: 1,
    weather: "Fair",
    range: "Long",
    player: { ship: "Ajax" },
    enemy: { ship: "Graf Spee" },
  };
  const log: TurnAnswer[] = [];
  let allowed: Action[] = ["C", "OB", "W"];
  for (let nonce = 1; nonce <= MOST_TURNS; nonce++) {
    const body: TurnRequest = { state, player_action: choose(state, allowed), dice: { seed, nonce } };
    const last = log.at(-1);
    if (last !== undefined) {
      body.prev = await receiptHash(last.receipt);
    }
    const { data, error } = await client.POST("/v1/rulesets/salvo-solo/turn", { body });
    if (error !== undefined) {
      throw new Error(`${error.status} ${error.title}: ${error.detail}`);
    }
    log.push(data);
    const { result } = data;
    for (const event of result.events) {
      // Events are told apart by `phase`: each branch knows its own result's fields.
      if (event.phase === "maneuver") {
        console.log(`turn ${state.turn}: range ${event.result.range}`);
      } else if (event.phase === "fire" && "shots" in event.result) {
        console.log(`  ${event.side} fires ${event.result.shots.length} shot(s)`);
      }
    }
    if (result.game_over) {
      console.log(`game over after ${nonce} turns: ${result.winner ?? "draw"} (${result.reason})`);
      return log;
    }
    state = result.state; // the answer's state is the next request's state, as it is
    allowed = result.actions.player;
  }
  throw new Error(`no end after ${MOST_TURNS} turns`);
}

export async function verifyLog(baseUrl: string, log: TurnAnswer[]): Promise<boolean> {
  const client = createClient<paths>({ baseUrl });
  const { data, error } = await client.POST("/v1/receipts/verify", { body: log });
  if (error !== undefined) {
    throw new Error(`${error.status} ${error.title}: ${error.detail}`);
  }
  for (const entry of data.entries) {
    if (!entry.signature_valid) {
      console.log(`entry ${entry.index}: ${entry.problems.join("; ")}`);
    }
  }
  for (const problem of data.log?.problems ?? []) {
    console.log(`log: ${problem}`);
  }
  return data.valid;
}

const baseUrl = process.argv[2];
if (baseUrl !== undefined) {
  const log = await playSalvoSolo(baseUrl, "typescript-client");
  const valid = await verifyLog(baseUrl, log);
  console.log(valid ? `verified ${log.length} receipts` : "the game log did not verify");
  process.exitCode = valid ? 0 : 1;
}
