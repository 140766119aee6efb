import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type KillSwitchFacts, KillSwitchScreen } from "../../src/screens/KillSwitchScreen.js";
import { halted } from "./fixtures.js";
import { KEY, sendInputAndWaitForChange, typeText, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

function setup(facts: KillSwitchFacts = halted, onReset = vi.fn(async (_a: { reason: string }) => {})) {
  const onExit = vi.fn();
  const onInterrupt = vi.fn();
  const inst = render(<KillSwitchScreen facts={facts} onReset={onReset} onExit={onExit} onInterrupt={onInterrupt} />);
  return { inst, onReset, onExit, onInterrupt };
}

describe("KillSwitchScreen", () => {
  it("pasted text ending with Enter counts as typed, then Enter (word, then reason)", async () => {
    const { inst, onReset } = setup();
    await sendInputAndWaitForChange(inst, "reset\r");
    expect(inst.lastFrame()).toContain('refused: "reset" is not RESET');
    await sendInputAndWaitForChange(inst, "RESET\r");
    await sendInputAndWaitForChange(inst, "losses reviewed\r");
    await waitForFrame(inst, "Kill switch reset");
    expect(onReset).toHaveBeenCalledWith({ reason: "losses reviewed" });
  });

  it("shows why and when trading halted and what a reset does", () => {
    const f = setup().inst.lastFrame() ?? "";
    expect(f).toContain("trading state HALTED");
    expect(f).toContain("Halted (at 2026-03-02 15:30:00 UTC) in run run-7");
    expect(f).toContain("Why: drawdown 11.00% reached the 10% limit");
    expect(f).toContain("Value at trip 89,000.00 USD · peak 100,000.00 USD · drawdown 11.00% (limit 10%)");
    expect(f).toContain("liquidation partial");
    expect(f).toContain("the peak becomes the current value (88,500.00 USD)");
    expect(f).toContain("REDUCING (sells only) for 3 run(s), then ACTIVE");
    expect(f).toContain("Step 1 of 2 · type RESET to reset the kill switch:");
    expect(f).toContain("Esc leave without changes");
  });

  it("refuses a wrong word, then resets with the right word and a reason", async () => {
    const { inst, onReset, onExit } = setup();
    await typeText(inst, "reset");
    let f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain('refused: "reset" is not RESET');
    expect(onReset).not.toHaveBeenCalled();
    await typeText(inst, "RESET");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("Step 2 of 2 · reason (recorded in the journal):");
    expect(f).toContain("Enter reset the kill switch");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("a reason is required");
    expect(onReset).not.toHaveBeenCalled();
    await typeText(inst, "reviewed the losses");
    await sendInputAndWaitForChange(inst, KEY.enter);
    f = await waitForFrame(inst, "✓ Kill switch reset");
    expect(onReset).toHaveBeenCalledWith({ reason: "reviewed the losses" });
    expect(onExit).not.toHaveBeenCalled();
    await sendInputAndWaitForChange(inst, "q", { expectChange: false });
    expect(onExit).toHaveBeenCalledTimes(1);
  });

  it("a failed reset says so and changes nothing", async () => {
    const { inst } = setup(
      halted,
      vi.fn(async () => Promise.reject(new Error("journal locked"))),
    );
    await typeText(inst, "RESET");
    await sendInputAndWaitForChange(inst, KEY.enter);
    await typeText(inst, "x");
    await sendInputAndWaitForChange(inst, KEY.enter);
    await waitForFrame(inst, "reset failed, nothing changed: journal locked");
  });

  it("Esc leaves without changes, from either prompt", async () => {
    const a = setup();
    await typeText(a.inst, "RES");
    await sendInputAndWaitForChange(a.inst, KEY.esc, { expectChange: false });
    expect(a.onExit).toHaveBeenCalledTimes(1);
    expect(a.onReset).not.toHaveBeenCalled();
    cleanup();
    const b = setup();
    await typeText(b.inst, "RESET");
    await sendInputAndWaitForChange(b.inst, KEY.enter);
    await typeText(b.inst, "why");
    await sendInputAndWaitForChange(b.inst, KEY.esc, { expectChange: false });
    expect(b.onExit).toHaveBeenCalledTimes(1);
    expect(b.onReset).not.toHaveBeenCalled();
  });

  it("Ctrl+C calls onInterrupt", async () => {
    const { inst, onInterrupt, onReset } = setup();
    await sendInputAndWaitForChange(inst, KEY.ctrlC, { expectChange: false });
    expect(onInterrupt).toHaveBeenCalledTimes(1);
    expect(onReset).not.toHaveBeenCalled();
  });

  it("when not halted, says so and offers no reset", async () => {
    const { inst, onReset, onExit } = setup({ trading_state: "ACTIVE", liquidation: { status: "none" }, reducing_runs_after_reset: 0, current_value: 100_000 });
    const f = inst.lastFrame() ?? "";
    expect(f).toContain("Trading is not halted: there is nothing to reset.");
    expect(f).not.toContain("type RESET");
    for (const ch of "RESET") await sendInputAndWaitForChange(inst, ch, { expectChange: false });
    await sendInputAndWaitForChange(inst, KEY.enter, { expectChange: false });
    expect(onReset).not.toHaveBeenCalled();
    expect(onExit).toHaveBeenCalled();
  });
});
