/**
 * The operator console in a real pseudo-terminal (node-pty): a supervised daily run on the embedded
 * defaults, the approval screen, a stray digit and Enter that must NOT approve, then the approval
 * with its confirmation; the journal afterwards holds the operator's approval and the fills.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import * as pty from "node-pty";
import { afterEach, expect, test } from "vitest";

const BIN = join(process.cwd(), "bin", "tradewarden.js");
const homes: string[] = [];
const terms: pty.IPty[] = [];
afterEach(() => {
  for (const t of terms.splice(0)) {
    try {
      t.kill();
    } catch {
      // already gone
    }
  }
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/**
 * A terminal user's environment, with CI=true on purpose: Ink draws only a final frame when it
 * believes it runs in CI, and the product must still show the console to a person at a terminal.
 */
function terminalEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k === "CI" || k === "CONTINUOUS_INTEGRATION" || k.startsWith("CI_") || k === "TRADEWARDEN_HOME" || k === "ANTHROPIC_API_KEY") continue;
    env[k] = v;
  }
  return { ...env, CI: "true", NO_COLOR: "1", TRADEWARDEN_HOME: home };
}

// Strip escape sequences so the screen text can be searched.
const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[()][0-9A-Za-z]|\u001b[=>]/g, "");

function spawnConsole(home: string) {
  const term = pty.spawn(process.execPath, [BIN, "--home", home, "run"], {
    name: "xterm-256color",
    cols: 120,
    rows: 40,
    cwd: process.cwd(),
    env: terminalEnv(home),
  });
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
    exitCode: () => exit,
    waitFor,
    waitForText: (needle: string, ms?: number) => waitFor(() => plain(out).includes(needle), JSON.stringify(needle), ms),
  };
}

function journalJson(home: string) {
  return JSON.parse(execFileSync(process.execPath, [BIN, "--home", home, "journal", "--json"], { encoding: "utf8" })) as {
    runs: { approvals: { decision: string; by: string }[]; outcome: string }[];
    fills: unknown[];
    orders: { status: string }[];
  };
}

test("approve in a real terminal: stray keys do nothing, a confirmed approval trades and is journalled", async () => {
  const home = mkdtempSync(join(tmpdir(), "tw-pty-"));
  homes.push(home);
  const c = spawnConsole(home);
  await c.waitForText("Approve orders?");
  // A stray digit and Enter: nothing is sent.
  c.term.write("1");
  c.term.write("\r");
  await new Promise((r) => setTimeout(r, 500));
  expect(c.text()).not.toContain("order placed");
  // Approve: `a`, then the confirmation `y` + Enter.
  // A person reads the prompt before each key (faster keys are cancelled by the type-ahead guard).
  c.term.write("a");
  await c.waitForText("Cannot be undone");
  await new Promise((r) => setTimeout(r, 500));
  c.term.write("y");
  await c.waitForText("Press Enter to SEND");
  await new Promise((r) => setTimeout(r, 500));
  c.term.write("\r");
  await c.waitFor(() => c.exitCode() !== null, "the process to exit");
  expect(c.exitCode()).toBe(0);
  expect(c.text()).toContain("executed (exit 0)");
  const j = journalJson(home);
  expect(j.runs).toHaveLength(1);
  expect(j.runs[0]?.outcome).toBe("executed");
  expect(j.runs[0]?.approvals.at(-1)).toMatchObject({ decision: "approved", by: "operator" });
  expect(j.fills.length).toBeGreaterThan(0);
  const verify = execFileSync(process.execPath, [BIN, "--home", home, "journal", "verify"], { encoding: "utf8" });
  expect(verify).toContain("journal ok");
}, 90_000);

test("reject with a reason in a real terminal: nothing is placed, the rejection is journalled", async () => {
  const home = mkdtempSync(join(tmpdir(), "tw-pty-"));
  homes.push(home);
  const c = spawnConsole(home);
  await c.waitForText("Approve orders?");
  c.term.write("r");
  await c.waitForText("Reject all orders");
  c.term.write("not today");
  await c.waitForText("not today");
  await new Promise((r) => setTimeout(r, 300));
  c.term.write("\r");
  await c.waitFor(() => c.exitCode() !== null, "the process to exit");
  expect(c.exitCode()).toBe(0);
  const j = journalJson(home);
  expect(j.runs[0]?.outcome).toBe("rejected");
  expect(j.orders).toHaveLength(0);
  expect(j.runs[0]?.approvals.at(-1)).toMatchObject({ decision: "rejected", by: "operator" });
}, 90_000);

test("Ctrl+C on the approval screen exits 130 and places nothing", async () => {
  const home = mkdtempSync(join(tmpdir(), "tw-pty-"));
  homes.push(home);
  const c = spawnConsole(home);
  await c.waitForText("Approve orders?");
  c.term.write("\u0003");
  await c.waitFor(() => c.exitCode() !== null, "the process to exit");
  expect(c.exitCode()).toBe(130);
  const j = journalJson(home);
  expect(j.orders).toHaveLength(0);
  expect(j.runs[0]?.outcome).toBe("interrupted");
}, 90_000);
