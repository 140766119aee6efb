/**
 * The steps the scripted trading policies share (momentum, rebalance): the histories to read, then
 * news for the candidates with the gate's dry run (one turn), and the submission; and the revision of a refused
 * submission (a bounce drops the blocked orders, a pending-corrections refusal abandons the codes).
 */
import type { ProposedOrder } from "../../core/domain.js";
import { hasOrderIntentType } from "../../core/order-intent.js";
import { applyNews, newsToSearch } from "../scripted-news.js";
import { type Action, opening, submit, submitChecked } from "./actions.js";
import { last, type Step } from "./conversation.js";
import { HISTORY_BATCH, MAX_HISTORIES } from "./momentum-orders.js";
import { decisionsOf, holdingsOf, keepApproved, pendingCodes, universeOf } from "./results.js";

/**
 * The turns both policies open with, in order: the overview (when offered), account and universe;
 * a hold when the portfolio could not be read; the revision of a refused submission; the price
 * histories. Undefined once all of them are done: the policy's own orders come next.
 */
export function sharedOpening(steps: Step[], offered: ReadonlySet<string>): Action | undefined {
  // The histories come from the holdings and the first MAX_HISTORIES listed: a longer listing is never read.
  const open = opening(steps, offered.has("get_market_overview"), MAX_HISTORIES);
  if (open) return open;
  const pf = last(steps, "get_portfolio", true)?.result;
  if (!pf) return holdUnread();
  const lastSubmit = last(steps, "submit_orders");
  if (lastSubmit && !lastSubmit.ok) return afterRefusedSubmit(steps, lastSubmit);
  return historyCalls(steps, pf, universeOf(steps));
}

/** The hold when the portfolio could not be read. */
export const holdUnread = (): Action => submit([], "Holding: the portfolio could not be read, so no trade can be sized safely.");

/** The next batch of price histories to read (holdings first, then `candidates` in order), if any. */
export function historyCalls(steps: Step[], pf: Record<string, unknown>, candidates: readonly string[]): Action | undefined {
  const wanted = [...new Set([...holdingsOf(pf).map((h) => h.symbol), ...candidates])].slice(0, MAX_HISTORIES);
  const asked = new Set(steps.filter((s) => s.name === "get_price_history").map((s) => String(s.input.symbol)));
  const limitHit = steps.some((s) => s.name === "get_price_history" && s.result.error_code === "tool_call_limit_reached");
  const todo = limitHit ? [] : wanted.filter((s) => !asked.has(s)).slice(0, HISTORY_BATCH);
  if (todo.length === 0) return undefined;
  return { text: `Looking at the price history of ${todo.join(", ")}.`, calls: todo.map((symbol) => ({ name: "get_price_history", input: { symbol } })) };
}

const listed = (orders: readonly ProposedOrder[]) => orders.map((o) => `${o.side} ${o.quantity} ${o.symbol} @ ${o.limit_price}`).join(", ");

/**
 * News for the candidates and the gate's dry run (one turn), then the submission of what it approved. `keep`
 * may drop more after the news (a rebalance without its buy drops its sell); `label` and `rule`
 * word the summary.
 */
export function researchAndSubmit(
  steps: Step[],
  proposal: { orders: ProposedOrder[]; notes: string[] },
  words: { label: string; rule: string; keep?: (orders: ProposedOrder[], notes: string[]) => ProposedOrder[] },
): Action {
  const toSearch = newsToSearch(proposal.orders, steps);
  const dryRun = !last(steps, "check_orders") && proposal.orders.length > 0;
  if (toSearch.length > 0 || dryRun) {
    // One turn for both: news can only drop a buy or reword a reason, so the gate's verdicts on
    // the candidates still hold for what is left of them after it.
    const news = toSearch.map((symbol) => ({ name: "search_news", input: { query: symbol, max_results: 3 } }));
    const asked = toSearch.length > 0 ? `news on ${toSearch.join(", ")}` : "";
    return {
      // (The candidates themselves are in the check_orders call: not repeated in the text.)
      text: dryRun
        ? `${asked ? `Checking ${asked} and dry-running` : "Dry-running"} the ${words.label.toLowerCase()} candidates through the gate.`
        : `Checking ${asked}.`,
      calls: [...news, ...(dryRun ? [{ name: "check_orders", input: { orders: proposal.orders } }] : [])],
    };
  }
  const news = applyNews(proposal.orders, steps);
  const notes = [...proposal.notes, ...news.notes];
  const orders = words.keep ? words.keep(news.orders, notes) : news.orders;
  if (orders.length === 0) return submit([], `Holding: ${notes.join("; ") || "nothing qualifies"}. Doing nothing is the right call today.`);
  const check = last(steps, "check_orders");
  // (A failed dry run leaves the verdicts to the submission.)
  const approved = check?.ok ? keepApproved(orders, decisionsOf(check.result)) : orders;
  const dropped = orders.length - approved.length;
  const said = notes.length > 0 ? ` Noted: ${notes.join("; ")}.` : "";
  const summary =
    approved.length === 0
      ? `Holding: the gate blocked every ${words.label.toLowerCase()} candidate (${orders.map((o) => o.symbol).join(", ")}).${said}`
      : `${words.label}: ${listed(approved)}.${dropped ? ` ${dropped} candidate(s) dropped after the gate's dry run.` : ""} ${words.rule}${said}`;
  // Exactly what the dry run checked: named by its check_id (tw-tools/3) rather than sent again.
  const checkId = check?.ok && typeof check.result.check_id === "string" ? check.result.check_id : undefined;
  if (checkId && approved.length > 0 && JSON.stringify(approved) === JSON.stringify(check?.input.orders))
    return submitChecked(checkId, approved.length, summary, abandonable(steps));
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

/** The orders a submission sent, or named by the check_id of a check_orders call. */
function submittedOrders(steps: Step[], submission: Step): unknown {
  const id = submission.input.check_id;
  if (id === undefined) return submission.input.orders;
  return steps.find((s) => s.name === "check_orders" && s.ok && s.result.check_id === id)?.input.orders;
}

/** The turn after a refused submit_orders: revise once, or hold. */
export function afterRefusedSubmit(steps: Step[], refused: Step): Action {
  // The orders it sent itself (or named by a check_id), narrowed back to their type.
  const sent = submittedOrders(steps, refused);
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
