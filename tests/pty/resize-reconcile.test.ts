/**
 * Resizing the reconcile screen (drawn inline, below what the terminal showed before): after each
 * resize only the new frame is in view, and keys typed in one chunk still reach the prompt.
 */
import { expect, test } from "vitest";
import { strayBuy } from "../e2e/stray.js";
import { runIn } from "../recovery/harness.js";
import { count, screenHome, spawnScreen } from "./screen-helpers.js";

test("reconcile screen: 120 → 80 → 160 leaves only the new frame; a chunk of keys still reaches the prompt", async () => {
  const home = screenHome();
  expect((await runIn(home)).summary.exitCode).toBe(0);
  await strayBuy(home, "SPX", 2);
  const c = spawnScreen(home, ["reconcile"], 120, 40);
  await c.waitForText("Type ADOPT to adopt the broker's side:");
  await c.settle();
  const markers = ["Type ADOPT to adopt the broker's side:", "unbooked_position SPX"];
  for (const cols of [80, 160]) {
    c.resize(cols);
    await c.settle();
    const lines = c.screen();
    const frame = lines.join("\n");
    expect(c.vt.wrappedRows(), frame).toEqual([]);
    for (const l of lines) expect(l.length, frame).toBeLessThanOrEqual(cols);
    for (const m of markers) expect(count(lines, m), `${m} in\n${frame}`).toBe(1);
  }
  c.term.write("adopt\r");
  await c.waitForText('refused: "adopt" is not ADOPT');
  c.term.write("\u0003");
  await c.waitFor(() => c.exitCode() !== null, "reconcile to exit");
}, 90_000);
