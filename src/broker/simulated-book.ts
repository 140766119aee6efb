/**
 * The simulated broker's book checked whole (beyond its schema): what every book the broker writes
 * holds, so an edited or damaged `sim-broker.json` is refused on open instead of traded on.
 *
 * - The clock: played days strictly ascending from the start day; the current day is the last day
 *   played (day closed) or a later one (day open); no current day before the first day.
 * - Orders: ids `<account>-O<n>` numbered one after another up to the next order number (the book
 *   keeps a run of consecutive orders: all of them, or a many-day simulation's day), client order
 *   ids unique; status, filled quantity and average price agree.
 * - Fills: ids `<account>-F<n>` numbered the same way; each belongs to an order of the book, with its
 *   symbol, side and day, at a price its limit allows; an order's fills add up to its filled
 *   quantity, average price and commission.
 *
 * Pure; each issue names its place (`orders[2].broker_order_id`), as the schema's issues do.
 */
import type { SimStateDoc } from "./simulated-state.js";

export interface BookIssue {
  path: string;
  rule: string;
}

type Order = SimStateDoc["orders"][number];
type Fill = SimStateDoc["fills"][number];

const show = (v: unknown) => JSON.stringify(v);

function clockIssues(s: SimStateDoc, out: BookIssue[]): void {
  const played = s.played_days;
  played.forEach((d, i) => {
    if (i === 0 && d !== s.start_date) out.push({ path: "played_days[0]", rule: `must be the start day ${s.start_date}, got ${show(d)}` });
    if (i > 0 && d <= (played[i - 1] as string))
      out.push({ path: `played_days[${i}]`, rule: `must come after played_days[${i - 1}] (${played[i - 1]}): days are played once, in order; got ${show(d)}` });
  });
  const last = played.at(-1);
  if (s.current_day === null) {
    if (s.day_open) out.push({ path: "day_open", rule: "must be false while no day has begun (current_day is null)" });
    if (last !== undefined) out.push({ path: "current_day", rule: `must be the last day played (${last}), got null` });
    return;
  }
  if (s.day_open) {
    if (last === undefined && s.current_day !== s.start_date)
      out.push({ path: "played_days", rule: `lists no day, yet the open day ${s.current_day} is not the start day ${s.start_date}` });
    if (last !== undefined && s.current_day <= last)
      out.push({ path: "current_day", rule: `the open day must come after the last day played (${last}), got ${show(s.current_day)}` });
  } else if (last !== s.current_day) {
    out.push({
      path: last === undefined ? "played_days" : "current_day",
      rule: `the closed day ${s.current_day} must be the last day played (${last ?? "none listed"})`,
    });
  }
}

/** The number of an id `<account>-<letter><n>`, or undefined when it is not one. */
function idNumber(id: string, account: string, letter: "O" | "F"): number | undefined {
  const prefix = `${account}-${letter}`;
  if (!id.startsWith(prefix)) return undefined;
  const digits = id.slice(prefix.length);
  if (!/^[1-9]\d{0,15}$/.test(digits)) return undefined;
  return Number(digits);
}

/** Ids numbered one after another, ending just below the next number to give. */
function sequenceIssues(items: readonly { id: string }[], what: "orders" | "fills", key: string, account: string, next: number, out: BookIssue[]): void {
  const letter = what === "orders" ? "O" : "F";
  const nextKey = what === "orders" ? "next_order_seq" : "next_fill_seq";
  let prev: number | undefined;
  items.forEach((item, i) => {
    const n = idNumber(item.id, account, letter);
    const place = `${what}[${i}].${key}`;
    if (n === undefined) out.push({ path: place, rule: `must be ${account}-${letter}<number> (this account's numbering), got ${show(item.id)}` });
    else if (prev !== undefined && n !== prev + 1)
      out.push({ path: place, rule: `must be ${account}-${letter}${prev + 1} (numbered after ${what}[${i - 1}]), got ${show(item.id)}` });
    else if (n >= next) out.push({ path: place, rule: `numbers ${n}, not below ${nextKey} (${next}): ${what} are numbered from it` });
    if (n !== undefined) prev = n;
  });
  if (prev !== undefined && prev !== next - 1 && !out.some((o) => o.path.startsWith(`${what}[`))) {
    out.push({ path: nextKey, rule: `must be ${prev + 1} (one after the last of ${what}, ${account}-${letter}${prev}), got ${next}` });
  }
}

