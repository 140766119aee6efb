/**
 * The simulated paper broker: its own book (cash, positions, orders, fills) persisted as JSON at
 * `<home>/sim-broker.json`, separate from the journal, so reconciliation compares two books.
 *
 * Time: a simulated clock over the market data's trading calendar. `beginDay()` closes the open
 * day, if any (its working orders expire at the close), and opens the next unplayed day; every
 * daily run trades on a new day. `endDay()` closes the day explicitly.
 *
 * Orders: limit DAY orders fill against the trading day's bar. The order is acknowledged as
 * `accepted` (the POST's response) and is worked against the whole day's bar right away, so the
 * first status poll sees its fills: a BUY fills when low ≤ limit, at the open if open ≤ limit,
 * else at the limit; a SELL when high ≥ limit, at the open if open ≥ limit, else at the limit.
 * At most `participation_pct`% of the day's volume fills per symbol and day (shared by the day's
 * orders); what cannot fill keeps working — until cancelled or the close expires it (with
 * `closeAfterWork`, the remainder expires right after it is worked: fast many-day simulation).
 * Commission: max(min, per_share × qty), capped at max_pct% of the value, charged cumulatively
 * per order so partial fills pay the schedule once.
 *
 * Fault injection (tests): see `SimFault` (simulated-faults.ts). The matching engine and the money
 * are in simulated-engine.ts, order checks and records in simulated-orders.ts, persistence in
 * simulated-store.ts, the defaults and options in simulated-options.ts.
 */
import { appendFileSync } from "node:fs";
import type { SimBrokerConfig } from "../config/types.js";
import type { MarketData } from "../market/data.js";
import { BrokerError } from "./errors.js";
import { DEFAULT_SIM_CONFIG, type SimBrokerOptions } from "./simulated-options.js";
import type { OrderFault, SimFault } from "./simulated-faults.js";
import { applyFill, fillPrice, publicOrder, type SimPricing, USD_PRICING } from "./simulated-engine.js";
import { newSimOrder, orderLogRecord, validateOrder } from "./simulated-orders.js";
import { type LogRecord, logPath, newSimState, readSimState, type SimFill, type SimOrder, type SimState, writeSimState } from "./simulated-store.js";
import {
  type Broker,
  type BrokerAccount,
  type BrokerClock,
  type BrokerEndpoint,
  type BrokerFill,
  type BrokerOrder,
  type BrokerPosition,
  isWorking,
  type PlaceOrderRequest,
} from "./types.js";

export class SimBroker implements Broker {
  readonly config: SimBrokerConfig;
  private state: SimState;
  private readonly market: MarketData;
  private readonly path: string | undefined;
  private readonly now: () => Date;
  private readonly closeAfterWork: boolean;
  private readonly keepClosedOrders: boolean;
  private readonly pricing: SimPricing;
  private readonly snapshotEvery: number;
  private readonly durable: boolean;
  /** Day changes logged since the last snapshot. */
  private dayChangesLogged = 0;
  private readonly byClientId = new Map<string, SimOrder>();
  private readonly byId = new Map<string, SimOrder>();
  private readonly fillsByOrder = new Map<string, SimFill[]>();
  /** Shares filled today per symbol (the participation cap is shared). */
  private readonly usedToday = new Map<string, number>();
  /** Orders still working. */
  private readonly working = new Set<SimOrder>();
  private pendingFaults: OrderFault[] = [];
  private unreachableCalls = 0;
  /** Remaining fills() calls during which an order's fills are still "settling". */
  private readonly settleLag = new Map<string, number>();

  constructor(opts: SimBrokerOptions & { state: SimState }) {
    this.market = opts.market;
    this.config = opts.config ?? DEFAULT_SIM_CONFIG;
    this.path = opts.path;
    this.now = opts.now ?? (() => new Date());
    this.closeAfterWork = opts.closeAfterWork ?? false;
    this.keepClosedOrders = opts.keepClosedOrders ?? true;
    this.pricing = opts.pricing ?? USD_PRICING;
    this.snapshotEvery = Math.max(1, Math.floor(opts.snapshotEvery ?? 1));
    this.durable = opts.durable ?? true;
    this.state = opts.state;
    this.reindex();
  }

