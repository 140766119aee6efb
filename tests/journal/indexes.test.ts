/**
 * The indexes `apply` keeps (src/journal/indexes.ts) answer exactly what the scans over the whole
 * state they replace answered: after any sequence of run, order, fill, ledger and usage events
 * (duplicates and undone runs included), and on a journal after writes and after a reopen.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OrderStatus } from "../../src/core/domain.js";
import type { GateDecision } from "../../src/core/gate-types.js";
import { lastCompletedRun, runningRunIds, scanLastCompleted, unsettledFundedBuys } from "../../src/journal/indexes.js";
import { openJournal } from "../../src/journal/journal.js";
import { fold } from "../../src/journal/load.js";
import { bookedQuantity, isUnsettled, unsettledOrders } from "../../src/journal/settled.js";
import { apply, emptyState, type State } from "../../src/journal/state.js";
import type { JournalEvent, JournalEventBody, OrderRecord, RunRecord } from "../../src/journal/types.js";
import { holdingsCopy, holdingsView, spendInMonth } from "../../src/journal/views.js";
import { BROKER, buy, finish, freshJournal, MODEL, startRun, tmpHome } from "./helpers.js";

type Op =
  | { k: "start"; run: number; day: number }
  | { k: "finish"; run: number; status: "completed" | "failed" }
  | { k: "abort"; run: number }
  | { k: "value"; run: number }
  | { k: "intent"; order: number; run: number }
  | { k: "update"; order: number; status: OrderStatus; filled?: number }
  | { k: "fill"; order: number; run: number; qty: number }
  | { k: "ledger"; amount: number; deposit: boolean }
  | { k: "usage"; micros: number; month: number }
  | { k: "gate"; run: number; funded: boolean[] }
  | { k: "funded"; run: number; index: number };

const small = (n: number) => fc.integer({ min: 0, max: n });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant("start" as const), run: small(5), day: small(4) }),
  fc.record({ k: fc.constant("finish" as const), run: small(5), status: fc.constantFrom("completed" as const, "failed" as const) }),
  fc.record({ k: fc.constant("abort" as const), run: small(5) }),
  fc.record({ k: fc.constant("value" as const), run: small(5) }),
  fc.record({ k: fc.constant("intent" as const), order: small(6), run: small(5) }),
  fc.record({
    k: fc.constant("update" as const),
    order: small(6),
    status: fc.constantFrom<OrderStatus>("accepted", "partially_filled", "filled", "cancelled", "expired", "rejected", "uncertain"),
    filled: fc.option(small(4), { nil: undefined }),
  }),
  fc.record({ k: fc.constant("fill" as const), order: small(6), run: small(5), qty: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ k: fc.constant("ledger" as const), amount: fc.integer({ min: -50_000, max: 50_000 }), deposit: fc.boolean() }),
  fc.record({ k: fc.constant("usage" as const), micros: small(2_000_000), month: small(2) }),
  fc.record({ k: fc.constant("gate" as const), run: small(5), funded: fc.array(fc.boolean(), { maxLength: 3 }) }),
  fc.record({ k: fc.constant("funded" as const), run: small(5), index: small(2) }),
);

/** A final-gate decision; the funded-buy rule reads whether it is approved, funded and its index. */
const decision = (index: number, funded: boolean): GateDecision => ({
  index,
  order: { symbol: "ALFA", side: "BUY", quantity: 1, limit_price: 10 },
  approved: index % 3 !== 2,
  reasons: [],
  notional: 10,
  commission: 1,
  ...(funded ? { funded_by_sells: { amount_minor: 100, currency: "USD" } } : {}),
});

const AT = "2024-01-02T14:00:00.000Z";
const run = (id: string, day: number): RunRecord => ({
  run_id: id,
  mode: "paper",
  trading_day: `2024-01-0${day + 1}`,
  started_at: AT,
  finished_at: null,
  status: "running",
  outcome: null,
  exit_code: null,
  message: null,
  model: MODEL,
  broker: BROKER,
  pid: 1,
  host: "h",
  first_value_minor: null,
  previous_value_minor: null,
  peak_after_minor: null,
  cost_micros: 0,
  notes: [],
});
const order = (id: string, runId: string): OrderRecord => ({
  run_id: runId,
  client_order_id: id,
  index: 0,
  symbol: "AAA",
  side: "BUY",
  quantity: 3,
  limit_price: 10,
  liquidation: false,
  currency: "USD",
  broker_order_id: null,
  status: "intent",
  filled_quantity: 0,
  history: [{ status: "intent", at: AT }],
  created_at: AT,
  counted_at: null,
});

