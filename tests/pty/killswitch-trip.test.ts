/**
 * `killswitch trip` on a real terminal (node-pty): without --yes it asks for the confirmation
 * word; a wrong word changes nothing (exit 2), Ctrl+C changes nothing (exit 130), TRIP halts.
 */
import { expect, test } from "vitest";
import { expectExit, twIn } from "../e2e/helpers.js";
import { freshHome, spawnConsole } from "./helpers.js";

/** `killswitch --json`'s trading state, read in-process (only the prompt under test needs a terminal). */
async function tradingState(home: string): Promise<string> {
  const r = await twIn(home, ["killswitch", "--json"]);
  expectExit(r, 0);
  return (JSON.parse(r.stdout) as { trading_state: string }).trading_state;
}

test("type TRIP to confirm: a wrong word or Ctrl+C changes nothing; TRIP halts", async () => {
  const home = freshHome();
  expectExit(await twIn(home, ["init", "--capital", "1000"]), 0);
  // A trip is recorded against the journal's latest run: one run first (a trip before any run is refused).
  expectExit(await twIn(home, ["run", "--yes"]), 0);
  const prompt = "type TRIP to confirm:";

  const wrong = spawnConsole(home, ["killswitch", "trip", "--reason", "pty test"]);
  await wrong.waitForText(prompt);
  wrong.term.write("trip\r");
  await wrong.waitFor(() => wrong.exitCode() !== null, "exit after a wrong word");
  expect(wrong.exitCode()).toBe(2);
  expect(wrong.text()).toContain("not confirmed (type TRIP, or pass --yes); no change");

  const interrupted = spawnConsole(home, ["killswitch", "trip", "--reason", "pty test"]);
  await interrupted.waitForText(prompt);
  interrupted.term.write("\u0003");
  await interrupted.waitFor(() => interrupted.exitCode() !== null, "exit after Ctrl+C");
  expect(interrupted.exitCode()).toBe(130);
  expect(interrupted.text()).toContain("interrupted: no change");
  expect(await tradingState(home)).toBe("ACTIVE");

  const confirmed = spawnConsole(home, ["killswitch", "trip", "--reason", "pty test"]);
  await confirmed.waitForText(prompt);
  confirmed.term.write("TRIP\r");
  await confirmed.waitFor(() => confirmed.exitCode() !== null, "exit after TRIP");
  expect(confirmed.exitCode()).toBe(0);
  expect(confirmed.text()).toContain("trading is HALTED");
  expect(await tradingState(home)).toBe("HALTED");
}, 60_000);
