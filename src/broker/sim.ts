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
 * Fault injection (tests): see `SimFault`.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { SimBrokerConfig } from "../config/types.js";
import type { Bar, Side } from "../core/domain.js";
import type { MarketData } from "../market/data.js";
import { EXIT } from "../core/exit-codes.js";
import { commissionFor, estimateCommission } from "./commission.js";
import { BrokerError } from "./errors.js";
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

export const SIM_DEFAULT_START = "2007-01-03";
export const SIM_DEFAULT_CASH = 100_000;
export const SIM_STATE_VERSION = 1;

export const DEFAULT_SIM_CONFIG: SimBrokerConfig = {
  participation_pct: 10,
  commission_per_share: 0.005,
  commission_min: 1,
  commission_max_pct: 1,
  start_date: null,
};

/** Faults for tests. Order faults apply to the next order placed (several may combine). */
export type SimFault =
  /** The next order is refused (`order_rejected`), nothing is stored. */
  | { kind: "reject_next"; message?: string }
  /** The next order fills at most `quantity` shares (default half); the rest keeps working. */
  | { kind: "partial_next"; quantity?: number }
  /** The next order does not fill until it is cancelled: the cancel finds it filled. Its fills show up only after `settle_polls` calls of fills(). */
  | { kind: "fill_during_cancel"; settle_polls?: number }
  /** The next order is accepted, but the send reports a timeout (or a dropped connection). */
  | { kind: "timeout_after_accept"; code?: "timeout" | "broker_unreachable" }
  /** The next send times out before the broker received it: no order exists. */
  | { kind: "timeout_before_accept" }
  /** The next order ignores a cancel: it stays `pending_cancel` until the close. */
  | { kind: "stuck_after_cancel" }
  /** Every call fails with `broker_unreachable` for the next `calls` calls (default: until `heal()`). */
  | { kind: "unreachable"; calls?: number };

type OrderFault = Exclude<SimFault, { kind: "unreachable" }>;

interface SimOrder extends BrokerOrder {
  trading_day: string;
  commission: number;
  /** Not worked until cancelled (fill_during_cancel). */
  held?: boolean;
  /** Fill cap from partial_next. */
  forced_max?: number;
  /** Ignores cancels (stuck_after_cancel). */
  stuck?: boolean;
}

interface SimFill extends BrokerFill {
  trading_day: string;
}

export interface SimState {
  version: number;
  account_id: string;
  currency: string;
  starting_cash: number;
  cash: number;
  start_date: string;
  /** The open day, or the last day played. Null before the first day. */
  current_day: string | null;
  day_open: boolean;
  played_days: string[];
  positions: Record<string, { quantity: number; cost: number }>;
  orders: SimOrder[];
  fills: SimFill[];
  next_order_seq: number;
  next_fill_seq: number;
  /** Snapshot generation: log lines of other generations are ignored. */
  gen?: number;
}

export interface SimBrokerOptions {
  market: MarketData;
  config?: SimBrokerConfig;
  /** State file (`homePaths(home).sim`); omitted → in memory only. */
  path?: string;
  now?: () => Date;
  /** Expire the unfilled remainder as soon as an order has been worked (many-day simulation). */
  closeAfterWork?: boolean;
}

const cents = (x: number) => Math.round(x * 100 + (x >= 0 ? 1e-9 : -1e-9)) / 100;
const clone = <T>(x: T): T => structuredClone(x);

export function newSimState(market: MarketData, opts: { start?: string | null; cash?: number } = {}): SimState {
  const wanted = opts.start ?? SIM_DEFAULT_START;
  const start = market.calendar.onOrAfter(wanted);
  if (!start) {
    throw new BrokerError("sim_exhausted", `no trading day on or after ${wanted} in the market data (last: ${market.calendar.last ?? "none"})`, EXIT.USAGE_OR_CONFIG);
  }
  if (market.calendar.countBefore(start) < 2) {
    throw new BrokerError("sim_exhausted", `start ${start} leaves no price history before it; pick a later day`, EXIT.USAGE_OR_CONFIG);
  }
  const cash = opts.cash ?? SIM_DEFAULT_CASH;
  return {
    version: SIM_STATE_VERSION,
    account_id: `SIM-PAPER-${randomBytes(4).toString("hex").toUpperCase()}`,
    currency: "USD",
    starting_cash: cash,
    cash,
    start_date: start,
    current_day: null,
    day_open: false,
    played_days: [],
    positions: {},
    orders: [],
    fills: [],
    next_order_seq: 1,
    next_fill_seq: 1,
  };
}

