/**
 * The scripted model in watch mode (`run --mode watch`): the momentum policy's candidates go on the
 * watchlist instead of into orders (buys with an alert 3% under the last close, sells as a warning),
 * then it submits an empty list. Derived from the conversation alone, like the rest of the script.
 */
import type { ProposedOrder } from "../core/domain.js";
import type { Message } from "./types.js";

/** Whether the task message opens a watch-mode run (the prompt's wording is the contract). */
export function isWatchTask(messages: readonly Message[]): boolean {
  const first = messages[0]?.content.find((b) => b.type === "text");
  return first?.type === "text" && /^Watch mode:/m.test(String(first.text));
}

export interface WatchStep {
  name: string;
  input: Record<string, unknown>;
}

/** The next calls: add what is not yet on the list, then the empty submission. */
export function watchAction(
  steps: readonly WatchStep[],
  candidates: readonly ProposedOrder[],
): { text: string; calls: { name: string; input: Record<string, unknown> }[] } {
  const added = new Set(steps.filter((s) => s.name === "add_watchlist").map((s) => String(s.input.symbol)));
  const todo = candidates.filter((o) => !added.has(o.symbol));
  if (todo.length > 0) {
    return {
      text: `Watch mode: putting ${todo.map((o) => o.symbol).join(", ")} on the watchlist instead of trading.`,
      calls: todo.map((o) => ({
        name: "add_watchlist",
        input: {
          symbol: o.symbol,
          reason: `${o.side === "BUY" ? "Entry candidate" : "Exit warning"}: ${o.reason}`.slice(0, 300),
          ttl_trading_days: 10,
          ...(o.side === "BUY" ? { alert_below: Math.round(o.limit_price * 0.97 * 100) / 100 } : {}),
        },
      })),
    };
  }
  const summary =
    candidates.length === 0
      ? "Watch mode: nothing qualifies for the watchlist today."
      : `Watch mode: ${candidates.length} candidate(s) on the watchlist; no order in this run.`;
  return { text: "Submitting an empty list (watch mode).", calls: [{ name: "submit_orders", input: { orders: [], summary } }] };
}
