/**
 * The approval screen's layout, pure: the order table's columns by width, an order's full reason
 * and evidence, the portfolio lines. Column priority (stated, tested at 70/80/120/200 columns):
 * the marker, side, symbol and verdict never go; the reference price goes first, then the row
 * number, the share after, the notional, the limit and the quantity.
 */
import type { EvidenceAge } from "../core/evidence-age.js";
import { cashAfter } from "../run/portfolio.js";
import { fundedBySellsText } from "../gate/format.js";
import { money, pct, price, quantity } from "../printers/format.js";
import type { ApprovalRequest } from "../run/approval.js";
import { sanitizeLine, sanitizeText } from "../util/sanitize.js";
import { type ApprovalRow, isApprovable, isEdited, referencePrice, shareAfter } from "./approval-model.js";
import { type Column, cell, cells, fitColumns } from "./columns.js";
import { positionLabel } from "./scroll.js";
import { prettyText, wrapIndented, wrapText } from "./text.js";
import type { Line } from "./components.js";
import type { ApprovalMode, ApprovalScreenState } from "./approval-modes.js";
import { portfolioLines } from "./portfolio-lines.js";
import type { Tone } from "./theme.js";

type ColumnId = "n" | "side" | "symbol" | "qty" | "limit" | "ref" | "notional" | "after";

const COLUMNS: readonly Column<ColumnId>[] = [
  { id: "n", header: "#", width: 4, align: "left", priority: 2 },
  { id: "side", header: "side", width: 5, align: "left", priority: Number.POSITIVE_INFINITY },
  { id: "symbol", header: "symbol", width: 9, align: "left", priority: Number.POSITIVE_INFINITY },
  { id: "qty", header: "qty", width: 9, align: "right", priority: 6 },
  { id: "limit", header: "limit", width: 11, align: "right", priority: 5 },
  { id: "ref", header: "ref", width: 11, align: "right", priority: 1 },
  { id: "notional", header: "notional", width: 14, align: "right", priority: 4 },
  { id: "after", header: "after", width: 8, align: "right", priority: 3 },
];
const MARKER = 2;
const VERDICT_MIN = 18;

/** The columns shown at `width` (the verdict takes the rest). */
export function orderColumns(width: number): Column<ColumnId>[] {
  return fitColumns(COLUMNS, width, VERDICT_MIN, MARKER + 1);
}

/** The table's header; the notional column names the base `currency` its amounts are in. */
export function headerRow(cols: readonly Column<ColumnId>[], currency = ""): string {
  return `${" ".repeat(MARKER)}${cols.map((c) => cell(c, c.id === "notional" && currency ? `${c.header} ${currency}` : c.header)).join("")} verdict`;
}

function fmtShare(s: ReturnType<typeof shareAfter>): string {
  return s === null ? "—" : `${s.orderOnly && s.share >= 0 ? "+" : ""}${pct(s.share * 100, 1)}`;
}

function tickOf(req: ApprovalRequest, symbol: string): number | undefined {
  return req.ticks?.[symbol.toUpperCase()];
}

export function orderRow(
  req: ApprovalRequest,
  cols: readonly Column<ColumnId>[],
  r: ApprovalRow,
  i: number,
  selected: boolean,
): { cells: string; verdict: string; tone: Tone } {
  const d = r.decision;
  const tick = tickOf(req, r.order.symbol);
  const ref = referencePrice(req, r);
  const notional = d?.notional ?? r.order.quantity * r.order.limit_price;
  const value: Record<ColumnId, string> = {
    n: String(i + 1),
    side: r.order.side,
    symbol: sanitizeLine(r.order.symbol),
    qty: quantity(r.order.quantity),
    limit: price(r.order.limit_price, tick),
    ref: ref === null ? "—" : price(ref, tick),
    notional: money(notional),
    after: fmtShare(shareAfter(req, r)),
  };
  const verdict = r.dropped
    ? "dropped"
    : d?.approved
      ? `ok${isEdited(r) ? " (edited)" : ""}${d.funded_by_sells ? " · after the sells" : ""}`
      : `BLOCKED ${d?.reasons.map((x) => x.code).join(",") ?? ""}`;
  const tone: Tone = r.dropped ? "dim" : d?.approved ? "ok" : "error";
  return { cells: `${selected ? "›" : " "} ${cells(cols, value)} `, verdict, tone };
}

