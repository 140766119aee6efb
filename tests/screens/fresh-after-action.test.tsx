/**
 * Issue #25: after an action each screen shows the journal's state read back, not the state it
 * opened with. The kill-switch screen after a reset (and after a trip), the reconcile screen after
 * an adoption; the kill-switch screen at 60×30 keeps its title, state and trip day and scrolls.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReconcileDifference } from "../../src/core/events.js";
import { type KillSwitchFacts, KillSwitchScreen } from "../../src/screens/KillSwitchScreen.js";
import { ReconcileScreen } from "../../src/screens/ReconcileScreen.js";
import { type Mounted, mountKillSwitch } from "../../src/screens/run-app.js";
import { io } from "./fake-terminal.js";
import { KEY, sendInputAndWaitForChange, waitFor, waitForFrame } from "./helpers.js";

const mounted: Mounted[] = [];
afterEach(() => {
  cleanup();
  for (const m of mounted.splice(0)) m.unmount();
});

const halted: KillSwitchFacts = {
  trading_state: "HALTED",
  base_currency: "USD",
  tripped_at: "2026-03-02T15:30:00Z",
  run_id: "run-7",
  trading_day: "2007-01-08",
  value_at_trip: 89_000,
  peak: 100_000,
  drawdown_pct: 11,
  limit_pct: 10,
  reason: "drawdown 11.00% reached the 10% limit",
  liquidation: {
    status: "partial",
    detail: "still held: 3 TSLA; the next run that can trade sells it",
    orders: Array.from({ length: 8 }, (_, i) => ({ client_order_id: `tw-run-7-L${i}`, symbol: `S${i}`, quantity: 10, filled_quantity: 5, status: "partial" })),
  },
  current_value: 88_500,
  reducing_runs_after_reset: 3,
};
const reducing: KillSwitchFacts = {
  trading_state: "REDUCING",
  base_currency: "USD",
  liquidation: { status: "none" },
  peak: 88_500,
  drawdown_pct: 0,
  current_value: 88_500,
  reducing_runs_after_reset: 3,
  reducing_runs_left: 3,
};

describe("the kill-switch screen after an action shows the journal's state", () => {
  it("after the reset: title, state line and keys are the facts read back (REDUCING), not HALTED", async () => {
    const onReset = vi.fn(async (_a: { reason: string }) => reducing);
    const inst = render(<KillSwitchScreen facts={halted} onReset={onReset} onExit={vi.fn()} />);
    expect(inst.lastFrame()).toContain("trading state HALTED");
    await sendInputAndWaitForChange(inst, "RESET\r");
    await sendInputAndWaitForChange(inst, "losses reviewed\r");
    const f = await waitForFrame(inst, "✓ Kill switch reset");
    expect(f).toContain("Kill switch · trading state REDUCING");
    expect(f).not.toContain("HALTED");
    expect(f).toContain("✓ Kill switch reset, recorded in the journal: trading state REDUCING (sells only) for 3 run(s).");
    expect(f).toContain("The account is REDUCING: only sells are allowed for 3 more run(s)");
    expect(f).not.toContain("What a reset does");
    expect(f).toContain("q/Esc/Enter leave");
  });

  it("K trips an account that trades after HALT and a reason; the screen then shows it HALTED", async () => {
    const active: KillSwitchFacts = { ...reducing, trading_state: "ACTIVE", reducing_runs_left: 0 };
    const trippedFacts: KillSwitchFacts = { ...halted, reason: "operator tripped the kill switch: news", liquidation: { status: "pending" } };
    const onTrip = vi.fn(async (_a: { reason: string }) => trippedFacts);
    const onReset = vi.fn(async () => undefined);
    const inst = render(<KillSwitchScreen facts={active} onReset={onReset} onTrip={onTrip} onExit={vi.fn()} />);
    let f = inst.lastFrame() ?? "";
    expect(f).toContain("K trip the kill switch");
    expect(f).toContain("What a trip does (K)");
    f = await sendInputAndWaitForChange(inst, "K");
    expect(f).toContain("Step 1 of 2 · type HALT to trip the kill switch:");
    f = await sendInputAndWaitForChange(inst, "halt\r");
    expect(f).toContain('refused: "halt" is not HALT');
    await sendInputAndWaitForChange(inst, "HALT\r");
    f = await sendInputAndWaitForChange(inst, "\r");
    expect(f).toContain("a reason is required");
    expect(onTrip).not.toHaveBeenCalled();
    await sendInputAndWaitForChange(inst, "news\r");
    f = await waitForFrame(inst, "✓ Kill switch tripped");
    expect(onTrip).toHaveBeenCalledWith({ reason: "news" });
    expect(f).toContain("Kill switch · trading state HALTED · trip day 2007-01-08");
    expect(f).toContain("Why: operator tripped the kill switch: news");
    expect(onReset).not.toHaveBeenCalled();
  });

  it("Esc at the trip prompt goes back without tripping; an account without a trip handler has no K", async () => {
    const active: KillSwitchFacts = { ...reducing, trading_state: "ACTIVE" };
    const onTrip = vi.fn(async () => halted);
    const onExit = vi.fn();
    const inst = render(<KillSwitchScreen facts={active} onReset={vi.fn(async () => undefined)} onTrip={onTrip} onExit={onExit} />);
    await sendInputAndWaitForChange(inst, "K");
    await sendInputAndWaitForChange(inst, "HAL");
    const f = await sendInputAndWaitForChange(inst, KEY.esc);
    expect(f).toContain("K trip the kill switch");
    expect(onTrip).not.toHaveBeenCalled();
    expect(onExit).not.toHaveBeenCalled();
    cleanup();
    const plain = render(<KillSwitchScreen facts={active} onReset={vi.fn(async () => undefined)} onExit={vi.fn()} />);
    expect(plain.lastFrame()).not.toContain("trip the kill switch");
  });

  it("at 60×30 the title, the state and the trip day stay in view, and the facts scroll", async () => {
    const t = io(60, 30);
    mounted.push(mountKillSwitch({ facts: halted, onReset: async () => undefined, onExit: () => {} }, t.opts));
    await waitFor(() => t.stdout.lastFrameWith("Step 1 of 2") !== "", 3000, "the kill-switch screen");
    let lines = t.stdout.lastFrameWith("Step 1 of 2").split("\n");
    expect(lines.length).toBeLessThanOrEqual(30);
    expect(lines.every((l) => l.trimEnd().length <= 60)).toBe(true);
    expect(lines.join("\n")).toContain("Kill switch · trading state HALTED · trip day 2007-01-08");
    expect(lines.join("\n")).toMatch(/lines 1–\d+ of \d+ · ↑\/↓ PgUp\/PgDn scroll/);
    expect(lines.join("\n")).not.toContain("holdings are not touched");
    t.stdin.send(KEY.pageDown);
    await waitFor(() => t.stdout.lastFrameWith("holdings are not touched") !== "", 3000, "the end of the facts");
    lines = t.stdout.lastFrameWith("holdings are not touched").split("\n");
    expect(lines.length).toBeLessThanOrEqual(30);
    expect(lines.join("\n")).toContain("Kill switch · trading state HALTED · trip day 2007-01-08");
    expect(lines.join("\n")).toContain("Step 1 of 2 · type RESET to reset the kill switch:");
  });
});

describe("the reconcile screen after adopting shows what is left", () => {
  const position: ReconcileDifference = {
    kind: "unbooked_position",
    symbol: "SPX",
    journal_quantity: 0,
    broker_quantity: 3,
    message: "the broker holds 3 SPX, the journal has no such holding",
    proves: "no journal order explains these shares",
    adoptable: true,
  };

  it("after the adoption the title says they agree, and the adopted difference is gone", async () => {
    const inst = render(<ReconcileScreen recovered={[]} differences={[position]} onAdopt={vi.fn(async () => [])} onExit={vi.fn()} />);
    expect(inst.lastFrame()).toContain("Reconcile · 1 difference(s)");
    await sendInputAndWaitForChange(inst, "ADOPT\r");
    await sendInputAndWaitForChange(inst, "bought by hand\r");
    const f = await waitForFrame(inst, "✓ Adopted");
    expect(f).toContain("Reconcile · the journal and the broker agree");
    expect(f).not.toContain("1 difference(s)");
    expect(f).not.toContain("unbooked_position SPX");
  });
});
