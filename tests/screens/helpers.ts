import type { Instrument, PriceSource, ProposedOrder } from "../../src/core/domain.js";
import { defaultConfig, limitsOf } from "../../src/config/load.js";
import { evaluate, type GateDecision, type GateOrder } from "../../src/gate/index.js";
import { buildGateInputs } from "../../src/run/gate-inputs.js";
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
  await waitFor(
    () => {
      const f = inst.lastFrame() ?? "";
      return typeof needle === "string" ? f.includes(needle) : needle.test(f);
    },
    timeoutMs,
    `frame containing ${String(needle)}`,
  );
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
 * The real gate for screen tests, on facts the test chooses: reference prices (fresh, in USD), the
 * cash, the holdings, and symbols left off the allowlist. Decisions come in the gate's order (sells
 * first), as the gate's events carry them. The limits are the built-in ones with the position limit
 * and the monthly quota out of the way (the screens test the approval flow, not those limits); the
 * commission is the simulated broker's built-in schedule.
 */
export function fakeGate(opts: { prices: Record<string, number>; cash: number; holdings?: Record<string, number>; notAllowed?: string[] }) {
  const config = defaultConfig();
  const limits = { ...limitsOf(config), max_position_pct: 100, max_orders_per_month: 1000 };
  const universe: Instrument[] = Object.keys(opts.prices)
    .filter((s) => !opts.notAllowed?.includes(s))
    .map((symbol) => ({ symbol, currency: "USD" }));
  const prices: PriceSource = {
    referencePrice: (symbol) => {
      const price = opts.prices[symbol.toUpperCase()];
      return price === undefined ? undefined : { symbol: symbol.toUpperCase(), price, as_of: "2026-02-27", currency: "USD", fx_to_base: 1 };
    },
  };
  return (orders: ProposedOrder[]): GateDecision[] => {
    const g = buildGateInputs({
      facts: {
        cash: opts.cash,
        holdings: Object.fromEntries(Object.entries(opts.holdings ?? {}).map(([s, quantity]) => [s, { quantity }])),
        peak: opts.cash,
        ordersThisMonth: 0,
        tradingState: "ACTIVE",
      },
      openOrders: [],
      prices,
      universe,
      limits,
      schedule: config.broker.sim,
      tradingDay: "2026-03-02",
    });
    const gateOrders: GateOrder[] = orders.map((o) => ({ ...o }));
    return evaluate(gateOrders, g.state, g.market, g.limits, g.universe, { commission: g.commission }).decisions;
  };
}

export function fakeRequest(
  orders: ProposedOrder[],
  opts: { prices?: Record<string, number>; cash?: number; holdings?: Record<string, number>; notAllowed?: string[]; summary?: string } = {},
): ApprovalRequest & { regateCalls: ProposedOrder[][] } {
  const prices = opts.prices ?? { AAPL: 100, MSFT: 200, TSLA: 50 };
  const evaluate = fakeGate({
    prices,
    cash: opts.cash ?? 10_000,
    ...(opts.holdings ? { holdings: opts.holdings } : {}),
    ...(opts.notAllowed ? { notAllowed: opts.notAllowed } : {}),
  });
  // Verdicts in the gate's order (sells first), each carrying the index of the order it answers.
  const gate = (os: ProposedOrder[]) => evaluate(os);
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
