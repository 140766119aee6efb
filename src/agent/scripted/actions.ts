/** The scripted model's turn: text plus tool calls; the submission and the opening calls every script shares. */
import type { ProposedOrder } from "../../core/domain.js";
import { last, type Step } from "./conversation.js";

export interface Action {
  text: string;
  calls?: { name: string; input: Record<string, unknown> }[];
}

/** submit_orders with these orders (none = a hold), abandoning the given pending codes. */
export function submit(orders: ProposedOrder[], summary: string, abandon: string[] = [], explanation?: string): Action {
  return submitAction({ orders }, orders.length, summary, abandon, explanation);
}

/** submit_orders naming the orders of a check_orders result by its check_id (tw-tools/3): they are not sent again. */
export function submitChecked(checkId: string, count: number, summary: string, abandon: string[] = []): Action {
  return submitAction({ check_id: checkId }, count, summary, abandon);
}

function submitAction(what: Record<string, unknown>, count: number, summary: string, abandon: string[], explanation?: string): Action {
  const input: Record<string, unknown> = { ...what, summary };
  if (abandon.length > 0) {
    input.abandon_error_codes = abandon;
    input.abandon_explanation = explanation ?? "These retryable errors concern calls this proposal does not depend on.";
  }
  return {
    text: count === 0 ? "Submitting a hold." : `Submitting ${count} order(s).`,
    calls: [{ name: "submit_orders", input }],
  };
}

/**
 * get_portfolio and list_universe in one turn, until both have been called; with `overview` (a
 * trading policy, when the tool is offered) get_market_overview first, in the same turn. The
 * listing asks for `universeLimit` instruments (a policy that reads only the first few asks no more).
 */
export function opening(steps: Step[], overview = false, universeLimit = 50): Action | undefined {
  const wantOverview = overview && !last(steps, "get_market_overview");
  if (!last(steps, "get_portfolio") || !last(steps, "list_universe") || wantOverview) {
    return {
      text: wantOverview
        ? "Reading the market as a whole, the account and the tradable universe first."
        : "Reading the account and the tradable universe first.",
      calls: [
        ...(wantOverview ? [{ name: "get_market_overview", input: {} }] : []),
        { name: "get_portfolio", input: {} },
        { name: "list_universe", input: { limit: universeLimit } },
      ],
    };
  }
  return undefined;
}