/** One appended change: the new values of what an order operation touched. */
interface LogRecord {
  gen: number;
  orders?: SimOrder[];
  fills?: SimFill[];
  cash?: number;
  positions?: [string, { quantity: number; cost: number } | null][];
  seqs?: [number, number];
}

const logPath = (path: string) => `${path}.log`;

/**
 * Reads the book: the snapshot (`sim-broker.json`, rewritten atomically at each day change or
 * reset) plus the write-ahead log of order operations since (`sim-broker.json.log`, one JSON line
 * per operation, appended before the call returns). Log lines of an older snapshot generation and a
 * torn last line are ignored.
 */
export function readSimState(path: string): SimState | undefined {
  if (!existsSync(path)) return undefined;
  let state: SimState;
  try {
    state = JSON.parse(readFileSync(path, "utf8")) as SimState;
  } catch (e) {
    throw new BrokerError("broker_unreachable", `simulated broker state ${path} is unreadable: ${(e as Error).message}`);
  }
  if (state.version !== SIM_STATE_VERSION || typeof state.account_id !== "string") {
    throw new BrokerError("broker_unreachable", `simulated broker state ${path} has an unknown format (version ${String(state.version)})`);
  }
  state.gen ??= 0;
  if (existsSync(logPath(path))) {
    const lines = readFileSync(logPath(path), "utf8").split("\n");
    const orderIndex = new Map(state.orders.map((o, i) => [o.broker_order_id, i]));
    const fillIds = new Set(state.fills.map((f) => f.fill_id));
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim().length === 0) continue;
      let rec: LogRecord;
      try {
        rec = JSON.parse(line) as LogRecord;
      } catch (e) {
        if (i >= lines.length - 2) break; // torn last write
        throw new BrokerError("broker_unreachable", `simulated broker log ${logPath(path)} line ${i + 1} is unreadable: ${(e as Error).message}`);
      }
      if (rec.gen !== state.gen) continue;
      for (const o of rec.orders ?? []) {
        const at = orderIndex.get(o.broker_order_id);
        if (at === undefined) {
          orderIndex.set(o.broker_order_id, state.orders.length);
          state.orders.push(o);
        } else state.orders[at] = o;
      }
      for (const f of rec.fills ?? []) {
        if (fillIds.has(f.fill_id)) continue;
        fillIds.add(f.fill_id);
        state.fills.push(f);
      }
      if (rec.cash !== undefined) state.cash = rec.cash;
      for (const [symbol, pos] of rec.positions ?? []) {
        if (pos) state.positions[symbol] = pos;
        else delete state.positions[symbol];
      }
      if (rec.seqs) [state.next_order_seq, state.next_fill_seq] = rec.seqs;
    }
  }
  return state;
}

/** Writes a full snapshot atomically (temp file + rename) and starts a new log generation. */
export function writeSimState(path: string, state: SimState): void {
  mkdirSync(dirname(path), { recursive: true });
  state.gen = (state.gen ?? 0) + 1;
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, path);
  rmSync(logPath(path), { force: true });
}

