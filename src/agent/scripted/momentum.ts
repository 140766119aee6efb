/**
 * The momentum policy turn by turn: open with the account and universe, read the price histories
 * (holdings first, at most 12, six per turn), search the news for the candidates, dry-run them
 * through check_orders, then submit what the gate approved. A refused submission is revised: a
 * bounce drops the blocked orders, a pending-corrections refusal abandons the listed codes.
 */
import type { ProposedOrder } from "../../core/domain.js";
import { hasOrderIntentType } from "../../core/order-intent.js";
import { applyNews, newsToSearch } from "../scripted-news.js";
import { watchAction } from "../scripted-watch.js";
import { type Action, opening, submit } from "./actions.js";
import { last, type Step } from "./conversation.js";
import { HISTORY_BATCH, MAX_HISTORIES, momentumOrders, STOP_DRAWDOWN_PCT } from "./momentum-orders.js";
import { decisionsOf, holdingsOf, keepApproved, pendingCodes, universeOf } from "./results.js";
import type { ScriptedOptions } from "./scripts.js";

/** The momentum policy's next turn (in watch mode its candidates go on the watchlist instead). */
export function momentumAction(steps: Step[], limits: ScriptedOptions["limits"], watch = false): Action {
  const open = opening(steps);
  if (open) return open;
  const pf = last(steps, "get_portfolio", true)?.result;
  if (!pf) return submit([], "Holding: the portfolio could not be read, so no trade can be sized safely.");

  const lastSubmit = last(steps, "submit_orders");
  if (lastSubmit && !lastSubmit.ok) return afterRefusedSubmit(lastSubmit);

  // Histories: holdings first, then the universe in listed order.
  const wanted = [...new Set([...holdingsOf(pf).map((h) => h.symbol), ...universeOf(steps)])].slice(0, MAX_HISTORIES);
  const asked = new Set(steps.filter((s) => s.name === "get_price_history").map((s) => String(s.input.symbol)));
  const limitHit = steps.some((s) => s.name === "get_price_history" && s.result.error_code === "tool_call_limit_reached");
  const todo = limitHit ? [] : wanted.filter((s) => !asked.has(s)).slice(0, HISTORY_BATCH);
  if (todo.length > 0) {
    return {
      text: `Looking at the price history of ${todo.join(", ")}.`,
      calls: todo.map((symbol) => ({ name: "get_price_history", input: { symbol } })),
    };
  }

  const momentum = momentumOrders(steps, limits);
  if (watch) return watchAction(steps, momentum.orders);
  const toSearch = newsToSearch(momentum.orders, steps);
  if (toSearch.length > 0) {
    return {
      text: `Checking the news before the trading day for ${toSearch.join(", ")}.`,
      calls: toSearch.map((symbol) => ({ name: "search_news", input: { query: symbol, max_results: 3 } })),
    };
  }
  const news = applyNews(momentum.orders, steps);
  const orders = news.orders;
  const notes = [...momentum.notes, ...news.notes];
  if (orders.length === 0) return submit([], `Holding: ${notes.join("; ") || "nothing qualifies"}. Doing nothing is the right call today.`);
  const check = last(steps, "check_orders");
  if (!check) {
    return {
      text: `Momentum candidates: ${orders.map((o) => `${o.side} ${o.quantity} ${o.symbol} @ ${o.limit_price}`).join(", ")}. Dry-running them through the gate.`,
      calls: [{ name: "check_orders", input: { orders } }],
    };
  }
  const approved = check.ok ? keepApproved(orders, decisionsOf(check.result)) : orders;
  const dropped = orders.length - approved.length;
  const summary =
    approved.length === 0
      ? `Holding: the gate blocked every momentum candidate (${orders.map((o) => o.symbol).join(", ")}).`
      : `Momentum: ${approved.map((o) => `${o.side} ${o.quantity} ${o.symbol} @ ${o.limit_price}`).join(", ")}.${dropped ? ` ${dropped} candidate(s) dropped after the gate's dry run.` : ""} Exit rule: below SMA50 or >${STOP_DRAWDOWN_PCT}% under the 6-month high; entry: positive 3-month return with close > SMA20 > SMA50.`;
  return submit(approved, summary, abandonable(steps));
}

/** Pending retryable codes left over from earlier calls that the policy gives up on. */
function abandonable(steps: Step[]): string[] {
  const pending = new Map<string, string>();
  for (const s of steps) {
    if (s.ok) pending.delete(s.name);
    else if (s.result.retryable === true && s.name !== "submit_orders") pending.set(s.name, String(s.result.error_code));
    else pending.delete(s.name);
  }
  return [...new Set(pending.values())];
}

function afterRefusedSubmit(refused: Step): Action {
  // The orders it sent itself, narrowed back to their type.
  const sent: unknown = refused.input.orders;
  const prev: ProposedOrder[] = Array.isArray(sent) ? sent.filter(hasOrderIntentType) : [];
  const abandoned: unknown = refused.input.abandon_error_codes;
  const code = String(refused.result.error_code ?? "");
  if (code === "orders_blocked") {
    const kept = keepApproved(prev, decisionsOf(refused.result));
    return submit(
      kept,
      `Revised after the gate's verdicts: kept ${kept.length} of ${prev.length} order(s); blocked ones removed.`,
      Array.isArray(abandoned) ? abandoned.filter((c): c is string => typeof c === "string") : [],
    );
  }
  if (code === "pending_corrections") {
    const codes = pendingCodes(refused.result);
    return submit(
      prev,
      String(refused.input.summary ?? "Proposal."),
      codes,
      "These calls could not be repaired within this run; the proposal does not depend on them.",
    );
  }
  return submit([], `Holding: submit_orders failed (${code}); proposing no trades.`, pendingCodes(refused.result));
}