  /** Opens the persisted simulation at `opts.path`, creating a fresh one (and saving it) if none exists. */
  /** `persistNew: false` (read-only views) keeps a fresh book in memory until something writes it. */
  static open(opts: SimBrokerOptions & { start?: string | null; cash?: number; persistNew?: boolean }): SimBroker {
    const existing = opts.path ? readSimState(opts.path) : undefined;
    const state =
      existing ??
      newSimState(opts.market, {
        start: opts.start ?? opts.config?.start_date ?? null,
        currency: (opts.pricing ?? USD_PRICING).base,
        ...(opts.cash ? { cash: opts.cash } : {}),
      });
    const broker = new SimBroker({ ...opts, state });
    if (!existing && opts.persistNew !== false) broker.save();
    return broker;
  }

  // ---- test hooks -------------------------------------------------------------------------

  inject(fault: SimFault): void {
    if (fault.kind === "unreachable") this.unreachableCalls = fault.calls ?? Number.POSITIVE_INFINITY;
    else this.pendingFaults.push(fault);
  }

  heal(): void {
    this.unreachableCalls = 0;
    this.pendingFaults = [];
  }

  /** A copy of the whole book (tests, `sim status`). */
  snapshot(): SimState {
    return structuredClone(this.state);
  }

  // ---- the simulated clock ----------------------------------------------------------------

  /** The day the next `beginDay()` opens (undefined: the data has run out). */
  nextDay(): string | undefined {
    if (this.state.day_open) return this.state.current_day ?? undefined;
    if (this.state.current_day === null) return this.state.start_date;
    return this.market.calendar.next(this.state.current_day);
  }

  /** Closes the open day (if any) and opens the next unplayed one. */
  beginDay(): string {
    const day = this.state.day_open ? this.market.calendar.next(this.state.current_day!) : this.nextDay();
    if (!day)
      throw new BrokerError(
        "sim_exhausted",
        `the simulation has played every day of the market data (last: ${this.state.current_day ?? "none"}); run \`tradewarden sim reset\``,
      );
    const change: LogRecord = this.state.day_open ? this.closeDay() : { gen: this.state.gen ?? 0 };
    this.state.current_day = day;
    this.state.day_open = true;
    change.day = { current: day, open: true, ...(change.day?.played ? { played: change.day.played } : {}) };
    this.usedToday.clear();
    this.recordDayChange(change);
    return day;
  }

  /** The close: working orders expire; the day counts as played. */
  endDay(): void {
    if (!this.state.day_open) return;
    this.recordDayChange(this.closeDay());
  }

  /** Writes a full snapshot now (the end of a simulation; a no-op for a book kept in memory). */
  checkpoint(): void {
    this.save();
  }

  /** Closes the open day and returns the change as a log record (what `readSimState` replays). */
  private closeDay(): LogRecord {
    const at = this.now().toISOString();
    const expired = [...this.working];
    for (const o of expired) {
      o.status = "expired";
      o.updated_at = at;
    }
    this.working.clear();
    const played = this.state.current_day;
    if (played) this.state.played_days.push(played);
    this.state.day_open = false;
    const clear = !this.keepClosedOrders;
    if (clear) {
      // Every order is terminal at the close: the book keeps cash and positions only.
      this.state.orders = [];
      this.state.fills = [];
      this.reindex();
    }
    return {
      gen: this.state.gen ?? 0,
      ...(expired.length > 0 && !clear ? { orders: expired } : {}),
      ...(clear ? { clear: true as const } : {}),
      day: { current: played, open: false, ...(played ? { played } : {}) },
    };
  }

  /**
   * A day change is written before the call returns: a snapshot, or a log line between snapshots
   * (the snapshot flushed to the disk unless the book is non-durable: inside a simulation).
   */
  private recordDayChange(change: LogRecord): void {
    if (!this.path) return;
    if (this.dayChangesLogged + 1 >= this.snapshotEvery) {
      this.save();
      return;
    }
    change.gen = this.state.gen ?? 0;
    appendFileSync(logPath(this.path), `${JSON.stringify(change)}\n`);
    this.dayChangesLogged += 1;
  }