let fillN = 0;
function eventOf(op: Op, seq: number): JournalEvent {
  const r = `r${"run" in op ? op.run : 0}`;
  const o = `o${"order" in op ? op.order : 0}`;
  const body = ((): JournalEventBody => {
    switch (op.k) {
      case "start":
        return { t: "run_start", run: run(r, op.day) };
      case "finish":
        return { t: "run_finish", run_id: r, status: op.status, outcome: "executed", exit_code: 0, message: "m", at: AT };
      case "abort":
        return { t: "run_abort", run_id: r, at: AT, message: "gone" };
      case "value":
        return { t: "valuation", run_id: r, value_minor: 100 + seq, at: AT };
      case "intent":
        return { t: "order_intent", order: order(o, r) };
      case "update":
        return {
          t: "order_update",
          client_order_id: o,
          entry: { status: op.status, at: AT, ...(op.filled === undefined ? {} : { filled_quantity: op.filled }) },
        };
      case "fill": {
        const fill = { fill_id: `f${fillN++}`, client_order_id: o, run_id: r, symbol: "AAA", side: "BUY" as const, quantity: op.qty, price: 10 };
        return { t: "fill", fill: { ...fill, fx_to_base: 1, gross_minor: op.qty * 1000, commission_minor: 1, at: AT, ledger: true } };
      }
      case "ledger":
        return { t: "import_ledger", kind: op.deposit ? "deposit" : "commission", amount_minor: op.amount, at: AT };
      case "gate":
        return { t: "final_gate", run_id: r, decisions: op.funded.map((f, i) => decision(i, f)), at: AT };
      case "funded": {
        const fields = { index: op.index, symbol: "AAA", limit_price: 1, quantity: 1, placed_quantity: 0, funded_minor: 0, currency: "USD" };
        return { t: "funded_buy", record: { run_id: r, at: AT, ...fields, outcome: "not_placed", reason: "r" } };
      }
      case "usage":
        return {
          t: "usage",
          record: {
            run_id: r,
            model: "m",
            usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
            cost_micros: op.micros,
            at: `2024-0${op.month + 1}-15T00:00:00Z`,
          },
        };
    }
  })();
  return { ...body, seq };
}

/** Every indexed answer, and the scan over the whole state each replaces. */
function answers(s: State) {
  const fillsOf = (key: "run_id" | "client_order_id", id: string) => s.fillList.filter((f) => f[key] === id).map((f) => f.fill_id);
  const ids = (m: Map<string, unknown>) => [...m.keys()];
  const indexed = {
    unsettled: unsettledOrders(s).map((o) => o.client_order_id),
    cashFlow: s.idx.tradingFlowMinor,
    lastCompleted: lastCompletedRun(s)?.run_id ?? null,
    byRun: ids(s.runs).map((id) => (s.idx.fillsByRun.get(id) ?? []).map((f) => f.fill_id)),
    byOrder: ids(s.orders).map((id) => (s.idx.fillsByOrder.get(id) ?? []).map((f) => f.fill_id)),
    holdings: holdingsCopy(s),
    running: runningRunIds(s),
    funded: unsettledFundedBuys(s).map(({ run_id, decision }) => `${run_id}#${decision.index}`),
  };
  const scanned = {
    unsettled: [...s.orders.values()].filter((o) => isUnsettled(o, bookedQuantity(s, o.client_order_id))).map((o) => o.client_order_id),
    cashFlow: s.ledger.reduce((a, e) => (e.kind === "deposit" ? a : a + e.amount_minor), 0),
    lastCompleted: scanLastCompleted(s)?.run_id ?? null,
    byRun: ids(s.runs).map((id) => fillsOf("run_id", id)),
    byOrder: ids(s.orders).map((id) => fillsOf("client_order_id", id)),
    holdings: holdingsView(s),
    running: s.runIds.filter((x) => s.runs.get(x)?.status === "running"),
    funded: [...s.finalGates].flatMap(([run_id, ds]) =>
      ds.filter((d) => d.approved && d.funded_by_sells && !s.fundedBuys.has(`${run_id}#${d.index}`)).map((d) => `${run_id}#${d.index}`),
    ),
  };
  return { indexed, scanned };
}

