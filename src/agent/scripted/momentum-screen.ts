/**
 * The momentum policy's opening when screen_universe is offered: one screen of the whole allowlist
 * on the entry rule in the first turn (with the overview and the account; its 3 strongest matches),
 * then, in one turn, the histories of the holdings and of the likeliest entries among the matches,
 * no more than the day can buy (another turn only when a history turns one down). Fewer requests
 * and fewer histories than listing the universe and reading the listing. A failed screen falls
 * back to the listing: list_universe, then the histories of the first listed instruments
 * (./flow.ts, as when the screen is not offered).
 */
import type { Action } from "./actions.js";
import { last, type Step } from "./conversation.js";
import { afterRefusedSubmit, historyCalls, holdUnread, sharedOpening } from "./flow.js";
import { entryCandidates, MAX_BUYS, MAX_HISTORIES } from "./momentum-orders.js";
import { histories, holdingsOf, num, universeOf } from "./results.js";

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

/**
 * How many of the screen's matches (strongest 3-month return first) it returns: the buys a day
 * makes, and one to spare. A trade-off for a cheaper day: the filters keep every qualifying
 * instrument, the limit does not — on a day when two of these three fail on their histories, a
 * qualifying fourth is never read, and the day buys fewer than reading every match would.
 */
const SCREEN_TAKE = MAX_BUYS + 1;

const SCREEN = "screen_universe";

/** The opening turns of the momentum policy (undefined once the histories are read: its orders come next). */
export function momentumOpening(steps: Step[], offered: ReadonlySet<string>): Action | undefined {
  if (!offered.has(SCREEN)) return sharedOpening(steps, offered);
  const wantOverview = offered.has("get_market_overview") && !last(steps, "get_market_overview");
  if (!last(steps, "get_portfolio") || !last(steps, SCREEN) || wantOverview) {
    return {
      text: `Reading ${wantOverview ? "the market, " : ""}the account and the strongest instruments on the entry rule.`,
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
  if (screened?.ok) return screenedHistories(steps, pf, screened.result);
  // The screen failed: the listing instead, as when the screen is not offered.
  if (!last(steps, "list_universe")) {
    return { text: "The screen failed: reading the tradable universe instead.", calls: [{ name: "list_universe", input: { limit: MAX_HISTORIES } }] };
  }
  return historyCalls(steps, pf, universeOf(steps));
}

/**
 * The next histories to read after a screen: the holdings' (their exit rule), and the likely entries
 * the screen found, strongest first, only as many as are needed to confirm MAX_BUYS on their
 * histories (the rule's judge). One turn when the likeliest are confirmed; another for each one the
 * history turns down, while likely ones are left.
 */
function screenedHistories(steps: Step[], pf: Record<string, unknown>, result: Record<string, unknown>): Action | undefined {
  const held = new Set(holdingsOf(pf).map((h) => h.symbol));
  const confirmed = entryCandidates(histories(steps), held).length;
  const asked = new Set(steps.filter((s) => s.name === "get_price_history").map((s) => String(s.input.symbol)));
  const unread = likelyEntries(result).filter((s) => !held.has(s) && !asked.has(s));
  return historyCalls(steps, pf, unread.slice(0, Math.max(0, MAX_BUYS - confirmed)));
}

/**
 * The screen's matches whose features say SMA20 is above SMA50 (close/SMA20 no further above than
 * close/SMA50: dist_sma20_pct ≤ dist_sma50_pct, ties kept, as the rounding may hide the order),
 * strongest 3-month return first: the instruments likely to meet the entry rule.
 */
function likelyEntries(result: Record<string, unknown>): string[] {
  const rows = Array.isArray(result.results) ? (result.results as Record<string, unknown>[]) : [];
  return rows
    .filter((r) => {
      const d20 = num(r.dist_sma20_pct);
      const d50 = num(r.dist_sma50_pct);
      return d20 !== undefined && d50 !== undefined && d20 <= d50;
    })
    .map((r) => String(r.symbol ?? ""))
    .filter(Boolean);
}
