/**
 * Resizing the window on every screen, in a real pty whose output feeds a terminal emulator that
 * re-wraps on resize as xterm and tmux do: after each resize the visible frame is the new frame only
 * — no old-width header, value line, title or footer above it, no line re-wrapped from a wider frame
 * — and keys (one at a time and in one chunk) still work.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../agent/fake-openai-server.js";
import { expectExit, twIn } from "../e2e/helpers.js";
import { count, pause, screenHome, spawnScreen } from "./screen-helpers.js";

type Screen = ReturnType<typeof spawnScreen>;

/** The visible frame holds each marker exactly once, fits the width, and no row is a re-wrapped leftover. */
function expectCleanFrame(c: Screen, cols: number, markers: readonly string[]) {
  const lines = c.screen();
  const frame = lines.join("\n");
  expect(c.vt.wrappedRows(), frame).toEqual([]);
  for (const l of lines) expect(l.length, frame).toBeLessThanOrEqual(cols);
  for (const m of markers) expect(count(lines, m), `${m} in\n${frame}`).toBe(1);
}

/** Whether the frame is clean now (expectCleanFrame's conditions): for a screen that never goes quiet. */
function isCleanFrame(c: Screen, cols: number, markers: readonly string[]): boolean {
  const lines = c.screen();
  return c.vt.wrappedRows().length === 0 && lines.every((l) => l.length <= cols) && markers.every((m) => count(lines, m) === 1);
}

/**
 * On a screen whose spinner keeps drawing (no quiet to wait for): waits for the redraw after the last
 * resize, then for the frame to stay clean for `stableMs`, then checks it (a frame that never gets
 * clean fails here with the screen, after 10 s).
 */
async function expectCleanFrameSoon(c: Screen, cols: number, markers: readonly string[], stableMs = 300) {
  let cleanSince = 0;
  const stable = () => {
    if (c.awaitingRedraw() || !isCleanFrame(c, cols, markers)) cleanSince = 0;
    else cleanSince ||= Date.now();
    return cleanSince > 0 && Date.now() - cleanSince >= stableMs;
  };
  await c.waitFor(stable, `a clean frame at ${cols} columns for ${stableMs} ms`, 10_000).catch(() => {});
  expectCleanFrame(c, cols, markers);
}

async function resizeTo(c: Screen, cols: number, quietMs = 300) {
  c.resize(cols);
  await c.settle(quietMs);
}

/** A run without a terminal (in-process: no tty): its proposal awaits approval, exit 6. */
async function runWithoutTerminal(home: string): Promise<void> {
  expectExit(await twIn(home, ["run"]), 6);
}

let fake: FakeOpenAI | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

test("approval screen in the live run: 120 → 80 → 160 leaves only the new frame; the scrollback is printed again at the new width; keys still work", async () => {
  const c = spawnScreen(screenHome(), ["run"], 120, 40);
  await c.waitForText("Approve orders?");
  await c.settle();
  const markers = ["tradewarden PAPER", "· orders left 10", "Approve orders?", "cash 100,000.00 USD →", "• approval requested"];
  expectCleanFrame(c, 120, markers);

  await resizeTo(c, 80);
  expectCleanFrame(c, 80, markers);
  // The header is the 80-column one (the account and model segments give way), not the old wide one.
  expect(c.screen().join("\n")).not.toContain("model scripted/scripted:momentum");
  // One key at a time after the resize.
  c.term.write("j");
  await c.waitForText("order 2 of 2 · BUY 701 KILO");

  await resizeTo(c, 160);
  expectCleanFrame(c, 160, markers);
  expect(c.screen().join("\n")).toContain("model scripted/scripted:momentum");
  // Keys in one chunk after the resize: back to the first order and open its details.
  c.term.write("k\r");
  await c.waitForText("order details");
  await c.settle();
  expect(c.screen().join("\n")).toContain("HTLX");
  await resizeTo(c, 80);
  expectCleanFrame(c, 80, ["tradewarden PAPER", "order details"]);
  c.term.write("\u0003");
  await c.waitFor(() => c.exitCode() !== null, "the run to exit");
  expect(c.exitCode()).toBe(130);
}, 90_000);

