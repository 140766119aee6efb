/**
 * `killswitch trip` on a real terminal (node-pty): without --yes it asks for the confirmation
 * word; a wrong word changes nothing (exit 2), Ctrl+C changes nothing (exit 130), TRIP halts.
 */
import { execFileSync } from "node:child_process";
import { expect, test } from "vitest";
import { BIN, freshHome, spawnConsole, terminalEnv } from "./helpers.js";

function tradingState(home: string): string {
  const out = execFileSync(process.execPath, [BIN, "--home", home, "killswitch", "--json"], { env: terminalEnv(home), encoding: "utf8" });
  return (JSON.parse(out) as { trading_state: string }).trading_state;
}

test("type TRIP to confirm: a wrong word or Ctrl+C changes nothing; TRIP halts", async () => {
  const home = freshHome();
  execFileSync(process.execPath, [BIN, "--home", home, "init", "--capital", "1000"], { env: terminalEnv(home) });
  // A trip is recorded against the journal's latest run: one run first (a trip before any run is refused).
  execFileSync(process.execPath, [BIN, "--home", home, "run", "--yes"], { env: terminalEnv(home) });
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
  expect(tradingState(home)).toBe("ACTIVE");

  const confirmed = spawnConsole(home, ["killswitch", "trip", "--reason", "pty test"]);
  await confirmed.waitForText(prompt);
  confirmed.term.write("TRIP\r");
  await confirmed.waitFor(() => confirmed.exitCode() !== null, "exit after TRIP");
  expect(confirmed.exitCode()).toBe(0);
  expect(confirmed.text()).toContain("trading is HALTED");
  expect(tradingState(home)).toBe("HALTED");
}, 60_000);