export class SimBroker implements Broker {
  readonly config: SimBrokerConfig;
  private state: SimState;
  private readonly market: MarketData;
  private readonly path: string | undefined;
  private readonly now: () => Date;
  private readonly closeAfterWork: boolean;
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
    this.state = opts.state;
    this.reindex();
  }

  /** Opens the persisted simulation at `opts.path`, creating a fresh one (and saving it) if none exists. */
  static open(opts: SimBrokerOptions & { start?: string | null; cash?: number }): SimBroker {
    const existing = opts.path ? readSimState(opts.path) : undefined;
    const state = existing ?? newSimState(opts.market, { start: opts.start ?? opts.config?.start_date ?? null, ...(opts.cash ? { cash: opts.cash } : {}) });
    const broker = new SimBroker({ ...opts, state });
    if (!existing) broker.save();
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
    return clone(this.state);
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
    if (day && this.state.day_open) this.closeDay();
    if (!day) throw new BrokerError("sim_exhausted", `the simulation has played every day of the market data (last: ${this.state.current_day ?? "none"}); run \`tradewarden sim reset\``);
    this.state.current_day = day;
    this.state.day_open = true;
    this.usedToday.clear();
    this.save();
    return day;
  }

  /** The close: working orders expire; the day counts as played. */
  endDay(): void {
    if (!this.state.day_open) return;
    this.closeDay();
    this.save();
  }

  private closeDay(): void {
    const at = this.now().toISOString();
    for (const o of this.working) {
      o.status = "expired";
      o.updated_at = at;
    }
    this.working.clear();
    if (this.state.current_day) this.state.played_days.push(this.state.current_day);
    this.state.day_open = false;
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
    };
  }

  async positions(): Promise<BrokerPosition[]> {
    this.reach();
    return Object.entries(this.state.positions)
      .filter(([, p]) => p.quantity !== 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([symbol, p]) => ({ symbol, quantity: p.quantity, avg_cost: p.quantity > 0 ? cents(p.cost / p.quantity) : 0 }));
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
    this.validate(req);

    const at = this.now().toISOString();
    const order: SimOrder = {
      broker_order_id: `${this.state.account_id}-O${this.state.next_order_seq++}`,
      client_order_id: id,
      symbol: req.symbol.toUpperCase(),
      side: req.side,
      quantity: req.quantity,
      limit_price: req.limit_price,
      status: "accepted",
      filled_quantity: 0,
      avg_fill_price: null,
      submitted_at: at,
      updated_at: at,
      trading_day: this.state.current_day,
      commission: 0,
    };
    for (const f of faults) {
      if (f.kind === "fill_during_cancel") {
        order.held = true;
        this.settleLag.set(order.broker_order_id, f.settle_polls ?? 0);
      }
      if (f.kind === "partial_next") order.forced_max = f.quantity ?? Math.floor(req.quantity / 2);
      if (f.kind === "stuck_after_cancel") order.stuck = true;
    }
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
    return (this.fillsByOrder.get(brokerOrderId) ?? []).map(({ trading_day: _d, ...f }) => ({ ...f }));
  }

  // ---- internals --------------------------------------------------------------------------

  private reach(): void {
    if (this.unreachableCalls > 0) {
      this.unreachableCalls--;
      throw new BrokerError("broker_unreachable", "the simulated broker is unreachable (injected)");
    }
  }

  private validate(req: PlaceOrderRequest): void {
    const reject = (m: string) => new BrokerError("order_rejected", m);
    if (req.side !== "BUY" && req.side !== "SELL") throw reject(`side must be BUY or SELL`);
    if (!Number.isInteger(req.quantity) || req.quantity <= 0) throw reject(`quantity ${req.quantity} must be a whole number of shares > 0`);
    if (!Number.isFinite(req.limit_price) || req.limit_price <= 0) throw reject(`limit price ${req.limit_price} must be > 0`);
    if (Math.abs(req.limit_price * 100 - Math.round(req.limit_price * 100)) > 1e-6) throw reject(`limit price ${req.limit_price} is not a multiple of 0.01`);
    const symbol = req.symbol.toUpperCase();
    if (!this.market.barOn(symbol, this.state.current_day!)) throw reject(`${symbol} does not trade on ${this.state.current_day} (no market data)`);
    let reservedQty = 0;
    let reservedCash = 0;
    for (const o of this.working) {
      if (o.side === "BUY") reservedCash += (o.quantity - o.filled_quantity) * o.limit_price;
      if (o.symbol === symbol && o.side === req.side) reservedQty += o.quantity - o.filled_quantity;
    }
    if (req.side === "BUY") {
      const need = req.quantity * req.limit_price + estimateCommission(this.config, req.quantity, req.limit_price);
      if (need > this.state.cash - reservedCash + 1e-9) {
        throw reject(`insufficient buying power: order needs ${need.toFixed(2)}, available ${(this.state.cash - reservedCash).toFixed(2)}`);
      }
    } else {
      const held = this.state.positions[symbol]?.quantity ?? 0;
      if (req.quantity > held - reservedQty) throw reject(`insufficient shares of ${symbol}: selling ${req.quantity}, available ${held - reservedQty}`);
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
    const prevQty = o.filled_quantity;
    const prevValue = prevQty * (o.avg_fill_price ?? 0);
    const newQty = prevQty + qty;
    const newValue = prevValue + qty * price;
    const totalCommission = commissionFor(this.config, newQty, newValue);
    const commission = cents(Math.max(0, totalCommission - o.commission));
    o.commission = cents(o.commission + commission);
    o.filled_quantity = newQty;
    o.avg_fill_price = Math.round((newValue / newQty) * 1e6) / 1e6;
    o.status = newQty >= o.quantity ? "filled" : "partially_filled";
    if (o.status === "filled") this.working.delete(o);
    o.updated_at = at;
    const f: SimFill = {
      fill_id: `${this.state.account_id}-F${this.state.next_fill_seq++}`,
      broker_order_id: o.broker_order_id,
      symbol: o.symbol,
      side: o.side,
      quantity: qty,
      price,
      commission,
      at,
      trading_day: o.trading_day,
    };
    this.state.fills.push(f);
    this.addFillIndex(f);
    this.usedToday.set(o.symbol, (this.usedToday.get(o.symbol) ?? 0) + qty);
    const pos = this.state.positions[o.symbol] ?? { quantity: 0, cost: 0 };
    const value = qty * price;
    if (o.side === "BUY") {
      this.state.cash = cents(this.state.cash - value - commission);
      pos.quantity += qty;
      pos.cost = cents(pos.cost + value + commission);
    } else {
      this.state.cash = cents(this.state.cash + value - commission);
      const before = pos.quantity;
      pos.quantity -= qty;
      pos.cost = before > 0 ? cents((pos.cost * pos.quantity) / before) : 0;
    }
    if (pos.quantity === 0) delete this.state.positions[o.symbol];
    else this.state.positions[o.symbol] = pos;
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
    if (this.path) writeSimState(this.path, this.state);
  }

  /** Appends what an order operation changed to the log (durable before the call returns). */
  private commit(o: SimOrder, fillsBefore: number): void {
    if (!this.path) return;
    const fills = this.state.fills.slice(fillsBefore);
    const rec: LogRecord = {
      gen: this.state.gen ?? 0,
      orders: [o],
      ...(fills.length > 0
        ? {
            fills,
            cash: this.state.cash,
            positions: [[o.symbol, this.state.positions[o.symbol] ?? null]],
          }
        : {}),
      seqs: [this.state.next_order_seq, this.state.next_fill_seq],
    };
    appendFileSync(logPath(this.path), `${JSON.stringify(rec)}\n`);
  }
}

/** The fill price of a limit order on a day's bar, or undefined when the bar never reaches the limit. */
export function fillPrice(side: Side, limit: number, bar: Bar): number | undefined {
  const eps = 1e-9;
  if (side === "BUY") {
    if (bar.low > limit + eps) return undefined;
    return bar.open <= limit + eps ? bar.open : limit;
  }
  if (bar.high < limit - eps) return undefined;
  return bar.open >= limit - eps ? bar.open : limit;
}

function publicOrder(o: SimOrder): BrokerOrder {
  return {
    broker_order_id: o.broker_order_id,
    client_order_id: o.client_order_id,
    symbol: o.symbol,
    side: o.side,
    quantity: o.quantity,
    limit_price: o.limit_price,
    status: o.status,
    filled_quantity: o.filled_quantity,
    avg_fill_price: o.avg_fill_price,
    submitted_at: o.submitted_at,
    updated_at: o.updated_at,
    trading_day: o.trading_day,
    ...(o.reject_reason ? { reject_reason: o.reject_reason } : {}),
  };
}
