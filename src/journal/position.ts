/**
 * One holding in depth, as the get_position tool shows it: its open lots (./lots.ts), average cost
 * with commissions, days held, unrealised P&L in the base and the instrument's currency, weight,
 * the room left to the kill switch and to the position limit, and the standing orders, watchlist
 * entries and notes on it. The valuation is get_portfolio's (`portfolioSnapshot`), so both agree.
 */
import { fromMinor } from "../core/money.js";
import { type JournalToolDeps, portfolioSnapshot } from "./tool-handlers.js";
import { openLots } from "./lots.js";
import { openStandingOrders } from "./standing-orders.js";
import { activeWatchItems } from "./watchlist.js";

export interface PositionDeps extends Omit<JournalToolDeps, "limits" | "now"> {
  now: Date;
  limits: { max_orders_per_month: number; max_drawdown_pct: number; max_position_pct: number };
  /** Trading days from `from` (inclusive) to the run's trading day (exclusive). */
  tradingDaysSince: (from: string) => number;
}

const round = (n: number, dp: number) => Math.round(n * 10 ** dp) / 10 ** dp;
const nullable = (n: number | null, dp: number) => (n === null || !Number.isFinite(n) ? null : round(n, dp));

/** What is on the books about `symbol` besides the holding: standing orders, watchlist entries, notes that name it. */
export function positionContext(deps: Pick<PositionDeps, "journal" | "tradingDay" | "runId">, symbol: string) {
  const { journal } = deps;
  const standing_orders = openStandingOrders(journal.standingState())
    .filter((o) => o.symbol === symbol)
    .map((o) => ({
      id: o.id,
      type: o.type,
      side: o.side,
      quantity: o.quantity,
      trigger_price: o.trigger_price,
      limit_price: o.limit_price,
      status: o.status,
      expires_on: o.expires_on,
    }));
  const watchlist = activeWatchItems(journal.watchState(), deps.tradingDay)
    .filter((w) => w.symbol === symbol)
    .map((w) => ({
      id: w.id,
      reason: w.reason,
      added_day: w.added_day,
      price_at_add: w.price_at_add,
      expires_on: w.expires_on,
      ...(w.alert_above !== undefined ? { alert_above: w.alert_above } : {}),
      ...(w.alert_below !== undefined ? { alert_below: w.alert_below } : {}),
    }));
  const { notes } = journal.recall({ query: symbol, limit: 5, asOf: { tradingDay: deps.tradingDay, runId: deps.runId } });
  return {
    standing_orders,
    watchlist,
    notes: notes.map((n) => ({ id: n.id, kind: String(n.kind), text: n.text, written_on: journal.run(n.run_id)?.trading_day ?? n.created_at.slice(0, 10) })),
  };
}

/** The holding of `symbol` in depth; null when it is not held. */
export function positionDetail(deps: PositionDeps, symbol: string) {
  const { journal } = deps;
  const snap = portfolioSnapshot(deps);
  const row = snap.holdings.find((h) => h.symbol === symbol);
  const held = journal.holdings()[symbol];
  if (!row || !held) return null;
  const cur = snap.base_currency;
  const lots = openLots(symbol, journal.fills(), journal.adjustments()).map((l) => ({
    bought_on: (l.run_id ? journal.run(l.run_id)?.trading_day : undefined) ?? l.at.slice(0, 10),
    source: l.source,
    quantity: l.quantity,
    price: l.price,
    commission: fromMinor(l.commission_minor, cur),
    cost_basis: fromMinor(l.cost_minor, cur),
    fx_to_base: l.fx_to_base,
  }));
  const ref = deps.prices.referencePrice(symbol);
  const fx = ref?.fx_to_base ?? null;
  // The books' cost basis in the instrument's currency, at the open lots' cost-weighted rate (an adjustment at today's).
  const lotCost = lots.reduce((s, l) => s + l.cost_basis, 0);
  const lotCostInstrument = lots.reduce((s, l) => s + l.cost_basis / (l.fx_to_base ?? fx ?? Number.NaN), 0);
  const costInstrument = lotCost > 0 ? (held.cost_basis * lotCostInstrument) / lotCost : Number.NaN;
  const mvInstrument = ref ? row.quantity * ref.price : null;
  const value = snap.value;
  const tripValue = snap.peak * (1 - snap.max_drawdown_pct / 100);
  const headroom = value - tripValue;
  const mv = row.market_value;
  const cap = (value * deps.limits.max_position_pct) / 100;
  const roomValue = mv === null ? null : Math.max(0, cap - mv);
  const firstDay = lots[0]?.bought_on ?? null;
  return {
    quantity: row.quantity,
    currency: held.currency,
    avg_cost: round(held.avg_cost, 6),
    cost_basis: round(held.cost_basis, 2),
    reference_price: row.reference_price,
    price_as_of: row.price_as_of,
    market_value: mv,
    unrealized_pnl: row.unrealized_pnl,
    unrealized_pnl_pct: row.unrealized_pnl_pct,
    instrument_currency: {
      currency: held.currency,
      avg_cost: nullable(costInstrument / row.quantity, 6),
      market_value: nullable(mvInstrument, 2),
      unrealized_pnl: mvInstrument === null ? null : nullable(mvInstrument - costInstrument, 2),
    },
    weight_pct: row.weight_pct,
    first_bought_on: firstDay,
    days_held: firstDay === null ? null : deps.tradingDaysSince(firstDay),
    lots,
    kill_switch: {
      value,
      peak: snap.peak,
      drawdown_pct: snap.drawdown_pct,
      max_drawdown_pct: snap.max_drawdown_pct,
      trip_value: round(tripValue, 2),
      headroom_value: round(headroom, 2),
      fall_to_trip_pct: mv === null || mv <= 0 || headroom / mv > 1 ? null : round(Math.max(0, headroom / mv) * 100, 2),
    },
    position_limit: {
      max_position_pct: deps.limits.max_position_pct,
      room_pct: row.weight_pct === null ? null : round(Math.max(0, deps.limits.max_position_pct - row.weight_pct), 2),
      room_value: roomValue === null ? null : round(roomValue, 2),
      room_quantity: roomValue === null || !ref || !(ref.price * ref.fx_to_base > 0) ? null : Math.floor(roomValue / (ref.price * ref.fx_to_base)),
    },
  };
}
