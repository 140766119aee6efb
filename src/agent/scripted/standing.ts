/**
 * The scripted policy `standing-orders`: it trades nothing today and proposes standing orders for the
 * operator's review, so the standing-order review screen is reachable on the embedded defaults
 * (`model.script = "standing-orders"`): a stop-loss 10% under the last close for each holding, or,
 * with nothing held, a buy-limit-below 5% under the first instrument's last close, sized to ~5% of
 * the cash. Each is a proposal: nothing is armed until the operator approves it.
 */
import { type Action, opening, submit } from "./actions.js";
import { last, type Step } from "./conversation.js";
import { cents, holdingsOf, num, universeOf } from "./results.js";

const STOP_PCT = 10;
const DIP_PCT = 5;
const CASH_SHARE = 0.05;
const TTL_DAYS = 20;
/** The benchmark index: listed, never bought. */
const INDEX = "SPX";

export function standingOrdersAction(steps: Step[]): Action {
  const open = opening(steps);
  if (open) return open;
  const pf = last(steps, "get_portfolio", true)?.result ?? {};
  const held = holdingsOf(pf);
  const targets =
    held.length > 0
      ? held.map((h) => h.symbol)
      : universeOf(steps)
          .filter((s) => s !== INDEX)
          .slice(0, 1);
  const fetched = new Set(steps.filter((s) => s.name === "get_price_history").map((s) => String(s.input.symbol)));
  const missing = targets.filter((t) => !fetched.has(t));
  if (missing.length > 0)
    return {
      text: `Fetching ${missing.join(", ")} to set standing orders.`,
      calls: missing.map((symbol) => ({ name: "get_price_history", input: { symbol } })),
    };
  const placed = new Set(steps.filter((s) => s.name === "place_standing_order").map((s) => String(s.input.symbol)));
  const calls = targets.filter((t) => !placed.has(t)).flatMap((t) => placeCall(steps, t, held.find((h) => h.symbol === t)?.quantity, num(pf.cash) ?? 0));
  if (calls.length > 0) return { text: `Proposing ${calls.length} standing order(s) for your review.`, calls };
  return submit([], `No trades today; ${placed.size} standing order(s) proposed for your review (\`tradewarden standing\`).`);
}

function placeCall(steps: Step[], symbol: string, heldQty: number | undefined, cash: number): { name: string; input: Record<string, unknown> }[] {
  const h = steps.find((s) => s.name === "get_price_history" && s.ok && String(s.input.symbol) === symbol)?.result;
  const close = num(h?.last_close);
  if (!h || close === undefined) return [];
  const evidence = [String(h.evidence_id ?? "")].filter(Boolean);
  if (heldQty !== undefined) {
    const trigger = cents(close * (1 - STOP_PCT / 100));
    return [
      {
        name: "place_standing_order",
        input: {
          symbol,
          type: "stop_loss",
          trigger_price: trigger,
          quantity: heldQty,
          limit_price: trigger,
          ttl_trading_days: TTL_DAYS,
          reason: `Protective stop ${STOP_PCT}% under the last close: sell the whole holding if it falls that far.`,
          evidence_ids: evidence,
        },
      },
    ];
  }
  const trigger = cents(close * (1 - DIP_PCT / 100));
  const quantity = Math.floor((cash * CASH_SHARE) / trigger);
  if (quantity < 1) return [];
  return [
    {
      name: "place_standing_order",
      input: {
        symbol,
        type: "buy_limit_below",
        trigger_price: trigger,
        quantity,
        limit_price: trigger,
        ttl_trading_days: TTL_DAYS,
        reason: `Buy on a ${DIP_PCT}% dip under the last close, sized to about ${CASH_SHARE * 100}% of the cash.`,
        evidence_ids: evidence,
      },
    },
  ];
}
