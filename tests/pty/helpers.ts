/** A real pseudo-terminal (node-pty) running the CLI, for the console tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pty from "node-pty";
import { onTestFinished } from "vitest";

export const BIN = join(process.cwd(), "bin", "tradewarden.js");
const homes: string[] = [];
const terms: pty.IPty[] = [];
let armed = false;

/**
 * The test that made a home or started a terminal ends them when it finishes: armed from inside the
 * test (a file-level afterEach in this module would be registered for the first file only where
 * files share their modules, vitest.config.ts `shared`).
 */
function cleanUpAfterThisTest(): void {
  if (armed) return;
  armed = true;
  onTestFinished(() => {
    armed = false;
    for (const t of terms.splice(0)) {
      try {
        t.kill();
      } catch {
        // already gone
      }
    }
    for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
  });
}

export function freshHome(): string {
  cleanUpAfterThisTest();
  const home = mkdtempSync(join(tmpdir(), "tw-pty-"));
  homes.push(home);
  return home;
}

/**
 * A terminal user's environment, with CI=true on purpose: Ink draws only a final frame when it
 * believes it runs in CI, and the product must still show the console to a person at a terminal.
 */
export function terminalEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k === "CI" || k === "CONTINUOUS_INTEGRATION" || k.startsWith("CI_") || k === "TRADEWARDEN_HOME" || k === "ANTHROPIC_API_KEY")
      continue;
    env[k] = v;
  }
  return { ...env, CI: "true", NO_COLOR: "1", TRADEWARDEN_HOME: home };
}

// Strip escape sequences so the screen text can be searched.
export const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[()][0-9A-Za-z]|\u001b[=>]/g, "");

/** Spawns `tradewarden --home <home> <args>` (default: `run`) in a 120×40 terminal. */
export function spawnConsole(home: string, args: readonly string[] = ["run"]) {
  const term = pty.spawn(process.execPath, [BIN, "--home", home, ...args], {
    name: "xterm-256color",
    cols: 120,
    rows: 40,
    cwd: process.cwd(),
    env: terminalEnv(home),
  });
  cleanUpAfterThisTest();
  terms.push(term);
  let out = "";
  let exit: number | null = null;
  term.onData((d) => {
    out += d;
  });
  term.onExit((e) => {
    exit = e.exitCode;
  });
  const waitFor = async (pred: () => boolean, what: string, ms = 30_000) => {
    const end = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; screen so far:\n${plain(out).slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    term,
    text: () => plain(out),
    raw: () => out,
    exitCode: () => exit,
    waitFor,
    waitForText: (needle: string, ms?: number) => waitFor(() => plain(out).includes(needle), JSON.stringify(needle), ms),
  };
}
