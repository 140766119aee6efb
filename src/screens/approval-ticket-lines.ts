/**
 * The order ticket as lines, pure: fits `width` (columns go by priority: the row number, then the
 * commission, the limit and the quantity; side, symbol and notional never go) and at most
 * `maxLines` rows (totals always shown; the orders and what is left out are summarised instead of
 * cut when they do not fit).
 */
import { fromMinor } from "../core/money.js";
import { currencyDigits, money, pct, price, quantity } from "../printers/format.js";
import type { Ticket, TicketLeftOut } from "./approval-ticket.js";
import { type Column, cell, cells, fitColumns } from "./columns.js";
import type { Line } from "./components.js";
import { fitSegments } from "./text.js";

type ColumnId = "n" | "side" | "symbol" | "qty" | "limit" | "notional" | "commission";

const COLUMNS: readonly Column<ColumnId>[] = [
  { id: "n", header: "#", width: 4, align: "left", priority: 1 },
  { id: "side", header: "side", width: 5, align: "left", priority: Number.POSITIVE_INFINITY },
  { id: "symbol", header: "symbol", width: 9, align: "left", priority: Number.POSITIVE_INFINITY },
  { id: "qty", header: "qty", width: 10, align: "right", priority: 4 },
  { id: "limit", header: "limit", width: 12, align: "right", priority: 3 },
  { id: "notional", header: "notional", width: 15, align: "right", priority: Number.POSITIVE_INFINITY },
  { id: "commission", header: "commission", width: 12, align: "right", priority: 2 },
];
const INDENT = "  ";

function leftOutText(l: TicketLeftOut): string {
  return `#${l.n} ${l.side} ${quantity(l.quantity)} ${l.symbol}: ${l.why}`;
}

/** The totals: what the batch spends and brings in, cash before and after, each position's share after. */
function totalLines(t: Ticket, width: number): Line[] {
  const m = (minor: number) => money(fromMinor(minor, t.currency), t.currency, currencyDigits(t.currency));
  const out: Line[] = [
    {
      tone: "plain",
      text: fitSegments(
        [
          { text: `buys ${m(t.buysMinor)}`, priority: 10 },
          { text: `sells ${m(t.sellsMinor)}`, priority: 9 },
          { text: `est. commission ${m(t.commissionMinor)}`, priority: 8 },
        ],
        width,
      ),
    },
  ];
  if (t.cashBeforeMinor !== null && t.cashAfterBuysMinor !== null && t.cashAfterMinor !== null) {
    out.push({
      tone: t.cashAfterBuysMinor + t.fundedMinor < 0 ? "error" : "plain",
      text: fitSegments(
        [
          { text: `cash before ${m(t.cashBeforeMinor)}`, priority: 10 },
          { text: `after the buys ${m(t.cashAfterBuysMinor)}`, priority: 9 },
          { text: t.fundedMinor > 0 ? "sells fund buys only once they fill" : "sells do not fund buys", priority: 5 },
        ],
        width,
      ),
    });
    out.push({ tone: "plain", text: fitSegments([{ text: `cash after every fill ${m(t.cashAfterMinor)}`, priority: 10 }], width) });
  } else out.push({ tone: "dim", text: "cash: not known to this screen" });
  if (t.fundedMinor > 0) out.push({ tone: "warn", text: fitSegments(fundedSegments(t, m), width) });
  if (t.shares.length > 0) {
    const segs = t.shares.map((s, i) => ({ text: `${s.symbol} ${pct(s.share * 100, 1)}`, priority: s.symbol === "cash" ? 100 : 50 - i }));
    out.push({ tone: "plain", text: `share after: ${fitSegments(segs, width - 13)}` });
  }
  return out;
}

/** The buys the batch's sells fund: "funded by sells: 1,234.56 USD (1 buy); placed after the sells fill". */
function fundedSegments(t: Ticket, m: (minor: number) => string): { text: string; priority: number }[] {
  return [
    { text: `funded by sells: ${m(t.fundedMinor)} (${t.fundedBuys} buy${t.fundedBuys === 1 ? "" : "s"})`, priority: 10 },
    { text: "placed after the sells fill", priority: 9 },
    { text: "shrunk or dropped if they fall short", priority: 5 },
  ];
}

/** What is left out, one line each, or one summary line when `room` is short. */
function leftOutLines(t: Ticket, room: number): Line[] {
  if (t.leftOut.length === 0) return [];
  if (t.leftOut.length + 1 <= room)
    return [
      { tone: "warn", text: `left out (not sent): ${t.leftOut.length}` },
      ...t.leftOut.map((l) => ({ tone: "dim" as const, text: `${INDENT}${leftOutText(l)}` })),
    ];
  const items = t.leftOut.map((l) => `#${l.n} ${l.symbol} ${l.why.startsWith("BLOCKED") ? "blocked" : "dropped"}`);
  return [{ tone: "warn", text: `left out (not sent): ${t.leftOut.length}: ${items.join(", ")}` }];
}

/** The ticket in at most `maxLines` lines of `width` columns. */
export function ticketLines(t: Ticket, width: number, maxLines: number): Line[] {
  const cols = fitColumns(COLUMNS, width, 0, INDENT.length);
  const totals = totalLines(t, width);
  const head: Line[] = [
    { tone: "accent", text: `Order ticket: ${t.orders.length} order(s) to send · amounts in ${t.currency}` },
    { tone: "dim", text: `${INDENT}${cols.map((c) => cell(c, c.header)).join("")}`.trimEnd() },
  ];
  const rest = Math.max(1, maxLines - head.length - totals.length);
  // The orders first (at least one line), then what is left out in the room that remains.
  const leftFull = t.leftOut.length ? t.leftOut.length + 1 : 0;
  const leftMin = t.leftOut.length ? 1 : 0;
  const orderRoom = Math.max(1, Math.min(t.orders.length, rest - leftMin));
  const shown = orderRoom >= t.orders.length ? t.orders : t.orders.slice(0, Math.max(0, orderRoom - 1));
  const rows: Line[] = shown.map((o) => ({
    tone: "plain",
    text: `${INDENT}${cells(cols, {
      n: String(o.n),
      side: o.side,
      symbol: o.symbol,
      qty: quantity(o.quantity),
      limit: price(o.limit, o.tick),
      notional: money(fromMinor(o.notionalMinor, t.currency), "", currencyDigits(t.currency)),
      commission: money(fromMinor(o.commissionMinor, t.currency), "", currencyDigits(t.currency)),
    })}`.trimEnd(),
  }));
  if (shown.length < t.orders.length)
    rows.push({ tone: "dim", text: `${INDENT}…and ${t.orders.length - shown.length} more order(s), counted in the totals below` });
  const left = leftOutLines(t, Math.min(leftFull, rest - rows.length));
  return [...head, ...rows, ...totals, ...left];
}
