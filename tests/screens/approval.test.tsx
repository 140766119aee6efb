import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApprovalDecision } from "../../src/run/approval.js";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import { ApprovalScreen } from "../../src/screens/ApprovalScreen.js";
import { buildApproval, initialRows, toggleDrop } from "../../src/screens/approval-model.js";
import { fakeRequest, KEY, order, sendInputAndWaitForChange, typeText } from "./helpers.js";

afterEach(() => cleanup());

function setup(req = fakeRequest([order("AAPL", "BUY", 10, 100), order("MSFT", "BUY", 5, 201), order("TSLA", "BUY", 3, 60)])) {
  const decisions: ApprovalDecision[] = [];
  const onInterrupt = vi.fn();
  const inst = render(<ApprovalScreen request={req} onDecide={(d) => decisions.push(d)} onInterrupt={onInterrupt} maxRows={30} typeAheadGuardMs={0} />);
  return { inst, req, decisions, onInterrupt };
}

describe("ApprovalScreen", () => {
  it("a reject reason pasted together with Enter rejects with that reason", async () => {
    const { inst, decisions } = setup();
    await sendInputAndWaitForChange(inst, "r");
    await sendInputAndWaitForChange(inst, "not today\r");
    expect(decisions).toEqual([{ kind: "reject", by: "operator", reason: "not today" }]);
  });

  it("type-ahead guard: say + Enter typed in one burst never approves", async () => {
    const req = fakeRequest([order("AAPL", "BUY", 10, 100)]);
    const decisions: ApprovalDecision[] = [];
    let t = 1_000;
    const inst = render(<ApprovalScreen request={req} onDecide={(d) => decisions.push(d)} onInterrupt={() => {}} maxRows={30} now={() => t} />);
    for (const k of ["s", "a", "y", "\r"]) inst.stdin.write(k);
    await new Promise((r) => setTimeout(r, 100));
    expect(decisions).toHaveLength(0);
    expect(inst.lastFrame()).toContain('approval cancelled: "y" came 0 ms after the prompt, before it could be read');
    // Read, then confirm deliberately: the same keys with time between them approve.
    t += 500;
    await sendInputAndWaitForChange(inst, "a");
    t += 500;
    await sendInputAndWaitForChange(inst, "y");
    t += 500;
    await sendInputAndWaitForChange(inst, KEY.enter);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]?.kind).toBe("approve");
  });

  it("shows the table, verdicts, reasons, summary and keys", () => {
    const { inst } = setup();
    const f = inst.lastFrame() ?? "";
    expect(f).toContain("Approve orders? 3 proposed · 2 approvable · 1 blocked");
    expect(f).toContain("summary: Rotate into quality");
    expect(f).toMatch(/› 1\s+BUY\s+AAPL\s+10\s+100.00\s+100.00\s+1,000.00\s+5.0%\s+ok/);
    expect(f).toMatch(/3\s+BUY\s+TSLA.*BLOCKED price_band/);
    expect(f).toContain("reason: because AAPL");
    expect(f).toContain("evidence: ev-aapl");
    for (const k of [
      "↑/↓ j/k select",
      "Enter full reason & evidence",
      "a approve",
      "e edit",
      "d drop",
      "r reject all",
      "K kill switch",
      "? help",
      "Ctrl+C stop the run (nothing placed)",
    ])
      expect(f).toContain(k);
  });

  it("approves with a second confirmation (a, y, Enter): only approvable orders, hash of exactly them", async () => {
    const { inst, req, decisions } = setup();
    let f = await sendInputAndWaitForChange(inst, "a");
    expect(f).toContain("Send 2 order(s) (1 left out)? Cannot be undone: y, then Enter; any other key cancels.");
    f = await sendInputAndWaitForChange(inst, "y");
    expect(f).toContain("Press Enter to SEND 2 order(s)");
    expect(decisions).toHaveLength(0);
    await sendInputAndWaitForChange(inst, KEY.enter);
    expect(decisions).toHaveLength(1);
    const d = decisions[0];
    if (d?.kind !== "approve") throw new Error("expected approve");
    expect(d.orders.map((o) => o.symbol)).toEqual(["AAPL", "MSFT"]);
    expect(Object.keys(d)).not.toContain("orders_hash"); // the pipeline computes it
    expect(d.by).toBe("operator");
    // The approved set was re-gated as exactly that batch.
    expect(req.regateCalls.at(-1)?.map((o) => o.symbol)).toEqual(["AAPL", "MSFT"]);
  });

  it("a stray digit or Enter can never approve", async () => {
    const { inst, decisions } = setup();
    for (const k of ["1", "2", KEY.enter, "9", " ", "y", KEY.enter]) await sendInputAndWaitForChange(inst, k, { expectChange: false });
    expect(decisions).toHaveLength(0);
    // a then Enter (without y) cancels; a then a digit cancels; a y digit Enter cancels.
    await sendInputAndWaitForChange(inst, "a");
    let f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("approval cancelled");
    await sendInputAndWaitForChange(inst, "a");
    f = await sendInputAndWaitForChange(inst, "1");
    expect(f).toContain("approval cancelled");
    await sendInputAndWaitForChange(inst, "a");
    await sendInputAndWaitForChange(inst, "y");
    f = await sendInputAndWaitForChange(inst, "5");
    expect(f).toContain("approval cancelled");
    await sendInputAndWaitForChange(inst, KEY.enter, { expectChange: false });
    expect(decisions).toHaveLength(0);
  });

  it("edit then re-gate: a shrink stays approvable; an edit that breaks a limit is blocked and cannot be approved", async () => {
    const req = fakeRequest([order("AAPL", "BUY", 10, 100)]);
    const { inst, decisions } = setup(req);
    // Shrink the quantity to 4.
    let f = await sendInputAndWaitForChange(inst, "e");
    expect(f).toContain("▸quantity 10");
    await sendInputAndWaitForChange(inst, KEY.backspace);
    await sendInputAndWaitForChange(inst, KEY.backspace);
    await typeText(inst, "4");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("re-gated: the gate approves the edited order");
    expect(f).toMatch(/AAPL\s+4\s+100.00/);
    expect(f).toContain("ok (edited)");
    // Move the limit 10% away: the price band blocks it.
    await sendInputAndWaitForChange(inst, "e");
    await sendInputAndWaitForChange(inst, KEY.tab);
    for (let i = 0; i < 3; i++) await sendInputAndWaitForChange(inst, KEY.backspace);
    await typeText(inst, "110");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("re-gated: the gate BLOCKS the edited order: price_band");
    expect(f).toContain("BLOCKED price_band");
    expect(f).toContain("limit 110.00 is 10.00% from price 100.00 (max 2%)");
    // Approval is refused: nothing approvable.
    f = await sendInputAndWaitForChange(inst, "a");
    expect(f).toContain("nothing to approve");
    await sendInputAndWaitForChange(inst, "y", { expectChange: false });
    // Enter (no confirmation open) only shows the order's details.
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("order details");
    expect(decisions).toHaveLength(0);
    await sendInputAndWaitForChange(inst, KEY.esc);
    // Undo restores the proposal (approvable again).
    f = await sendInputAndWaitForChange(inst, "u");
    expect(f).toMatch(/AAPL\s+10\s+100.00/);
  });

  it("refuses to grow an order and refuses non-numbers", async () => {
    const { inst } = setup(fakeRequest([order("AAPL", "BUY", 10, 100)]));
    await sendInputAndWaitForChange(inst, "e");
    await typeText(inst, "0"); // 100
    let f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("quantity can only be reduced (proposed 10)");
    for (let i = 0; i < 3; i++) await sendInputAndWaitForChange(inst, KEY.backspace);
    await sendInputAndWaitForChange(inst, "x", { expectChange: false }); // letters are ignored
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("quantity must be a positive number");
    f = await sendInputAndWaitForChange(inst, KEY.esc);
    expect(f).toContain("edit cancelled");
  });

  it("drop: the dropped order is left out of the approval", async () => {
    const { inst, decisions } = setup();
    await sendInputAndWaitForChange(inst, KEY.down);
    let f = await sendInputAndWaitForChange(inst, "d");
    expect(f).toMatch(/2\s+BUY\s+MSFT.*dropped/);
    expect(f).toContain("1 approvable · 1 blocked · 1 dropped");
    expect(f).toContain("order 2 of 3");
    await sendInputAndWaitForChange(inst, "a");
    await sendInputAndWaitForChange(inst, "y");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    const d = decisions[0];
    if (d?.kind !== "approve") throw new Error("expected approve");
    expect(d.orders.map((o) => `${o.symbol}:${o.quantity}`)).toEqual(["AAPL:10"]);
    expect(d.note).toContain("dropped 1");
  });

  it("reject all with a typed reason", async () => {
    const { inst, decisions } = setup();
    let f = await sendInputAndWaitForChange(inst, "r");
    expect(f).toContain("Reject all orders. Reason (optional):");
    await typeText(inst, "too risky");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(decisions).toEqual([{ kind: "reject", reason: "too risky", by: "operator" }]);
    expect(f).toContain("rejected: nothing will be placed");
  });

  it("reject with no reason, and Esc cancels a reject", async () => {
    const { inst, decisions } = setup();
    await sendInputAndWaitForChange(inst, "r");
    await sendInputAndWaitForChange(inst, KEY.esc);
    expect(decisions).toHaveLength(0);
    await sendInputAndWaitForChange(inst, "r");
    await sendInputAndWaitForChange(inst, KEY.enter);
    expect(decisions).toEqual([{ kind: "reject", by: "operator" }]);
  });

  it("kill switch from the approval screen: type HALT (a wrong word is refused) then a reason", async () => {
    const { inst, decisions } = setup();
    let f = await sendInputAndWaitForChange(inst, "K");
    expect(f).toContain("Type HALT");
    await typeText(inst, "halt");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain('refused: "halt" is not HALT; type HALT exactly');
    expect(decisions).toHaveLength(0);
    await typeText(inst, "HALT");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("Reason for tripping the kill switch");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("a reason is required");
    await typeText(inst, "market crash");
    await sendInputAndWaitForChange(inst, KEY.enter);
    expect(decisions).toEqual([{ kind: "killswitch", reason: "market crash", by: "operator" }]);
  });

  it("Ctrl+C calls onInterrupt in every mode and never decides", async () => {
    const { inst, decisions, onInterrupt } = setup();
    await sendInputAndWaitForChange(inst, KEY.ctrlC, { expectChange: false });
    await sendInputAndWaitForChange(inst, "a");
    await sendInputAndWaitForChange(inst, KEY.ctrlC, { expectChange: false });
    expect(onInterrupt).toHaveBeenCalledTimes(2);
    expect(decisions).toHaveLength(0);
  });

  it("sanitises the model's summary and reasons", () => {
    const req = fakeRequest([{ ...order("AAPL", "BUY", 1, 100), reason: "buy \u001b[31mnow\u001b[0m" }], { summary: "sum\u001b]0;x\u0007mary" });
    const { inst } = setup(req);
    const f = inst.lastFrame() ?? "";
    expect(f).not.toContain("\u001b");
    expect(f).toContain("summary: summary");
    expect(f).toContain("reason: buy now");
  });
});