  // ---- Broker -----------------------------------------------------------------------------

  endpoint(): BrokerEndpoint {
    return { kind: "sim", url: `sim:${this.path ?? "memory"}`, paper: true };
  }

  async clock(): Promise<BrokerClock> {
    this.reach();
    const day = this.state.day_open ? this.state.current_day : (this.nextDay() ?? this.state.current_day);
    return { tradingDay: day ?? "", isOpen: this.state.day_open, now: this.now().toISOString() };
  }

  async account(): Promise<BrokerAccount> {
    this.reach();
    return {
      account_id: this.state.account_id,
      paper: true,
      cash: this.state.cash,
      currency: this.state.currency,
      status: "ACTIVE",
      trading_blocked: false,
      starting_cash: this.state.starting_cash,
    };
  }

  async positions(): Promise<BrokerPosition[]> {
    this.reach();
    return Object.entries(this.state.positions)
      .filter(([, p]) => p.quantity !== 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([symbol, p]) => ({ symbol, quantity: p.quantity, avg_cost: p.quantity > 0 ? Math.round((p.cost / p.quantity) * 100) / 100 : 0 }));
  }

  async openOrders(): Promise<BrokerOrder[]> {
    this.reach();
    return [...this.working].map(publicOrder);
  }

  async placeLimitDayOrder(req: PlaceOrderRequest): Promise<BrokerOrder> {
    this.reach();
    const id = req.client_order_id;
    if (typeof id !== "string" || id.length === 0 || id.length > 128) {
      throw new BrokerError("order_rejected", `client_order_id must be 1 to 128 characters`);
    }
    if (this.byClientId.has(id)) {
      throw new BrokerError("duplicate_client_order_id", `client_order_id ${id} was already used (order ${this.byClientId.get(id)!.broker_order_id})`);
    }
    const faults = this.pendingFaults;
    this.pendingFaults = [];
    if (faults.some((f) => f.kind === "timeout_before_accept")) throw new BrokerError("timeout", "the order request timed out");
    const rejectFault = faults.find((f) => f.kind === "reject_next");
    if (rejectFault) throw new BrokerError("order_rejected", rejectFault.message ?? "rejected by the simulated broker (injected)");
    if (!this.state.day_open || !this.state.current_day) throw new BrokerError("market_closed", "the simulated market is closed (no trading day open)");
    validateOrder(req, { config: this.config, pricing: this.pricing, market: this.market, state: this.state, working: this.working });

    const { order, settlePolls } = newSimOrder(this.state, req, this.now().toISOString(), faults);
    if (settlePolls !== undefined) this.settleLag.set(order.broker_order_id, settlePolls);
    this.state.orders.push(order);
    this.byClientId.set(id, order);
    this.byId.set(order.broker_order_id, order);
    const ack = publicOrder(order);
    this.working.add(order);
    const fillsBefore = this.state.fills.length;
    if (!order.held) this.work(order);
    this.commit(order, fillsBefore);
    const lost = faults.find((f) => f.kind === "timeout_after_accept");
    if (lost && lost.kind === "timeout_after_accept") {
      const code = lost.code ?? "timeout";
      throw new BrokerError(code, code === "timeout" ? "the order request timed out" : "the connection dropped before the response");
    }
    return ack;
  }

  async orderByClientId(clientOrderId: string): Promise<BrokerOrder | undefined> {
    this.reach();
    const o = this.byClientId.get(clientOrderId);
    return o ? publicOrder(o) : undefined;
  }

