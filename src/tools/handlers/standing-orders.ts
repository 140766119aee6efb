/**
 * Handlers of the standing-order tools (place_standing_order, list_standing_orders,
 * cancel_standing_order). Placing only proposes: the order waits for the operator's approval.
 */
import type { PriceSource } from "../../core/domain.js";
import type { cancelStandingOrder, listStandingOrders, placeStandingOrder } from "../defs/standing-orders.js";
import type { AnswerOf, ArgsOf, HandlerOf } from "../define.js";
import type { ToolCallContext } from "../types.js";
import type { JournalToolDeps } from "../../journal/tool-deps.js";
import { bindingHash, MAX_OPEN_STANDING_ORDERS, openStandingOrders, SIDE_OF, type StandingOrder, type StandingType } from "../../journal/standing-orders.js";
import { iso } from "../../journal/time.js";
import { addTradingDays } from "../../journal/watchlist.js";

const DEFAULT_TTL = 20;

/** A standing order as the model and the operator see it: the record plus the reference price now. */
function standingView(o: StandingOrder, prices: PriceSource) {
  const ref = prices.referencePrice(o.symbol);
  return { ...o, reference_price: ref?.price ?? null, price_as_of: ref?.as_of ?? null };
}

export function makeStandingOrderHandlers(deps: JournalToolDeps): {
  place_standing_order: HandlerOf<typeof placeStandingOrder>;
  list_standing_orders: HandlerOf<typeof listStandingOrders>;
  cancel_standing_order: HandlerOf<typeof cancelStandingOrder>;
} {
  return { place_standing_order: makePlace(deps), list_standing_orders: makeList(deps), cancel_standing_order: makeCancel(deps) };
}

type PlaceArgs = ArgsOf<typeof placeStandingOrder>;
type PlaceAnswer = AnswerOf<typeof placeStandingOrder>;

/** Why a standing order cannot be proposed before the journal is touched (symbol, evidence, reference price, trigger), or its reference price. */
function placeRefusal(
  deps: JournalToolDeps,
  allowed: ReadonlySet<string>,
  args: PlaceArgs,
  ctx: ToolCallContext,
): Extract<PlaceAnswer, { ok: false }> | { ok: true; ref: number } {
  const symbol = String(args.symbol).toUpperCase();
  if (!allowed.has(symbol)) return { ok: false, code: "unknown_symbol", message: `${symbol} is not in the allowlisted universe` };
  const evidence = args.evidence_ids.filter((id) => !ctx.seenEvidence.has(id));
  if (evidence.length > 0) {
    return {
      ok: false,
      code: "unknown_evidence_id",
      message: `evidence not returned by any tool in this run: ${evidence.join(", ")}`,
      issues: evidence.map((id) => ({ path: `$.evidence_ids[${args.evidence_ids.indexOf(id)}]`, message: `"${id}" was not returned in this run` })),
    };
  }
  const type = args.type;
  const trigger = Number(args.trigger_price);
  const ref = deps.prices.referencePrice(symbol)?.price;
  if (ref === undefined) return { ok: false, code: "data_unavailable", message: `no reference price for ${symbol} before ${deps.tradingDay}` };
  // A trigger already crossed would fire at once: that is an order, not a standing order.
  const crossed = type === "take_profit" ? ref >= trigger : ref <= trigger;
  if (!crossed) return { ok: true, ref };
  const want = type === "take_profit" ? "above" : "below";
  return {
    ok: false,
    code: "invalid_tool_arguments",
    message: `${type} trigger ${trigger} is already crossed by the reference price ${ref}; put it ${want} ${ref}`,
    issues: [{ path: "$.trigger_price", message: `must be ${want} the reference price ${ref}` }],
  };
}

function makePlace(deps: JournalToolDeps): HandlerOf<typeof placeStandingOrder> {
  const allowed = new Set(deps.universe.map((i) => i.symbol.toUpperCase()));
  return async (args, ctx) => {
    const checked = placeRefusal(deps, allowed, args, ctx);
    if (!checked.ok) return checked;
    const symbol = String(args.symbol).toUpperCase();
    const type: StandingType = args.type;
    const ttl = typeof args.ttl_trading_days === "number" ? args.ttl_trading_days : DEFAULT_TTL;
    const at = iso(deps.now());
    return deps.journal.commitStanding<PlaceAnswer>((s) => {
      if (openStandingOrders(s).length >= MAX_OPEN_STANDING_ORDERS) {
        return {
          events: [],
          result: {
            ok: false,
            code: "standing_orders_full",
            message: `${MAX_OPEN_STANDING_ORDERS} standing orders are open; cancel one first`,
          } satisfies PlaceAnswer,
        };
      }
      const base = {
        symbol,
        type,
        trigger_price: Number(args.trigger_price),
        side: SIDE_OF[type],
        quantity: Number(args.quantity),
        limit_price: Number(args.limit_price),
        expires_on: addTradingDays(deps.market.calendar.days, deps.tradingDay, ttl - 1),
      };
      const order: StandingOrder = {
        id: `so-${s.seq + 1}`,
        ...base,
        reason: String(args.reason).trim(),
        evidence_ids: [...args.evidence_ids],
        proposed_run: deps.runId,
        proposed_day: deps.tradingDay,
        proposed_at: at,
        ttl_trading_days: ttl,
        binding_hash: bindingHash(base),
        status: "proposed",
      };
      return {
        events: [{ kind: "propose", order }],
        result: {
          ok: true,
          data: { standing_order: standingView(order, deps.prices), note: "Proposed: it is armed only after the operator approves it." },
        } satisfies PlaceAnswer,
      };
    });
  };
}

function makeList(deps: JournalToolDeps): HandlerOf<typeof listStandingOrders> {
  return (args): AnswerOf<typeof listStandingOrders> => {
    const all = [...deps.journal.standingState().orders.values()];
    const open = all.filter((o) => o.status === "proposed" || o.status === "active");
    const closed = args.include_closed === true ? all.filter((o) => !open.includes(o)).slice(-20) : [];
    const rows = [...open, ...closed].map((o) => standingView(o, deps.prices));
    return { ok: true, data: { as_of: deps.tradingDay, total: rows.length, standing_orders: rows } };
  };
}

function makeCancel(deps: JournalToolDeps): HandlerOf<typeof cancelStandingOrder> {
  return async (args) => {
    const id = String(args.id);
    const at = iso(deps.now());
    return deps.journal.commitStanding<AnswerOf<typeof cancelStandingOrder>>((s) => {
      const o = s.orders.get(id);
      if (!o || (o.status !== "proposed" && o.status !== "active")) {
        const open = openStandingOrders(s).map((x) => x.id);
        return {
          events: [],
          result: {
            ok: false,
            code: "standing_order_not_found",
            message: `${id} is not an open standing order (open: ${open.join(", ") || "none"})`,
            details: { open },
          } satisfies AnswerOf<typeof cancelStandingOrder>,
        };
      }
      return {
        events: [{ kind: "end", id, status: "cancelled", by: `agent (run ${deps.runId})`, at, reason: String(args.reason) }],
        result: { ok: true, data: { standing_order: { ...standingView(o, deps.prices), status: "cancelled" } } } satisfies AnswerOf<typeof cancelStandingOrder>,
      };
    });
  };
}