describe("approval model", () => {
  it("never approves a blocked order, even if the batch changed under it", () => {
    const req = fakeRequest([order("AAPL", "BUY", 10, 100), order("TSLA", "BUY", 1, 60)]);
    const built = buildApproval(req, initialRows(req));
    expect(built.ok && built.decision.orders.map((o) => o.symbol)).toEqual(["AAPL"]);
    // If the final re-gate of the subset blocks, nothing is approved.
    const strict = { ...req, regate: () => [{ ...req.decisions[0]!, approved: false, reasons: [{ code: "insufficient_cash" as const, message: "no" }] }] };
    const again = buildApproval(strict, initialRows(req));
    expect(again.ok).toBe(false);
  });

  it("dropping re-gates the remaining batch", () => {
    // Cash for one buy only: 10 × 100 + commission 1.00 = 1,001.00 (5 × 200 + 1.00 likewise), so the
    // second is blocked until the first is dropped.
    const req = fakeRequest([order("AAPL", "BUY", 10, 100), order("MSFT", "BUY", 5, 200)], { cash: 1001 });
    const rows = initialRows(req);
    expect(rows.map((r) => r.decision?.approved)).toEqual([true, false]);
    const dropped = toggleDrop(req, rows, 0);
    expect(dropped.map((r) => r.decision?.approved ?? null)).toEqual([null, true]);
  });
});

