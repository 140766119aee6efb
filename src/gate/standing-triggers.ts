/**
 * Which approved standing orders fire on a trading day (pure). A standing order is checked only by
 * runs after the one that proposed it; it expires after its last day; it fires when the reference
 * price (the last close before the trading day) crosses its trigger:
 *   stop_loss: reference ≤ trigger (sell) · take_profit: reference ≥ trigger (sell) ·
 *   buy_limit_below: reference ≤ trigger (buy).
 */
export interface TriggerCandidate {
  id: string;
  symbol: string;
  type: "stop_loss" | "take_profit" | "buy_limit_below";
  trigger_price: number;
  proposed_day: string;
  expires_on: string;
}

export type TriggerVerdict<T> =
  | { kind: "expired"; order: T }
  | { kind: "triggered"; order: T; reference_price: number }
  | { kind: "waiting"; order: T; reference_price: number | null };

export function crosses(type: TriggerCandidate["type"], reference: number, trigger: number): boolean {
  return type === "take_profit" ? reference >= trigger : reference <= trigger;
}

export function checkTriggers<T extends TriggerCandidate>(
  orders: readonly T[],
  tradingDay: string,
  referencePrice: (symbol: string) => number | undefined,
): TriggerVerdict<T>[] {
  const out: TriggerVerdict<T>[] = [];
  for (const order of orders) {
    if (order.proposed_day >= tradingDay) continue; // only later runs check it
    if (tradingDay > order.expires_on) {
      out.push({ kind: "expired", order });
      continue;
    }
    const ref = referencePrice(order.symbol);
    if (ref !== undefined && crosses(order.type, ref, order.trigger_price)) out.push({ kind: "triggered", order, reference_price: ref });
    else out.push({ kind: "waiting", order, reference_price: ref ?? null });
  }
  return out;
}
