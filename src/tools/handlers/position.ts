/**
 * The `get_position` handler: one instrument on the books (src/journal/position.ts). A holding is
 * shown in depth; an allowlisted instrument not held answers held=false with what is on the books
 * about it (standing orders, watchlist entries, notes): a fact, not an error. A symbol neither held
 * nor allowlisted is `unknown_symbol`.
 */
import type { Instrument } from "../../core/domain.js";
import { positionContext, type PositionDeps, positionDetail } from "../../journal/position.js";
import type { getPosition } from "../defs/get-position.js";
import type { AnswerOf, HandlerOf } from "../define.js";

export interface PositionToolDeps extends Omit<PositionDeps, "now" | "limits"> {
  universe: readonly Instrument[];
  now: () => Date;
  /** The gate's limits, read when called (the run's configured ones). */
  limits: () => PositionDeps["limits"];
}

export function makePositionHandler(deps: PositionToolDeps): HandlerOf<typeof getPosition> {
  const names = new Map(deps.universe.map((i) => [i.symbol.toUpperCase(), i.name ?? i.symbol.toUpperCase()]));
  return (args): AnswerOf<typeof getPosition> => {
    const symbol = String(args.symbol).trim().toUpperCase();
    const held = deps.journal.holdings()[symbol] !== undefined;
    if (!held && !names.has(symbol)) {
      return { ok: false, code: "unknown_symbol", message: `${symbol} is neither held nor in the allowlisted universe` };
    }
    try {
      const position = positionDetail({ ...deps, now: deps.now(), limits: deps.limits() }, symbol);
      const evidence_id = `position:${symbol}:${deps.tradingDay}`;
      return {
        ok: true,
        data: {
          evidence_id,
          symbol,
          name: names.get(symbol) ?? symbol,
          held: position !== null,
          base_currency: deps.journal.baseCurrency(),
          as_of: deps.tradingDay,
          position,
          ...positionContext(deps, symbol),
        },
        evidenceIds: [evidence_id],
      };
    } catch (e) {
      return { ok: false, code: "tool_execution_failed", message: e instanceof Error ? e.message : String(e) };
    }
  };
}
