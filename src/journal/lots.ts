/**
 * The open lots of one holding (pure): its buy fills, first in first out, less what its sells and
 * the operator's position adjustments took away. The journal's books keep one average cost
 * (commission included, unchanged by sells: state.ts); the lots say when and at what price each
 * part of the position was bought. A position the fills do not explain (an adopted increase) is an
 * `adjustment` lot.
 */
import type { AdjustmentRecord, FillRecord } from "./types.js";

export interface OpenLot {
  /** The fill's run (null for an adjustment). */
  run_id: string | null;
  /** When the fill or the adjustment was booked (ISO time). */
  at: string;
  source: "fill" | "adjustment";
  /** Still open of this lot. */
  quantity: number;
  /** Fill price in the instrument's currency (null for an adjustment). */
  price: number | null;
  fx_to_base: number | null;
  /** Commission of the open part, base-currency minor units (exact share of the fill's). */
  commission_minor: number;
  /** Cost of the open part with its commission, base-currency minor units. */
  cost_minor: number;
}

interface Movement {
  at: string;
  seq: number;
  delta: number;
  lot?: Omit<OpenLot, "quantity" | "commission_minor" | "cost_minor"> & { gross_minor: number; commission_minor: number; quantity: number };
}

const EPS = 1e-9;

function movements(symbol: string, fills: readonly FillRecord[], adjustments: readonly AdjustmentRecord[]): Movement[] {
  const out: Movement[] = [];
  fills.forEach((f, seq) => {
    if (f.symbol !== symbol) return;
    if (f.side === "SELL") {
      out.push({ at: f.at, seq, delta: -f.quantity });
      return;
    }
    out.push({
      at: f.at,
      seq,
      delta: f.quantity,
      lot: {
        run_id: f.run_id,
        at: f.at,
        source: "fill",
        price: f.price,
        fx_to_base: f.fx_to_base,
        quantity: f.quantity,
        gross_minor: f.gross_minor,
        commission_minor: f.commission_minor,
      },
    });
  });
  adjustments.forEach((a, k) => {
    if (a.kind !== "position" || a.symbol !== symbol || !a.quantity_delta) return;
    const seq = fills.length + k;
    if (a.quantity_delta < 0) out.push({ at: a.at, seq, delta: a.quantity_delta });
    else {
      const lot = { run_id: null, at: a.at, source: "adjustment" as const, price: null, fx_to_base: null, quantity: a.quantity_delta };
      out.push({ at: a.at, seq, delta: a.quantity_delta, lot: { ...lot, gross_minor: a.basis_minor ?? 0, commission_minor: 0 } });
    }
  });
  return out.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : x.seq - y.seq));
}

/** The open lots of `symbol`, oldest first, in the order the fills and adjustments were booked. */
export function openLots(symbol: string, fills: readonly FillRecord[], adjustments: readonly AdjustmentRecord[] = []): OpenLot[] {
  const open: { m: NonNullable<Movement["lot"]>; left: number }[] = [];
  for (const mv of movements(symbol.toUpperCase(), fills, adjustments)) {
    if (mv.lot) {
      open.push({ m: mv.lot, left: mv.lot.quantity });
      continue;
    }
    let toTake = -mv.delta;
    while (toTake > EPS && open.length > 0) {
      const first = open[0] as (typeof open)[number];
      const take = Math.min(first.left, toTake);
      first.left -= take;
      toTake -= take;
      if (first.left <= EPS) open.shift();
    }
  }
  return open.map(({ m, left }) => {
    const share = m.quantity > 0 ? left / m.quantity : 0;
    return {
      run_id: m.run_id,
      at: m.at,
      source: m.source,
      quantity: left,
      price: m.price,
      fx_to_base: m.fx_to_base,
      commission_minor: Math.round(m.commission_minor * share),
      cost_minor: Math.round((m.gross_minor + m.commission_minor) * share),
    };
  });
}
