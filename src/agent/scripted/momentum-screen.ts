/**
 * The momentum policy's opening when screen_universe is offered: one screen of the whole allowlist
 * on the entry rule in the first turn (with the overview and the account), then the histories of
 * the holdings and of the screen's strongest matches in one turn. Fewer requests than listing the
 * universe and screening the listing. A failed screen falls back to the listing: list_universe, then
 * the histories of the first listed instruments (./flow.ts, as when the screen is not offered).
 */
import type { Action } from "./actions.js";
import { last, type Step } from "./conversation.js";
import { afterRefusedSubmit, historyCalls, holdUnread, sharedOpening } from "./flow.js";
import { MAX_HISTORIES } from "./momentum-orders.js";
import { universeOf } from "./results.js";

/**
 * The entry rule's necessary part as screen_universe filters: a 3-month return, a distance above
 * SMA20 and above SMA50 of at least 0. A superset of the rule (rounding can only let a borderline
 * instrument through, never keep a qualifying one out; SMA20 > SMA50 is checked on the history).
 */
const ENTRY_SCREEN = [
  { feature: "return_63d_pct", min: 0 },
  { feature: "dist_sma20_pct", min: 0 },
  { feature: "dist_sma50_pct", min: 0 },
] as const;

/** How many of the screen's matches (strongest 3-month return first) have their history read: twice the buys a day makes. */
const SCREEN_TAKE = 4;

const SCREEN = "screen_universe";

/** The opening turns of the momentum policy (undefined once the histories are read: its orders come next). */
export function momentumOpening(steps: Step[], offered: ReadonlySet<string>): Action | undefined {
  if (!offered.has(SCREEN)) return sharedOpening(steps, offered);
  const wantOverview = offered.has("get_market_overview") && !last(steps, "get_market_overview");
  if (!last(steps, "get_portfolio") || !last(steps, SCREEN) || wantOverview) {
    return {
      text: `Reading ${wantOverview ? "the market as a whole, " : ""}the account and the ${SCREEN_TAKE} strongest instruments on the entry rule first.`,
      calls: [
        ...(wantOverview ? [{ name: "get_market_overview", input: {} }] : []),
        { name: "get_portfolio", input: {} },
        { name: SCREEN, input: { filters: ENTRY_SCREEN, limit: SCREEN_TAKE } },
      ],
    };
  }
  const pf = last(steps, "get_portfolio", true)?.result;
  if (!pf) return holdUnread();
  const lastSubmit = last(steps, "submit_orders");
  if (lastSubmit && !lastSubmit.ok) return afterRefusedSubmit(steps, lastSubmit);
  const screened = last(steps, SCREEN);
  if (screened?.ok) return historyCalls(steps, pf, matchesOf(screened.result));
  // The screen failed: the listing instead, as when the screen is not offered.
  if (!last(steps, "list_universe")) {
    return { text: "The screen failed: reading the tradable universe instead.", calls: [{ name: "list_universe", input: { limit: MAX_HISTORIES } }] };
  }
  return historyCalls(steps, pf, universeOf(steps));
}

/** The screen's matched symbols, strongest first. */
function matchesOf(result: Record<string, unknown>): string[] {
  const rows = Array.isArray(result.results) ? (result.results as Record<string, unknown>[]) : [];
  return rows.map((r) => String(r.symbol ?? "")).filter(Boolean);
}
