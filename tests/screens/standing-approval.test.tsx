/**
 * The operator decides the model's proposed standing orders on the console: marks per order, Enter
 * to review, `y` on its own to record. The decision goes through the console's approval queue into
 * the real journal (approve binds to the order's binding hash; reject ends it; the rest stay proposed).
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bindingHash, SIDE_OF, type StandingOrder, type StandingType } from "../../src/journal/standing-orders.js";
import type { StandingDecision } from "../../src/run/approval.js";
import { approveProposedStanding } from "../../src/run/standing-approval.js";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import { RunApp } from "../../src/screens/run-app.js";
import { createRunStore } from "../../src/screens/run-state.js";
import { StandingApprovalScreen } from "../../src/screens/StandingApprovalScreen.js";
import { freshJournal, startRun } from "../journal/helpers.js";
import { KEY, sendInputAndWaitForChange, waitFor } from "./helpers.js";

afterEach(() => cleanup());

function standing(id: string, type: StandingType, trigger: number, run = "r1"): StandingOrder {
  const o: StandingOrder = {
    id,
    symbol: "ALFA",
    type,
    trigger_price: trigger,
    side: SIDE_OF[type],
    quantity: 2,
    limit_price: trigger,
    expires_on: "2024-01-31",
    reason: `why ${id}`,
    evidence_ids: ["e"],
    proposed_run: run,
    proposed_day: "2024-01-02",
    proposed_at: "2024-01-02T15:00:00Z",
    ttl_trading_days: 20,
    binding_hash: "",
    status: "proposed",
  };
  return { ...o, binding_hash: bindingHash(o) };
}

const orders = [standing("so-1", "stop_loss", 90), standing("so-2", "take_profit", 120), standing("so-3", "buy_limit_below", 80)];

describe("StandingApprovalScreen", () => {
  it("marks each order, reviews, and records only on a y that arrives alone", async () => {
    const onDecide = vi.fn((_d: StandingDecision) => {});
    const inst = render(<StandingApprovalScreen request={{ runId: "r1", orders }} onDecide={onDecide} onInterrupt={() => {}} />);
    const f = inst.lastFrame() ?? "";
    expect(f).toContain("Standing orders proposed in this run (3)");
    expect(f).toContain("so-1  stop loss ALFA at 90.00 → SELL 2 @ 90.00, armed through 2024-01-31");
    expect(f).toContain("reason: why so-1");
    // Held keys and SSH deliver marks together: each is handled in turn (approve so-1, reject so-2).
    await sendInputAndWaitForChange(inst, "ar");
    expect(inst.lastFrame()).toMatch(/\[approve] so-1/);
    expect(inst.lastFrame()).toMatch(/\[reject ] so-2/);
    expect(inst.lastFrame()).toMatch(/\[leave {2}] so-3/);
    // Enter and y typed ahead together: back to the list, nothing recorded, and it says why.
    await sendInputAndWaitForChange(inst, "\ry");
    expect(onDecide).not.toHaveBeenCalled();
    expect(inst.lastFrame()).toContain('not recorded: Enter and "y" arrived together');
    await sendInputAndWaitForChange(inst, "\r");
    expect(inst.lastFrame()).toContain("Record: approve 1, reject 1, leave 1 for later? Press y.");
    await sendInputAndWaitForChange(inst, "y", { expectChange: false });
    expect(onDecide).toHaveBeenCalledWith({
      by: "operator",
      approved: ["so-1"],
      rejected: [{ id: "so-2", reason: "rejected by the operator on the console" }],
    });
  });

  it("Esc leaves every order proposed", async () => {
    const onDecide = vi.fn((_d: StandingDecision) => {});
    const inst = render(<StandingApprovalScreen request={{ runId: "r1", orders }} onDecide={onDecide} onInterrupt={() => {}} />);
    await sendInputAndWaitForChange(inst, "a");
    await sendInputAndWaitForChange(inst, KEY.esc, { expectChange: false });
    expect(onDecide).toHaveBeenCalledWith({ by: "operator", approved: [], rejected: [] });
  });
});

describe("the console's decision reaches the journal", () => {
  it("approved binds to the binding hash, rejected ends, the rest stay proposed; an interrupted run decides nothing", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await j.commitStanding(() => ({ events: orders.map((order) => ({ kind: "propose" as const, order })), result: null }));
    const queue = new ApprovalQueue();
    const notes: string[] = [];
    const done = approveProposedStanding({
      journal: j,
      runId: "r1",
      approver: queue,
      emit: (e) => e.type === "run.note" && notes.push(e.message),
      now: () => new Date("2024-01-02T16:00:00Z"),
    });
    await waitFor(() => queue.currentStanding() !== undefined);
    const req = queue.currentStanding();
    expect(req?.orders.map((o) => o.id)).toEqual(["so-1", "so-2", "so-3"]);
    queue.resolveStanding(req!, { by: "operator", approved: ["so-1"], rejected: [{ id: "so-2", reason: "too tight" }] });
    await done;
    const st = j.standingState().orders;
    expect(st.get("so-1")).toMatchObject({ status: "active", approval: { by: "operator", binding_hash: orders[0]?.binding_hash } });
    expect(st.get("so-2")).toMatchObject({ status: "rejected", end: { by: "operator", reason: "too tight" } });
    expect(st.get("so-3")?.status).toBe("proposed");
    expect(notes.join("\n")).toMatch(/so-3: .*awaiting approval \(tradewarden standing approve so-3\)/);

    // A run interrupted while the list is on screen leaves its orders proposed.
    const j2 = await freshJournal();
    await startRun(j2, "r1");
    await j2.commitStanding(() => ({ events: orders.map((order) => ({ kind: "propose" as const, order })), result: null }));
    const ac = new AbortController();
    const q2 = new ApprovalQueue();
    const pending = approveProposedStanding({ journal: j2, runId: "r1", approver: q2, emit: () => {}, now: () => new Date(), signal: ac.signal });
    await waitFor(() => q2.currentStanding() !== undefined);
    ac.abort();
    await pending;
    expect([...j2.standingState().orders.values()].every((o) => o.status === "proposed")).toBe(true);
  });
});

describe("the run console", () => {
  it("shows the model's standing orders while the pipeline waits, and hands the operator's decision back", async () => {
    const store = createRunStore();
    const queue = new ApprovalQueue();
    const inst = render(<RunApp store={store} queue={queue} onInterrupt={() => {}} />);
    const decided = queue.decideStanding({ runId: "r1", orders: orders.slice(0, 1) });
    await waitFor(() => (inst.lastFrame() ?? "").includes("Standing orders proposed in this run (1)"));
    await sendInputAndWaitForChange(inst, "a");
    await sendInputAndWaitForChange(inst, "\r");
    await sendInputAndWaitForChange(inst, "y");
    expect(await decided).toEqual({ by: "operator", approved: ["so-1"], rejected: [] });
    expect(inst.lastFrame()).not.toContain("Standing orders proposed");
  });
});

describe("help", () => {
  it("? lists every key of the screen; any key closes it", async () => {
    const inst = render(<StandingApprovalScreen request={{ runId: "r1", orders }} onDecide={() => {}} onInterrupt={() => {}} />);
    const f = await sendInputAndWaitForChange(inst, "?");
    for (const k of ["approve", "reject", "leave for later", "review and record", "leave them all for later", "stop the run"]) expect(f).toContain(k);
    expect(await sendInputAndWaitForChange(inst, "x")).toContain("Standing orders proposed in this run (3)");
  });
});