  async cancel(brokerOrderId: string): Promise<BrokerOrder> {
    this.reach();
    const o = this.byId.get(brokerOrderId);
    if (!o) throw new BrokerError("order_not_found", `no order ${brokerOrderId}`);
    if (!isWorking(o.status)) return publicOrder(o);
    const at = this.now().toISOString();
    const fillsBefore = this.state.fills.length;
    if (o.held) {
      // The fill that was on its way arrives while the cancel is in flight.
      o.held = false;
      const remaining = o.quantity - o.filled_quantity;
      if (remaining > 0) this.fill(o, remaining, o.limit_price, at);
    }
    if (isWorking(o.status)) {
      o.status = o.stuck ? "pending_cancel" : "cancelled";
      o.updated_at = at;
      if (!o.stuck) this.working.delete(o);
    }
    this.commit(o, fillsBefore);
    return publicOrder(o);
  }

  async fills(brokerOrderId: string): Promise<BrokerFill[]> {
    this.reach();
    const lag = this.settleLag.get(brokerOrderId) ?? 0;
    if (lag > 0) {
      this.settleLag.set(brokerOrderId, lag - 1);
      return [];
    }
    // A book from before fills recorded their commission currency charged it in the book's currency.
    const cur = this.state.currency;
    return (this.fillsByOrder.get(brokerOrderId) ?? []).map(({ trading_day: _d, commission_currency, ...f }) => ({
      ...f,
      commission_currency: commission_currency ?? cur,
    }));
  }

  // ---- internals --------------------------------------------------------------------------

  private reach(): void {
    if (this.unreachableCalls > 0) {
      this.unreachableCalls--;
      throw new BrokerError("broker_unreachable", "the simulated broker is unreachable (injected)");
    }
  }

  /** Works an order against its day's bar. */
  private work(o: SimOrder): void {
    const bar = this.market.barOn(o.symbol, o.trading_day);
    if (bar) {
      const price = fillPrice(o.side, o.limit_price, bar);
      if (price !== undefined) {
        const cap = Math.floor((bar.volume * this.config.participation_pct) / 100);
        const room = Math.max(0, cap - (this.usedToday.get(o.symbol) ?? 0));
        let qty = Math.min(o.quantity - o.filled_quantity, room);
        if (o.forced_max !== undefined) qty = Math.min(qty, Math.max(0, o.forced_max - o.filled_quantity));
        if (qty > 0) this.fill(o, qty, price, this.now().toISOString());
      }
    }
    if (this.closeAfterWork && isWorking(o.status)) {
      this.working.delete(o);
      o.status = "expired";
      o.updated_at = this.now().toISOString();
    }
  }

  private fill(o: SimOrder, qty: number, price: number, at: string): void {
    const f = applyFill(this.state, o, qty, price, at, this.config, this.pricing);
    if (o.status === "filled") this.working.delete(o);
    this.addFillIndex(f);
    this.usedToday.set(o.symbol, (this.usedToday.get(o.symbol) ?? 0) + qty);
  }

  private addFillIndex(f: SimFill): void {
    const list = this.fillsByOrder.get(f.broker_order_id);
    if (list) list.push(f);
    else this.fillsByOrder.set(f.broker_order_id, [f]);
  }

  private reindex(): void {
    this.byClientId.clear();
    this.byId.clear();
    this.fillsByOrder.clear();
    this.usedToday.clear();
    this.working.clear();
    for (const o of this.state.orders) {
      if (isWorking(o.status)) this.working.add(o);
      this.byClientId.set(o.client_order_id, o);
      this.byId.set(o.broker_order_id, o);
    }
    for (const f of this.state.fills) {
      this.addFillIndex(f);
      if (this.state.day_open && f.trading_day === this.state.current_day) this.usedToday.set(f.symbol, (this.usedToday.get(f.symbol) ?? 0) + f.quantity);
    }
  }

  /** Full snapshot (day changes, creation). */
  private save(): void {
    if (!this.path) return;
    writeSimState(this.path, this.state, { durable: this.durable });
    this.dayChangesLogged = 0;
  }

  /** Appends what an order operation changed to the log (written before the call returns). */
  private commit(o: SimOrder, fillsBefore: number): void {
    if (!this.path) return;
    const rec = orderLogRecord(this.state, o, fillsBefore);
    appendFileSync(logPath(this.path), `${JSON.stringify(rec)}\n`);
  }
}
