/**
 * The operator console in a real pseudo-terminal (node-pty): a supervised daily run on the embedded
 * defaults, the approval screen, a stray digit and Enter that must NOT approve, then the approval
 * with its confirmation; the journal afterwards holds the operator's approval and the fills.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { TYPE_AHEAD_GUARD_MS } from "../../src/screens/ApprovalScreen.js";
import { expectExit, twIn } from "../e2e/helpers.js";
import { freshHome, spawnConsole } from "./helpers.js";

/** `journal --json`, read in-process (only the console under test needs a terminal and a process of its own). */
async function journalJson(home: string) {
  const r = await twIn(home, ["journal", "--json"]);
  expectExit(r, 0);
  return JSON.parse(r.stdout) as {
    runs: { run_id: string; approvals: { decision: string; by: string; reason?: string }[]; outcome: string }[];
    fills: unknown[];
    orders: { status: string }[];
  };
}

/**
 * A person reads the prompt before each key: keys sooner than the type-ahead guard after a prompt
 * appears are cancelled (src/screens/ApprovalScreen.tsx), so each key waits just past it.
 */
const keyPause = () => new Promise((r) => setTimeout(r, TYPE_AHEAD_GUARD_MS + 50));

test("approve in a real terminal: stray keys do nothing, a confirmed approval trades and is journalled", async () => {
  const home = freshHome();
  const c = spawnConsole(home);
  await c.waitForText("Approve orders?");
  // A stray digit and Enter: nothing is sent.
  c.term.write("1");
  c.term.write("\r");
  // Enter only opens the selected order's details (full reason and evidence); Esc goes back.
  await c.waitForText("order details");
  expect(c.text()).not.toContain("order placed");
  c.term.write("\u001b");
  await c.waitFor(() => c.text().lastIndexOf("Orders reach the broker only after") > c.text().lastIndexOf("order details"), "back to the orders");
  // Approve: `a`, then the confirmation `y` + Enter.
  // A person reads the prompt before each key (faster keys are cancelled by the type-ahead guard).
  c.term.write("a");
  await c.waitForText("Cannot be undone");
  await keyPause();
  c.term.write("y");
  await c.waitForText("Press Enter to SEND");
  await keyPause();
  c.term.write("\r");
  await c.waitFor(() => c.exitCode() !== null, "the process to exit");
  expect(c.exitCode()).toBe(0);
  expect(c.text()).toContain("executed (exit 0)");
  const j = await journalJson(home);
  expect(j.runs).toHaveLength(1);
  expect(j.runs[0]?.outcome).toBe("executed");
  expect(j.runs[0]?.approvals.at(-1)).toMatchObject({ decision: "approved", by: "operator" });
  expect(j.fills.length).toBeGreaterThan(0);
  const verify = await twIn(home, ["journal", "verify"]);
  expectExit(verify, 0);
  expect(verify.stdout).toContain("journal ok");
}, 90_000);

test("Ctrl+C on the approval screen exits 130 and places nothing", async () => {
  const home = freshHome();
  const c = spawnConsole(home);
  await c.waitForText("Approve orders?");
  c.term.write("\u0003");
  await c.waitFor(() => c.exitCode() !== null, "the process to exit");
  expect(c.exitCode()).toBe(130);
  const j = await journalJson(home);
  expect(j.orders).toHaveLength(0);
  expect(j.runs[0]?.outcome).toBe("interrupted");
}, 90_000);

test("reject with a reason typed with coalesced backspaces: nothing is placed, the journal records exactly the intended text", async () => {
  const home = freshHome();
  const c = spawnConsole(home);
  await c.waitForText("Approve orders?");
  c.term.write("r");
  await c.waitForText("Reject all orders");
  c.term.write("momentum nameses");
  await c.waitForText("momentum nameses");
  // Two backspaces in one write (a held key, or keys over SSH): both count.
  c.term.write("\x7f\x7f");
  await c.waitFor(() => /Reason \(optional\): momentum names\s*$/m.test(c.text().split("Reject all orders").at(-1) ?? ""), "two characters deleted");
  await new Promise((r) => setTimeout(r, 300));
  c.term.write("\r");
  await c.waitFor(() => c.exitCode() !== null, "the process to exit");
  expect(c.exitCode()).toBe(0);
  const j = await journalJson(home);
  expect(j.runs[0]?.outcome).toBe("rejected");
  expect(j.orders).toHaveLength(0);
  expect(j.runs[0]?.approvals.at(-1)).toMatchObject({ decision: "rejected", by: "operator", reason: "momentum names" });
}, 90_000);

