/**
 * The scripted policies' reading of get_market_overview (pure). The stated rule: the market is
 * falling when the index closes below its 200-day average and its 1-month return is negative;
 * then no new position is bought (sells still follow their rules). Unknown numbers (a short
 * history, or no overview) never make the market "falling".
 */
import { last, type Step } from "./conversation.js";
import { num } from "./results.js";

const OVERVIEW_TOOL = "get_market_overview";

const FALLING_RULE = "no new buys while the index is below its SMA200 and its 1-month return is negative";

export interface MarketRegime {
  falling: boolean;
  /** What the policy says about the market (null without an overview). */
  note: string | null;
  evidence_id: string | null;
}

export function marketRegime(steps: Step[]): MarketRegime {
  const o = last(steps, OVERVIEW_TOOL, true)?.result;
  const index = o?.index;
  if (!o || index === null || typeof index !== "object") return { falling: false, note: null, evidence_id: null };
  const i = index as Record<string, unknown>;
  const returns = i.returns_pct !== null && typeof i.returns_pct === "object" ? (i.returns_pct as Record<string, unknown>) : {};
  const dist = num(i.dist_sma200_pct);
  const r1m = num(returns["1m"]);
  const falling = dist !== undefined && r1m !== undefined && dist < 0 && r1m < 0;
  const evidence_id = typeof o.evidence_id === "string" ? o.evidence_id : null;
  const where = `index ${dist ?? "?"}% from its SMA200, 1-month return ${r1m ?? "?"}%`;
  return { falling, note: falling ? `market falling (${where}): ${FALLING_RULE}` : null, evidence_id };
}
