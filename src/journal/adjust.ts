/**
 * Adoption of the broker's side: an operator resolves a difference reconciliation could not
 * explain by recording an append-only adjustment (never an edit of what was booked). Pure: builds
 * the journal events from the differences; `Journal.recordAdjustments` commits them atomically.
 */
import type { ReconcileDifference } from "../core/events.js";
import { Dec, toMinor } from "../core/money.js";
import type { AdjustmentRecord, JournalEventBody } from "./types.js";

export interface AdoptionInput {
  differences: readonly ReconcileDifference[];
  reason: string;
  by: string;
  at: string;
  /** The journal's base currency (minor units). */
  currency: string;
  /** Adjustments already in the journal (ids continue from there). */
  existing: number;
}

/** The differences an operator may adopt (the others need an action at the broker, or time). */
function adoptable(differences: readonly ReconcileDifference[]): ReconcileDifference[] {
  return differences.filter((d) => d.adoptable === true);
}

export function adoptionEvents(input: AdoptionInput): JournalEventBody[] {
  const reason = input.reason.trim();
  if (!reason) throw new Error("an adjustment needs a reason");
  const events: JournalEventBody[] = [];
  let n = input.existing;
  for (const d of adoptable(input.differences)) {
    const base = { id: `adj-${++n}`, difference: `${d.kind} ${d.symbol}: ${d.message}`, reason, by: input.by, at: input.at };
    let a: AdjustmentRecord | null = null;
    if (d.kind === "unbooked_position" || d.kind === "missing_position" || d.kind === "position_mismatch") {
      const delta = new Dec(d.broker_quantity ?? 0).sub(d.journal_quantity ?? 0).toNumber();
      if (delta === 0) continue;
      a = { ...base, kind: "position", symbol: d.symbol, quantity_delta: delta };
      // Exact: quantity × the broker's average cost, rounded once to minor units.
      if (delta > 0) a.basis_minor = toMinor(new Dec(delta).mul(d.broker_avg_cost ?? 0), input.currency);
    } else if (d.kind === "cash_mismatch") {
      const amount = toMinor(new Dec(d.broker_cash_flow ?? 0).sub(d.journal_cash_flow ?? 0), input.currency);
      if (amount === 0) continue;
      a = { ...base, kind: "cash", amount_minor: amount };
    } else if (d.kind === "unsettled_order" && d.client_order_id) {
      a = { ...base, kind: "order", symbol: d.symbol, client_order_id: d.client_order_id };
      events.push({
        t: "order_update",
        client_order_id: d.client_order_id,
        entry: { status: "rejected", at: input.at, message: `adopted by ${input.by}: the broker has no such order (${reason})` },
      });
    }
    if (a) events.push({ t: "adjustment", adjustment: a });
  }
  return events;
}
