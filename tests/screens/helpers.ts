import type { ProposedOrder } from "../../src/core/domain.js";
import type { GateDecision } from "../../src/core/gate-types.js";
import type { ApprovalRequest } from "../../src/run/approval.js";
import type { RunEvent, RunEventBody } from "../../src/core/events.js";

export const KEY = {
  up: "\u001b[A",
  down: "\u001b[B",
  enter: "\r",
  esc: "\u001b",
  tab: "\t",
  backspace: "\u007f",
  ctrlC: "\u0003",
  pageDown: "\u001b[6~",
  pageUp: "\u001b[5~",
};

interface Inst {
  stdin: { write(s: string): void };
  lastFrame(): string | undefined;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

/** Wait until `pred()` holds (polling between macrotasks), or fail after `timeoutMs`. */
export async function waitFor(pred: () => boolean, timeoutMs = 2000, what = "condition"): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Write one keystroke and wait for the frame to change (React 19 needs the previous frame to land
 * before the next key). With `expectChange: false` it only lets the event loop settle.
 */
export async function sendInputAndWaitForChange(inst: Inst, input: string, opts: { expectChange?: boolean; timeoutMs?: number } = {}): Promise<string> {
  const before = inst.lastFrame();
  inst.stdin.write(input);
  if (opts.expectChange === false) {
    for (let i = 0; i < 5; i++) await tick();
    await new Promise((r) => setTimeout(r, 20));
    return inst.lastFrame() ?? "";
  }
  await waitFor(() => inst.lastFrame() !== before, opts.timeoutMs ?? 2000, `a new frame after ${JSON.stringify(input)}`);
  return inst.lastFrame() ?? "";
}

/** Type a string one key at a time. */
export async function typeText(inst: Inst, text: string): Promise<void> {
  // A trailing space does not change a frame (trailing blanks are trimmed): only let it settle.
  for (const ch of text) await sendInputAndWaitForChange(inst, ch, ch === " " ? { expectChange: false } : {});
}

export async function waitForFrame(inst: Inst, needle: string | RegExp, timeoutMs = 2000): Promise<string> {
  await waitFor(() => {
    const f = inst.lastFrame() ?? "";
    return typeof needle === "string" ? f.includes(needle) : needle.test(f);
  }, timeoutMs, `frame containing ${String(needle)}`);
  return inst.lastFrame() ?? "";
}

let seq = 0;
export function resetSeq(): void {
  seq = 0;
}
export function ev(body: RunEventBody, at = "2026-03-02T14:00:00.000Z"): RunEvent {
  return { ...body, seq: ++seq, at, run_id: "run-1" } as RunEvent;
}

export function order(symbol: string, side: "BUY" | "SELL", quantity: number, limit_price: number, reason = `because ${symbol}`): ProposedOrder {
  return { symbol, side, quantity, limit_price, reason, evidence_ids: [`ev-${symbol.toLowerCase()}`] };
}

/**
 * A tiny deterministic gate for tests: limit within 2% of the reference price, a cash budget for
 * buys, and a blocked-symbol list.
 */
export function fakeGate(opts: { prices: Record<string, number>; cash: number; notAllowed?: string[] }) {
  return (orders: ProposedOrder[]): GateDecision[] => {
    let cash = opts.cash;
    return orders.map((o, index) => {
      const reasons: GateDecision["reasons"] = [];
      const ref = opts.prices[o.symbol];
      if (opts.notAllowed?.includes(o.symbol)) reasons.push({ code: "not_allowlisted", message: `${o.symbol} is not on the allowlist` });
      if (ref !== undefined && Math.abs(o.limit_price - ref) / ref > 0.02)
        reasons.push({ code: "price_band", message: `limit ${o.limit_price} is ${((Math.abs(o.limit_price - ref) / ref) * 100).toFixed(2)}% from price ${ref} (max 2%)` });
      const notional = o.quantity * o.limit_price;
      if (o.side === "BUY") {
        if (notional > cash) reasons.push({ code: "insufficient_cash", message: `needs ${notional}, cash ${cash}` });
        else if (reasons.length === 0) cash -= notional;
      }
      return { index, order: { ...o }, approved: reasons.length === 0, reasons, notional, commission: 1 };
    });
  };
}

export function fakeRequest(orders: ProposedOrder[], opts: { prices?: Record<string, number>; cash?: number; notAllowed?: string[]; summary?: string } = {}): ApprovalRequest & { regateCalls: ProposedOrder[][] } {
  const prices = opts.prices ?? { AAPL: 100, MSFT: 200, TSLA: 50 };
  const gate = fakeGate({ prices, cash: opts.cash ?? 10_000, ...(opts.notAllowed ? { notAllowed: opts.notAllowed } : {}) });
  const regateCalls: ProposedOrder[][] = [];
  return {
    runId: "run-1",
    summary: opts.summary ?? "Rotate into quality: buy AAPL and MSFT.",
    orders,
    decisions: gate(orders),
    regate: (os) => {
      regateCalls.push(os);
      return gate(os);
    },
    portfolioValue: 20_000,
    referencePrices: prices,
    positionValues: {},
    baseCurrency: "USD",
    regateCalls,
  };
}
