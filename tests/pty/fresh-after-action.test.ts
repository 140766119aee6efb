/**
 * Issue #25 in a real terminal (node-pty): after an action the screen shows the journal's state,
 * read back. The kill-switch screen trips an active account (`K`, HALT, a reason — keys one at a
 * time) and then says HALTED; reopened, a reset (keys in one chunk) leaves it saying what the
 * journal says, not HALTED (and the journal browser's account view, read in-process, follows the
 * reset's peak). The reconcile screen after adopting (keys one at a time) says the
 * journal and the broker agree, not the differences it opened with.
 */
import { expect, test } from "vitest";
import { journalBrowserSource } from "../../src/commands/journal-browser.js";
import { createAccountServices } from "../../src/run/services.js";
import { mountJournal } from "../../src/screens/run-app.js";
import { expectExit, twIn } from "../e2e/helpers.js";
import { strayBuy } from "../e2e/stray.js";
import { runIn } from "../recovery/harness.js";
import { io, screenText } from "../screens/fake-terminal.js";
import { waitFor } from "../screens/helpers.js";
import { freshHome, spawnConsole } from "./helpers.js";

/** The journal's state (`journal --json`), read in-process (only the screens under test need a terminal). */
async function state(home: string): Promise<{ trading_state: string; trips: { reason: string }[] }> {
  const r = await twIn(home, ["journal", "--json"]);
  expectExit(r, 0);
  const j = JSON.parse(r.stdout) as { state: { trading_state: string; trips: { reason: string }[] } };
  return j.state;
}

/**
 * The journal browser's account view (`v`) of this home, mounted in this process on a 120×40 fake
 * terminal as `tradewarden journal` mounts it (what it reads is under test here, not the terminal:
 * the browser's keys and resizes on a real one are tests/pty/resize.test.ts's and console.test.ts's).
 */
async function accountView(home: string): Promise<string> {
  const svc = await createAccountServices(home, {}, { readOnly: true });
  const t = io(120, 40);
  const source = journalBrowserSource(svc.journal, home, svc.config.limits.max_drawdown_pct);
  const j = mountJournal({ source, onExit: () => {} }, { ...t.opts, alternateScreen: true });
  await waitFor(() => screenText(t.stdout.all).includes("Journal ·"), 5000, "the journal browser");
  const drawn = t.stdout.all.length;
  const since = () => screenText(t.stdout.all.slice(drawn));
  t.stdin.send("v");
  await waitFor(() => since().includes("headroom"), 5000, "the account view").catch((e: Error) => {
    throw new Error(`${e.message}; drawn so far:\n${screenText(t.stdout.all).slice(-3000)}`);
  });
  const view = since();
  t.stdin.send("q");
  await j.waitUntilExit();
  return view;
}

/** The text after the last time `needle` was drawn (the frame on screen now). */
const lastFrom = (text: string, needle: string) => text.slice(text.lastIndexOf(needle));

async function typeSlowly(c: { term: { write(s: string): void } }, keys: string) {
  for (const k of keys) {
    c.term.write(k);
    await new Promise((r) => setTimeout(r, 40));
  }
}

type Console = ReturnType<typeof spawnConsole>;
const send = async (c: Console, keys: string, slowly: boolean) => (slowly ? typeSlowly(c, keys) : c.term.write(keys));

async function tripOnScreen(home: string, reason: string, slowly: boolean) {
  const trip = spawnConsole(home, ["killswitch"]);
  await trip.waitForText("K trip the kill switch");
  await send(trip, "K", slowly);
  await trip.waitForText("type HALT to trip the kill switch");
  await send(trip, "HALT\r", slowly);
  await trip.waitForText("Step 2 of 2");
  await send(trip, `${reason}\r`, slowly);
  await trip.waitForText("✓ Kill switch tripped");
  expect(lastFrom(trip.text(), "Kill switch · trading state")).toMatch(/^Kill switch · trading state HALTED · trip day \d{4}-\d\d-\d\d/);
  trip.term.write("q");
  await trip.waitFor(() => trip.exitCode() !== null, "exit");
  expect(trip.exitCode()).toBe(0);
  expect(trip.text()).toContain("kill switch tripped: recorded in the journal");
  const halted = await state(home);
  expect(halted.trading_state).toBe("HALTED");
  expect(halted.trips.at(-1)?.reason).toMatch(new RegExp(`^operator tripped the kill switch: ${reason}`));
}

