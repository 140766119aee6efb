import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReconcileDifference } from "../../src/core/events.js";
import { ReconcileScreen } from "../../src/screens/ReconcileScreen.js";
import { KEY, sendInputAndWaitForChange, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

const position: ReconcileDifference = {
  kind: "unbooked_position",
  symbol: "SPX",
  journal_quantity: 0,
  broker_quantity: 3,
  message: "the broker holds 3 SPX, the journal has no such holding",
  proves: "no journal order explains these shares",
  adoptable: true,
};
const foreign: ReconcileDifference = {
  kind: "unknown_open_order",
  symbol: "ZZZ",
  broker_order_id: "o-9",
  message: "an open ZZZ order o-9",
  proves: "cancel it at the broker",
  adoptable: false,
};

describe("ReconcileScreen", () => {
  it("shows each difference and what it proves; adopts only after the exact word and a reason (pasted with Enter too)", async () => {
    const onAdopt = vi.fn(async (_a: { reason: string }) => [foreign]);
    const inst = render(
      <ReconcileScreen recovered={["tw-r-0 (BUY 3 SPX): intent → filled"]} differences={[position, foreign]} onAdopt={onAdopt} onExit={() => {}} />,
    );
    const f = inst.lastFrame() ?? "";
    expect(f).toContain("Reconcile · 2 difference(s)");
    expect(f).toContain("· tw-r-0 (BUY 3 SPX): intent → filled");
    expect(f).toContain("unbooked_position SPX: the broker holds 3 SPX, the journal has no such holding");
    expect(f).toContain("proves: no journal order explains these shares · adoptable");
    expect(f).toContain("not adoptable: needs an action at the broker or time");
    expect(f).toContain("Type ADOPT to adopt the broker's side:");
    await sendInputAndWaitForChange(inst, "adopt\r");
    expect(inst.lastFrame()).toContain('refused: "adopt" is not ADOPT');
    await sendInputAndWaitForChange(inst, "ADOPT\r");
    await sendInputAndWaitForChange(inst, "\r");
    expect(inst.lastFrame()).toContain("a reason is required");
    expect(onAdopt).not.toHaveBeenCalled();
    await sendInputAndWaitForChange(inst, "bought by hand\r");
    await waitForFrame(inst, "Adopted; 1 difference(s) remain");
    expect(onAdopt).toHaveBeenCalledWith({ reason: "bought by hand" });
  });

  it("Esc leaves without changes", async () => {
    const onAdopt = vi.fn(async () => []);
    const onExit = vi.fn();
    const inst = render(<ReconcileScreen recovered={[]} differences={[position]} onAdopt={onAdopt} onExit={onExit} />);
    await sendInputAndWaitForChange(inst, KEY.esc, { expectChange: false });
    expect(onExit).toHaveBeenCalledTimes(1);
    expect(onAdopt).not.toHaveBeenCalled();
  });
});
