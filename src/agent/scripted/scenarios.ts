/**
 * The scripted model's test scenarios (`model.script`), each a fixed path through the tools:
 * `invalid-then-repair`, `blocked-then-revise` and `pending-abandoned`. (`hold`, `no-submit` and
 * `runaway` are one-liners in the client; `slow` never answers.)
 */
import type { ProposedOrder } from "../../core/domain.js";
import { type Action, opening, submit } from "./actions.js";
import { last, type Step } from "./conversation.js";
import { cents, num, pendingCodes, universeOf } from "./results.js";

/** Asks for a history with invalid arguments, then repairs them as the correction says, then holds. */
export function invalidThenRepair(steps: Step[]): Action {
  const open = opening(steps);
  if (open) return open;
  const symbol = universeOf(steps)[0] ?? "ALFA";
  const ph = steps.filter((s) => s.name === "get_price_history");
  if (ph.length === 0) {
    return { text: `Fetching ${symbol}'s history.`, calls: [{ name: "get_price_history", input: { ticker: symbol, lookback_days: "six months" } }] };
  }
  if (!ph.some((s) => s.ok)) {
    return { text: "My arguments were invalid; repairing them as the correction says.", calls: [{ name: "get_price_history", input: { symbol } }] };
  }
  return submit([], `Holding after reviewing ${symbol}.`);
}

/** Submits one share outside the price band, then revises the limit to the reference price. */
export function blockedThenRevise(steps: Step[]): Action {
  const open = opening(steps);
  if (open) return open;
  const pf = last(steps, "get_portfolio", true)?.result ?? {};
  const symbol = universeOf(steps)[0] ?? "ALFA";
  const h = last(steps, "get_price_history", true);
  if (!last(steps, "get_price_history")) return { text: `Fetching ${symbol}'s history.`, calls: [{ name: "get_price_history", input: { symbol } }] };
  const close = num(h?.result.last_close) ?? 100;
  const evidence = [String(pf.evidence_id ?? ""), String(h?.result.evidence_id ?? "")].filter(Boolean);
  const order = (limit: number): ProposedOrder => ({
    symbol,
    side: "BUY",
    quantity: 1,
    limit_price: limit,
    reason: "Scenario: one share to exercise the gate.",
    evidence_ids: evidence,
  });
  const submits = steps.filter((s) => s.name === "submit_orders");
  if (submits.length === 0) return submit([order(cents(close * 1.1))], "One share, limit 10% over the reference (deliberately outside the band).");
  return submit([order(cents(close))], "Revised: limit at the reference price.");
}

/** Makes a history call it never repairs, then abandons its pending code to submit a hold. */
export function pendingAbandoned(steps: Step[]): Action {
  const open = opening(steps);
  if (open) return open;
  if (!last(steps, "get_price_history")) {
    return { text: "Fetching a history with arguments I will not repair.", calls: [{ name: "get_price_history", input: {} }] };
  }
  const submits = steps.filter((s) => s.name === "submit_orders");
  if (submits.length === 0) return submit([], "Holding.");
  const refused = submits[submits.length - 1] as Step;
  const codes = pendingCodes(refused.result);
  return submit([], "Holding.", codes.length ? codes : ["invalid_tool_arguments"], "The history call is not needed for a hold.");
}