async function resetOnScreen(home: string, reason: string, slowly: boolean, small = false) {
  const reset = spawnConsole(home, ["killswitch"]);
  await reset.waitForText("type RESET to reset the kill switch");
  expect(lastFrom(reset.text(), "Kill switch · trading state")).toMatch(/^Kill switch · trading state HALTED/);
  if (small) {
    // 60×30: the title keeps the state and the trip day; the facts scroll.
    const drawn = reset.text().length;
    reset.term.resize(60, 30);
    await reset.waitFor(() => reset.text().slice(drawn).includes("Kill switch · trading state"), "a redraw at 60 columns");
    expect(lastFrom(reset.text(), "Kill switch · trading state")).toMatch(/^Kill switch · trading state HALTED · trip day \d{4}-\d\d-\d\d/);
  }
  await send(reset, "RESET\r", slowly);
  await reset.waitForText("Step 2 of 2");
  await send(reset, `${reason}\r`, slowly);
  await reset.waitForText("✓ Kill switch reset");
  const after = (await state(home)).trading_state;
  expect(after).not.toBe("HALTED");
  const frame = lastFrom(reset.text(), "Kill switch · trading state");
  expect(frame).toMatch(new RegExp(`^Kill switch · trading state ${after}`));
  expect(lastFrom(reset.text(), "✓ Kill switch reset").replace(/\s+/g, " ")).toContain(`trading state ${after}`);
  expect(frame).not.toMatch(/trading state HALTED|type RESET/);
  reset.term.write("q");
  await reset.waitFor(() => reset.exitCode() !== null, "exit");
  expect(reset.exitCode()).toBe(0);
}

test("kill-switch screen: trips and resets, keys one at a time and in one chunk; after each the title is the journal's state", async () => {
  const home = freshHome();
  expect((await runIn(home)).summary.exitCode).toBe(0);
  expect((await state(home)).trading_state).toBe("ACTIVE");
  await tripOnScreen(home, "fire drill", true);
  await resetOnScreen(home, "drill over", false);
  await tripOnScreen(home, "second drill", false);
  await resetOnScreen(home, "second drill over", true, true);
  // The journal's account view before the next run: the limit line follows the reset's peak.
  expect(await accountView(home)).toMatch(/reset after day \d{4}-\d\d-\d\d: value = peak [\d,.]+ USD · drawdown 0\.00% of max \d+% · REDUCING/);
}, 120_000);

test.each([
  ["one at a time", true],
  ["in one chunk", false],
])(
  "reconcile screen: after adopting (keys %s) the title says they agree, not the differences it opened with",
  async (_how, slowly) => {
    const home = freshHome();
    expect((await runIn(home)).summary.exitCode).toBe(0);
    await strayBuy(home, "SPX", 2);
    const c = spawnConsole(home, ["reconcile"]);
    await c.waitForText("Type ADOPT to adopt the broker's side:");
    expect(c.text()).toMatch(/Reconcile · \d+ difference\(s\)/);
    await send(c, "ADOPT\r", slowly);
    await c.waitForText("Reason (recorded with each adjustment):");
    await send(c, "bought by hand\r", slowly);
    await c.waitForText("Adopted: the journal and the broker agree.");
    expect(lastFrom(c.text(), "Reconcile ·")).toMatch(/^Reconcile · the journal and the broker agree/);
    c.term.write("q");
    await c.waitFor(() => c.exitCode() !== null, "exit");
    expect(c.exitCode()).toBe(0);
  },
  60_000,
);
