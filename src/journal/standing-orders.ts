/**
 * The standing-order collection of the journal: stop-loss, take-profit and buy-limit-below orders
 * the model proposes, the operator approves (the approval binds to a hash of the trigger and the
 * order it would place), and a later run fires when the reference price crosses the trigger.
 * Stored as `standing` events in the journal's log; this module holds the records and the fold.
 */
import { createHash } from "node:crypto";
import type { Static } from "@sinclair/typebox";
import type { Side } from "../core/domain.js";
import type * as S from "./schemas.js";

export type StandingType = Static<typeof S.StandingType>;
export type StandingOrder = Static<typeof S.StandingOrder>;
export type StandingEvent = Static<typeof S.StandingEvent>;

export interface StandingState {
  orders: Map<string, StandingOrder>;
  seq: number;
}

export const MAX_OPEN_STANDING_ORDERS = 20;
export const SIDE_OF: Record<StandingType, Side> = { stop_loss: "SELL", take_profit: "SELL", buy_limit_below: "BUY" };

export function emptyStandingState(): StandingState {
  return { orders: new Map(), seq: 0 };
}

export function bindingHash(o: Pick<StandingOrder, "symbol" | "type" | "trigger_price" | "side" | "quantity" | "limit_price" | "expires_on">): string {
  return createHash("sha256")
    .update(JSON.stringify([o.symbol.toUpperCase(), o.type, o.trigger_price, o.side, o.quantity, o.limit_price, o.expires_on]))
    .digest("hex");
}

export function applyStanding(s: StandingState, ev: StandingEvent): void {
  if (ev.kind === "propose") {
    s.orders.set(ev.order.id, { ...ev.order });
    const m = /^so-(\d+)$/.exec(ev.order.id);
    if (m) s.seq = Math.max(s.seq, Number(m[1]));
    return;
  }
  const o = s.orders.get(ev.id);
  if (!o) return;
  if (ev.kind === "approve") {
    // An approval binds only to exactly the trigger and order it was given for.
    if (o.status === "proposed" && ev.binding_hash === o.binding_hash) {
      o.status = "active";
      o.approval = { by: ev.by, at: ev.at, binding_hash: ev.binding_hash, ...(ev.note ? { note: ev.note } : {}) };
    }
    return;
  }
  if (ev.kind === "end") {
    if (o.status === "proposed" || o.status === "active") {
      o.status = ev.status;
      o.end = { at: ev.at, by: ev.by, reason: ev.reason };
    }
    return;
  }
  if (o.status === "active") {
    o.status = ev.placed ? "placed" : "blocked";
    o.fired = { ...ev.fired };
  }
}

/** Open (proposed or active) standing orders, oldest first. */
export function openStandingOrders(s: StandingState): StandingOrder[] {
  return [...s.orders.values()].filter((o) => o.status === "proposed" || o.status === "active").map((o) => ({ ...o }));
}