test("run screen while the model thinks: 70 → 160 → 80 shows one header, the log above it printed again at the new width", async () => {
  fake = await startFakeOpenAI();
  fake.enqueue(
    {
      kind: "message",
      content: [
        { type: "text", text: "Checking the account first." },
        { type: "tool_use", id: "call_p", name: "get_portfolio", input: {} },
      ],
      stop_reason: "tool_use",
    },
    { kind: "hang" },
  );
  const home = screenHome();
  writeFileSync(join(home, "tradewarden.toml"), `[model]\nprovider = "openai"\nid = "gpt-5-mini"\nbase_url = "${fake.url}"\n`);
  const c = spawnScreen(home, ["run"], 70, 40);
  await c.waitFor(() => (fake?.requests.length ?? 0) >= 2, "the model's second call (it thinks)");
  await c.waitForText("get_portfolio");
  const markers = ["tradewarden PAPER", "Checking the account first."];
  // The spinner keeps drawing: wait for the clean frame itself instead of for quiet.
  await expectCleanFrameSoon(c, 70, markers);
  c.resize(160);
  await expectCleanFrameSoon(c, 160, markers);
  // A burst of resizes (a window dragged narrower): one clean frame at the final width.
  for (const cols of [140, 120, 100, 90, 80]) {
    c.resize(cols);
    await pause(20);
  }
  await expectCleanFrameSoon(c, 80, markers);
  c.term.write("\u0003");
  await c.waitFor(() => c.exitCode() !== null, "the run to exit");
  expect(c.exitCode()).toBe(130);
}, 90_000);

test("journal browser and kill-switch screen (alternate screen): 70 → 160 → 80 → 160 leave only the new frame; keys still work", async () => {
  const home = screenHome();
  await runWithoutTerminal(home);

  // One journal browser for every resize: widened from a narrow first frame, narrowed, widened again.
  const j = spawnScreen(home, ["journal"], 70, 40);
  await j.waitForText("Journal ·");
  await j.settle();
  const jm = ["tradewarden · Journal · 1 run(s)", "run 1 of 1", "Enter open run"];
  await resizeTo(j, 160);
  expectCleanFrame(j, 160, jm);
  expect(j.screen().join("\n")).toMatch(/\d\d:\d\d UTC/);
  await resizeTo(j, 80);
  expectCleanFrame(j, 80, jm);
  expect(j.screen().join("\n")).not.toMatch(/\d\d:\d\d UTC/);
  // Keys in one chunk: a filter typed at once.
  j.term.write("/await");
  await j.waitForText("await");
  await resizeTo(j, 160);
  expectCleanFrame(j, 160, ["tradewarden · Journal ·", "filter / await"]);
  // One key after the resizes: Esc ends the filter, q leaves.
  j.term.write("\u001b");
  // A lone Esc is told from the start of a sequence by a pause: "q" sent before it is read would be Alt+q.
  await j.waitFor(() => !j.screen().join("\n").includes("filter / await"), "Esc to end the filter");
  j.term.write("q");
  await j.waitFor(() => j.exitCode() !== null, "the journal browser to exit");
  expect(j.exitCode()).toBe(0);

  // One kill-switch screen: widened, narrowed, then the help opens and a further resize redraws it cleanly.
  const k = spawnScreen(home, ["killswitch"], 70, 40);
  await k.waitForText("Kill switch · trading state");
  await k.settle();
  for (const to of [160, 80]) {
    await resizeTo(k, to);
    expectCleanFrame(k, to, ["Kill switch · trading state", "Current value"]);
  }
  // One key after the resize: the help opens, and a further resize redraws it cleanly.
  k.term.write("?");
  await k.waitForText("Keys · kill switch");
  await resizeTo(k, 120);
  expectCleanFrame(k, 120, ["Keys · kill switch"]);
  k.term.write("\u0003");
  await k.waitFor(() => k.exitCode() !== null, "the kill-switch screen to exit");
  expect(k.exitCode()).toBe(130);
}, 120_000);