describe("ApprovalQueue", () => {
  it("joins decide() to the screen: current, resolve, subscribe", async () => {
    const q = new ApprovalQueue();
    const seen: number[] = [];
    q.subscribe(() => seen.push(q.size));
    const req = fakeRequest([order("AAPL", "BUY", 1, 100)]);
    const p = q.decide(req);
    expect(q.current()).toBe(req);
    expect(q.resolve(req, { kind: "reject", by: "operator" })).toBe(true);
    expect(q.resolve(req, { kind: "reject", by: "operator" })).toBe(false);
    await expect(p).resolves.toEqual({ kind: "reject", by: "operator" });
    expect(q.current()).toBeUndefined();
    expect(seen).toEqual([1, 0]);
  });

  it("an aborted request settles as a rejection (nothing placed)", async () => {
    const q = new ApprovalQueue();
    const ac = new AbortController();
    const p = q.decide({ ...fakeRequest([order("AAPL", "BUY", 1, 100)]), signal: ac.signal });
    ac.abort();
    await expect(p).resolves.toMatchObject({ kind: "reject" });
    expect(q.size).toBe(0);
  });
});

describe("ApprovalScreen undo and q", () => {
  it("u undoes only the selected order's edits, U undoes every edit and drop, each re-gated and said", async () => {
    const { inst, decisions } = setup();
    // Edit AAPL's quantity down to 4, drop MSFT.
    await sendInputAndWaitForChange(inst, "e");
    await sendInputAndWaitForChange(inst, KEY.backspace);
    await sendInputAndWaitForChange(inst, KEY.backspace);
    await typeText(inst, "4");
    let f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toMatch(/AAPL\s+4\s+100.00/);
    await sendInputAndWaitForChange(inst, KEY.down);
    f = await sendInputAndWaitForChange(inst, "d");
    expect(f).toMatch(/MSFT.*dropped/i);
    // u on MSFT restores MSFT only: AAPL keeps its edit.
    f = await sendInputAndWaitForChange(inst, "u");
    expect(f).toContain("order 2 is back as proposed (re-gated)");
    expect(f).toMatch(/AAPL\s+4\s+100.00/);
    expect(f).not.toMatch(/MSFT.*dropped/i);
    // Drop MSFT again, then U restores everything.
    await sendInputAndWaitForChange(inst, "d");
    f = await sendInputAndWaitForChange(inst, "U");
    expect(f).toContain("every order is back as proposed (re-gated)");
    expect(f).toMatch(/AAPL\s+10\s+100.00/);
    expect(f).not.toMatch(/MSFT.*dropped/i);
    expect(decisions).toHaveLength(0);
  });

  it("q says how to leave instead of doing nothing, and decides nothing", async () => {
    const { inst, decisions, onInterrupt } = setup();
    const f = await sendInputAndWaitForChange(inst, "q");
    expect(f).toContain("q does not leave: decide with a, r or K, or Ctrl+C to stop the run (nothing placed)");
    expect(decisions).toHaveLength(0);
    expect(onInterrupt).not.toHaveBeenCalled();
  });
});