function orderIssues(o: Order, i: number, out: BookIssue[]): void {
  const at = `orders[${i}]`;
  const f = o.filled_quantity;
  if (f > o.quantity) out.push({ path: `${at}.filled_quantity`, rule: `must be at most the quantity (${o.quantity}), got ${f}` });
  const statusRule: Record<string, [boolean, string]> = {
    accepted: [f === 0, "0"],
    rejected: [f === 0, "0"],
    partially_filled: [f > 0 && f < o.quantity, `between 0 and ${o.quantity} (both excluded)`],
    filled: [f === o.quantity, String(o.quantity)],
    cancelled: [f < o.quantity, `below ${o.quantity}`],
    expired: [f < o.quantity, `below ${o.quantity}`],
    pending_cancel: [f < o.quantity, `below ${o.quantity}`],
  };
  const [ok, want] = statusRule[o.status] ?? [true, ""];
  if (!ok) out.push({ path: `${at}.filled_quantity`, rule: `must be ${want} for a ${o.status} order, got ${f}` });
  if ((o.avg_fill_price === null) !== (f === 0))
    out.push({
      path: `${at}.avg_fill_price`,
      rule: f === 0 ? `must be null while nothing is filled, got ${o.avg_fill_price}` : "must be the average fill price of the filled quantity, got null",
    });
}

const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;

function fillIssues(s: SimStateDoc, byId: Map<string, { order: Order; index: number }>, out: BookIssue[]): void {
  const sums = new Map<string, { qty: number; value: number; commission: number }>();
  s.fills.forEach((f: Fill, i) => {
    const at = `fills[${i}]`;
    const own = byId.get(f.broker_order_id);
    if (!own) {
      out.push({ path: `${at}.broker_order_id`, rule: `must name an order of the book, got ${show(f.broker_order_id)}` });
      return;
    }
    const o = own.order;
    for (const k of ["symbol", "side", "trading_day"] as const) {
      if (f[k] !== o[k]) out.push({ path: `${at}.${k}`, rule: `must be ${show(o[k])} (the ${k} of its order, orders[${own.index}]), got ${show(f[k])}` });
    }
    const eps = 1e-9;
    if (o.side === "BUY" ? f.price > o.limit_price + eps : f.price < o.limit_price - eps) {
      out.push({ path: `${at}.price`, rule: `must be ${o.side === "BUY" ? "at most" : "at least"} its order's limit ${o.limit_price}, got ${f.price}` });
    }
    const sum = sums.get(o.broker_order_id) ?? { qty: 0, value: 0, commission: 0 };
    sum.qty += f.quantity;
    sum.value += f.quantity * f.price;
    sum.commission += f.commission;
    sums.set(o.broker_order_id, sum);
  });
  for (const { order: o, index } of byId.values()) {
    const sum = sums.get(o.broker_order_id) ?? { qty: 0, value: 0, commission: 0 };
    const at = `orders[${index}]`;
    if (sum.qty !== o.filled_quantity) {
      out.push({ path: `${at}.filled_quantity`, rule: `must be ${sum.qty} (the quantity of its fills), got ${o.filled_quantity}` });
      continue;
    }
    if (sum.qty > 0 && o.avg_fill_price !== null && !near(Math.round((sum.value / sum.qty) * 1e6) / 1e6, o.avg_fill_price, 2e-6)) {
      out.push({
        path: `${at}.avg_fill_price`,
        rule: `must be ${Math.round((sum.value / sum.qty) * 1e6) / 1e6} (the average price of its fills), got ${o.avg_fill_price}`,
      });
    }
    if (!near(sum.commission, o.commission, 0.005))
      out.push({ path: `${at}.commission`, rule: `must be ${Math.round(sum.commission * 100) / 100} (the commission of its fills), got ${o.commission}` });
  }
}

/** Every place where the book disagrees with itself (empty: a book the broker could have written). */
export function bookIssues(s: SimStateDoc): BookIssue[] {
  const out: BookIssue[] = [];
  clockIssues(s, out);
  const account = s.account_id;
  sequenceIssues(
    s.orders.map((o) => ({ id: o.broker_order_id })),
    "orders",
    "broker_order_id",
    account,
    s.next_order_seq,
    out,
  );
  sequenceIssues(
    s.fills.map((f) => ({ id: f.fill_id })),
    "fills",
    "fill_id",
    account,
    s.next_fill_seq,
    out,
  );
  const byId = new Map<string, { order: Order; index: number }>();
  const byClient = new Map<string, number>();
  s.orders.forEach((o, i) => {
    if (!byId.has(o.broker_order_id)) byId.set(o.broker_order_id, { order: o, index: i });
    const seen = byClient.get(o.client_order_id);
    if (seen !== undefined)
      out.push({ path: `orders[${i}].client_order_id`, rule: `must be unique: ${show(o.client_order_id)} is also the client order id of orders[${seen}]` });
    else byClient.set(o.client_order_id, i);
    orderIssues(o, i, out);
  });
  fillIssues(s, byId, out);
  return out;
}