/** The selected order in brief (under the table). */
export function briefLines(req: ApprovalRequest, row: ApprovalRow, index: number, total = req.orders.length): Line[] {
  const o = row.order;
  const d = row.decision;
  const cur = req.baseCurrency ?? "";
  const tick = tickOf(req, o.symbol);
  const out: Line[] = [
    {
      tone: "plain",
      text: `order ${positionLabel(index, total)} · ${o.side} ${quantity(o.quantity)} ${sanitizeLine(o.symbol)} @ ${price(o.limit_price, tick)}${isEdited(row) ? ` (edited; proposed ${quantity(row.proposed.quantity)} @ ${price(row.proposed.limit_price, tick)})` : ""}${row.dropped ? " — DROPPED" : ""}`,
    },
  ];
  if (row.dropped) out.push({ tone: "dim", text: "gate: not evaluated (dropped; d keeps it again)" });
  else if (d?.approved) out.push({ tone: "ok", text: `gate: approved · notional ${money(d.notional, cur)} · commission ${money(d.commission, cur)}` });
  if (!row.dropped && d?.approved && d.funded_by_sells) out.push({ tone: "warn", text: fundedBySellsText(d.funded_by_sells) });
  else if (!row.dropped && !d?.approved) {
    const reasons = d?.reasons ?? [];
    out.push({
      tone: "error",
      text: `gate: BLOCKED${reasons.length ? ` · ${reasons.map((r) => `${r.code}: ${sanitizeLine(r.message)}`).join(" · ")}` : " (no verdict)"}`,
    });
  }
  out.push({ tone: "plain", text: `reason: ${sanitizeLine(o.reason || "(none)")}` });
  out.push({
    tone: "dim",
    text: `evidence: ${o.evidence_ids.length ? o.evidence_ids.map(sanitizeLine).join(", ") : "(none)"}${staleCount(req, o.evidence_ids)} · Enter: full reason and evidence`,
  });
  return out;
}

const tradingDays = (n: number): string => `${quantity(n)} trading day${n === 1 ? "" : "s"}`;

/** A cited item's date and age: `dated 2007-01-05 · 3 trading days old`, or `… · stale (412 trading days)`. */
function ageText(a: EvidenceAge): string {
  return `dated ${a.day} · ${a.stale ? `stale (${tradingDays(a.age_trading_days)})` : `${tradingDays(a.age_trading_days)} old`}`;
}

/** ` · N stale` for an order citing stale evidence; empty otherwise. */
function staleCount(req: ApprovalRequest, ids: readonly string[]): string {
  const n = new Set(ids.filter((id) => req.evidenceAges?.[id]?.stale)).size;
  return n > 0 ? ` · ${n} stale` : "";
}

/** Everything about one order: verdict with every reason, the full reason, each evidence item (dated, with its age). */
function detailLines(req: ApprovalRequest, row: ApprovalRow, index: number, width: number): Line[] {
  const out: Line[] = [];
  const push = (text: string, tone: Tone = "plain") => {
    for (const l of wrapText(text, width)) out.push({ text: l, tone });
  };
  const [head] = briefLines(req, row, index);
  if (head) push(head.text, "accent");
  const d = row.decision;
  if (row.dropped) push("gate: not evaluated (dropped)", "dim");
  else if (d?.approved)
    push(`gate: approved · notional ${money(d.notional, req.baseCurrency ?? "")} · commission ${money(d.commission, req.baseCurrency ?? "")}`, "ok");
  if (!row.dropped && d?.approved && d.funded_by_sells)
    push(`${fundedBySellsText(d.funded_by_sells)}; if they fill short or not at all, the buy is shrunk to the cash received or dropped`, "warn");
  else if (!row.dropped && !d?.approved) {
    push("gate: BLOCKED", "error");
    for (const r of d?.reasons ?? []) push(`  ${r.code}: ${sanitizeLine(r.message)}`, "error");
  }
  out.push({ text: "", tone: "plain" });
  push("Reason", "accent");
  for (const l of wrapText(sanitizeText(row.order.reason || "(none)"), width - 2)) out.push({ text: `  ${l}`, tone: "plain" });
  out.push({ text: "", tone: "plain" });
  push(`Evidence (${row.order.evidence_ids.length})`, "accent");
  if (row.order.evidence_ids.length === 0) push("  (none cited)", "dim");
  for (const id of row.order.evidence_ids) {
    const item = req.evidence?.[id];
    const age = req.evidenceAges?.[id];
    push(`  ${sanitizeLine(id)}${age ? ` · ${ageText(age)}` : ""}`, age?.stale ? "warn" : "plain");
    if (item === undefined) {
      push("    (the item is not available: not returned by a tool in this run's transcript)", "warn");
      continue;
    }
    const body = sanitizeText(prettyText(typeof item === "string" ? item : JSON.stringify(item)));
    for (const l of wrapIndented(body, width - 4)) out.push({ text: `    ${l}`, tone: "dim" });
  }
  return out;
}

export function cashAfterRows(req: ApprovalRequest, rows: readonly ApprovalRow[]): number | null {
  if (!req.portfolio) return null;
  return cashAfter(
    req.portfolio.cash,
    rows.filter(isApprovable).flatMap((r) => (r.decision ? [r.decision] : [])),
    req.portfolio.currency,
  );
}

/** The lines of the details or portfolio view (none in any other mode, or with nothing to show). */
export function viewLines(req: ApprovalRequest, s: ApprovalScreenState, mode: ApprovalMode, width: number): Line[] {
  const row = s.rows[s.selected];
  if (mode.kind === "details" && row) return detailLines(req, row, s.selected, width);
  if (mode.kind === "portfolio" && req.portfolio) return portfolioLines(req.portfolio, cashAfterRows(req, s.rows), width, 10_000);
  return [];
}
