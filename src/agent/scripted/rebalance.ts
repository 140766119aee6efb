/**
 * The rebalance policy turn by turn: as the momentum policy (market overview, account, universe,
 * histories, news, the gate's dry run, submission), and when its proposal swaps the weakest holding
 * for the strongest candidate it reads that holding with get_position first (its lots and P&L are
 * cited with the sell). A swap whose buy the news drops is not made: its sell is dropped too.
 */
import type { ProposedOrder } from "../../core/domain.js";
import { watchAction } from "../scripted-watch.js";
import type { Action } from "./actions.js";
import type { Step } from "./conversation.js";
import { researchAndSubmit, sharedOpening } from "./flow.js";
import { MOMENTUM_RULE } from "./momentum.js";
import { REBALANCE_RULE, rebalanceOrders } from "./rebalance-orders.js";
import type { ScriptedOptions } from "./scripts.js";

export function rebalanceAction(steps: Step[], limits: ScriptedOptions["limits"], watch: boolean, offered: ReadonlySet<string>): Action {
  const first = sharedOpening(steps, offered);
  if (first) return first;

  const proposal = rebalanceOrders(steps, limits);
  if (watch) return watchAction(steps, proposal.orders);
  const swap = proposal.swap;
  if (!swap) return researchAndSubmit(steps, proposal, { label: "Momentum", rule: MOMENTUM_RULE });
  const sold = swap.sell.symbol;
  if (offered.has("get_position") && !steps.some((s) => s.name === "get_position" && s.input.symbol === sold)) {
    return {
      text: `Reading ${sold}, the weakest holding, in depth before selling it to fund ${swap.buy.symbol}.`,
      calls: [{ name: "get_position", input: { symbol: sold } }],
    };
  }
  // The news may drop the buy (it rewrites the orders it keeps, so they are matched by symbol and side).
  const isBuy = (o: ProposedOrder) => o.symbol === swap.buy.symbol && o.side === "BUY";
  const isSell = (o: ProposedOrder) => o.symbol === sold && o.side === "SELL" && o.reason.startsWith("Rebalance:");
  const keep = (orders: ProposedOrder[], notes: string[]) => {
    if (orders.some(isBuy)) return orders;
    notes.push(`the buy of ${swap.buy.symbol} was dropped, so ${sold} is kept`);
    return orders.filter((o) => !isSell(o));
  };
  return researchAndSubmit(steps, proposal, { label: "Rebalance", rule: REBALANCE_RULE, keep });
}