describe("the state's indexes", () => {
  // A run id started twice makes the run answers scan: once with such starts, once with none (a start
  // of a known run becomes its valuation), so the incremental answers meet every other sequence.
  it.each([true, false])("answer what a scan of the whole state answers, after every event (run ids started twice: %s)", (twice) => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60, size: "max" }), (ops) => {
        const s = emptyState();
        const events: JournalEvent[] = [];
        ops.forEach((op, i) => {
          const again = op.k === "start" && !twice && s.runs.has(`r${op.run}`);
          const ev = eventOf(again ? { k: "value", run: op.run } : op, i + 1);
          events.push(ev);
          apply(s, ev);
          const { indexed, scanned } = answers(s);
          expect(indexed).toEqual(scanned);
        });
        if (!twice) expect(s.idx.scanRuns).toBe(false);
        // A reopen folds the log again: the same indexes.
        expect(answers(fold(events)).indexed).toEqual(answers(s).indexed);
      }),
      { numRuns: 1000 },
    );
  });

  it("keep each month's spend in step as usage is added, whichever months are asked", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(small(3_000_000), small(2), small(2)), { minLength: 1, maxLength: 40, size: "max" }), (steps) => {
        const s = emptyState();
        const window = (m: number) => ({ start: Date.UTC(2024, m, 1), end: Date.UTC(2024, m + 1, 1) });
        steps.forEach(([micros, month, asked], i) => {
          apply(s, eventOf({ k: "usage", micros, month }, i + 1));
          const w = window(asked);
          const scan = s.usage.filter((u) => Date.parse(u.at) >= w.start && Date.parse(u.at) < w.end).reduce((a, u) => a + u.cost_micros, 0);
          expect(spendInMonth(s, w)).toBe(scan / 1_000_000);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe("a journal's indexed reads", () => {
  it("hand out holdings a reader may change without changing the next answer", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 5, 10, 1);
    const first = j.holdings();
    (first.AAA as { quantity: number }).quantity = 99;
    delete first.AAA;
    expect(j.holdings()).toEqual({ AAA: { quantity: 5, avg_cost: 10.2, cost_basis: 51, currency: "USD" } });
  });

  it("agree with the records after writes and after a reopen", async () => {
    const home = tmpHome();
    const j = await freshJournal({ home });
    await startRun(j, "r1", "2024-01-02T14:00:00Z");
    await buy(j, "r1", "c1", "AAA", 5, 10, 1);
    await j.observeFirstValuation("r1", 10_000, "2024-01-02T14:10:00Z");
    await finish(j, "r1");
    await startRun(j, "r2", "2024-01-03T14:00:00Z");
    await j.recordOrderIntent({
      run_id: "r2",
      client_order_id: "c2",
      index: 0,
      symbol: "BBB",
      side: "BUY",
      quantity: 2,
      limit_price: 5,
      at: "2024-01-03T14:30:00Z",
    });
    await j.recordOrderUpdate("c2", { status: "accepted", broker_order_id: "b-c2", at: "2024-01-03T14:31:00Z" });
    const read = (x: typeof j) => ({
      unsettled: x.unsettledOrders().map((o) => o.client_order_id),
      last: x.lastCompletedTradingDay(),
      withFills: x.lastRunWithFills("r2"),
      fills: x.fills("r1").map((f) => f.fill_id),
      flow: x.tradingCashFlowMinor(),
      ledgerFlow: x
        .ledger()
        .filter((e) => e.kind !== "deposit")
        .reduce((a, e) => a + e.amount_minor, 0),
    });
    const before = read(j);
    expect(before).toMatchObject({ unsettled: ["c2"], last: { run_id: "r1", trading_day: "2024-01-02" }, withFills: { run_id: "r1" }, fills: ["f-c1"] });
    expect(before.flow).toBe(before.ledgerFlow);
    await j.close();
    const again = await openJournal(home, { timezone: "UTC", fsync: false });
    expect(read(again)).toEqual(before);
  });

  it("tell each order's activity as a fresh open does, after the order moves on", async () => {
    const home = tmpHome();
    const j = await freshJournal({ home });
    await startRun(j, "r1");
    const at = "2024-01-02T14:30:00Z";
    await j.recordOrderIntent({ run_id: "r1", client_order_id: "c1", index: 0, symbol: "AAA", side: "BUY", quantity: 4, limit_price: 10, at });
    await j.recordOrderUpdate("c1", { status: "accepted", broker_order_id: "b-c1", at });
    const fresh = async () => (await openJournal(home, { timezone: "UTC", fsync: false })).recentActivity(10);
    const told: string[] = [];
    const step = async (write: () => Promise<unknown>) => {
      await write();
      const now = j.recentActivity(10);
      now[0] && Object.assign(now[0], { detail: "changed by a reader" });
      expect(j.recentActivity(10)).toEqual(await fresh());
      told.push(j.recentActivity(10)[0]?.detail ?? "");
    };
    await step(async () => undefined);
    await step(() => j.bookFill("c1", { fill_id: "f1", symbol: "AAA", side: "BUY", quantity: 1, price: 10, commission: 0, fx_to_base: 1, at }));
    await step(() => j.bookFill("c1", { fill_id: "f2", symbol: "AAA", side: "BUY", quantity: 1, price: 11, commission: 0, fx_to_base: 1, at }));
    await step(() => j.recordOrderUpdate("c1", { status: "cancelled", filled_quantity: 2, at }));
    expect(told).toEqual(["accepted", "accepted, 1 of 4 filled", "accepted, 2 of 4 filled", "partially filled 2 of 4 at 10.5, rest cancelled"]);
  });
});