/** A home whose first run, without a terminal or --yes, left its proposal awaiting approval: made once. */
let pending = "";
beforeAll(async () => {
  pending = mkdtempSync(join(tmpdir(), "tw-pty-pending-"));
  // A run without a terminal (in-process: no tty): the proposal is recorded as awaiting approval, exit 6.
  const r = await twIn(pending, ["run"]);
  expectExit(r, 6);
}, 60_000);
afterAll(() => rmSync(pending, { recursive: true, force: true }));

/** A fresh copy of that home (each test decides or cancels its proposal on its own copy). */
function pendingHome(): string {
  const home = freshHome();
  cpSync(pending, home, { recursive: true });
  return home;
}

test("approve: a proposal awaiting approval (exit 6) is approved within its session and placed through the final gate", async () => {
  const home = pendingHome();
  const before = await journalJson(home);
  expect(before.runs[0]?.outcome).toBe("awaiting_approval");
  expect(before.orders).toHaveLength(0);
  const c = spawnConsole(home, ["approve"]);
  await c.waitForText("Approve orders?");
  expect(c.text()).toContain(`deciding the proposal of run ${before.runs[0]?.run_id}`);
  c.term.write("a");
  await c.waitForText("Cannot be undone");
  await keyPause();
  c.term.write("y");
  await c.waitForText("Press Enter to SEND");
  await keyPause();
  c.term.write("\r");
  await c.waitFor(() => c.exitCode() !== null, "the process to exit");
  expect(c.exitCode()).toBe(0);
  expect(c.text()).toContain("final gate:");
  const j = await journalJson(home);
  expect(j.runs).toHaveLength(2);
  expect(j.runs[1]?.outcome).toBe("executed");
  expect(j.runs[1]?.approvals.at(-1)).toMatchObject({ decision: "approved", by: "operator" });
  expect(j.fills.length).toBeGreaterThan(0);
  // Decided: nothing is pending any more.
  const again = await twIn(home, ["approve"]);
  expect(again.exitCode).not.toBe(0);
  expect(again.stderr).toMatch(/nothing to approve/);
}, 120_000);

test("approve outside the proposal's session: expired, says so, nothing placed", async () => {
  const home = pendingHome();
  const first = (await journalJson(home)).runs[0]?.run_id ?? "";
  // The next run opens the next session (the simulated broker's next day).
  expectExit(await twIn(home, ["run", "--yes"]), 0);
  const late = await twIn(home, ["approve", first]);
  expect(late.exitCode).toBe(2);
  expect(late.stderr).toContain(`the proposal of run ${first}`);
  expect(late.stderr).toContain("has expired");
  expect((await journalJson(home)).runs.find((r) => r.run_id === first)?.approvals.at(-1)?.decision).toBe("awaiting");
}, 90_000);

test("Ctrl+C exits 130 on every screen: journal browser, kill-switch screen, approve; full screens restore the terminal", async () => {
  // The three screens at once, each on its own copy of the home (one would wait for another's lock).
  const approveScreen = async () => {
    const approve = spawnConsole(pendingHome(), ["approve"]);
    await approve.waitForText("Approve orders?");
    approve.term.write("\u0003");
    await approve.waitFor(() => approve.exitCode() !== null, "approve to exit");
    expect(approve.exitCode()).toBe(130);
  };

  const journalBrowser = async () => {
    const journal = spawnConsole(pendingHome(), ["journal"]);
    await journal.waitForText("Journal ·");
    journal.term.write("\u0003");
    await journal.waitFor(() => journal.exitCode() !== null, "the journal browser to exit");
    expect(journal.exitCode()).toBe(130);
    // The browser drew in the alternate screen and gave the terminal back (awaited: node-pty may
    // report the exit before the output's last chunk).
    expect(journal.raw()).toContain("\u001b[?1049h");
    const givenBack = () => journal.raw().lastIndexOf("\u001b[?1049l") > journal.raw().lastIndexOf("\u001b[?1049h");
    await journal.waitFor(givenBack, "the alternate screen to be left", 3_000);
    expect(givenBack()).toBe(true);
  };

  const killSwitchScreen = async () => {
    const ks = spawnConsole(pendingHome(), ["killswitch"]);
    await ks.waitForText("Kill switch · trading state");
    ks.term.write("\u0003");
    // The last line is awaited before the exit: node-pty may report the exit before the output's last chunk.
    await ks.waitForText("interrupted: no change");
    await ks.waitFor(() => ks.exitCode() !== null, "the kill-switch screen to exit");
    expect(ks.exitCode()).toBe(130);
  };

  await Promise.all([approveScreen(), journalBrowser(), killSwitchScreen()]);
}, 120_000);
