/**
 * Handlers of the watchlist tools (add_watchlist, remove_watchlist, get_watchlist) over the
 * journal's watchlist collection and the run's point-in-time prices.
 */
import type { addWatchlist, getWatchlist, removeWatchlist } from "../defs/watchlist.js";
import type { AnswerOf, HandlerOf } from "../define.js";
import type { HandlerFailure } from "../types.js";
import type { JournalToolDeps } from "../../journal/tool-deps.js";
import { iso } from "../../journal/time.js";
import { activeWatchItems, addTradingDays, MAX_LIVE_WATCH_ITEMS, tradingDaysBetween, type WatchItem } from "../../journal/watchlist.js";

const r2 = (x: number) => Math.round(x * 100) / 100;

/** An entry as later runs see it: what changed since it was added, and whether its alerts fired. */
export function watchView(item: WatchItem, deps: Pick<JournalToolDeps, "market" | "prices" | "tradingDay">) {
  const ref = deps.prices.referencePrice(item.symbol);
  const days = deps.market.calendar.days;
  const since = (deps.market.seriesOf(item.symbol)?.bars ?? []).filter((b) => b.date >= item.added_day && b.date < deps.tradingDay);
  const triggered: { alert: "above" | "below"; date: string; close: number }[] = [];
  const above = item.alert_above;
  const below = item.alert_below;
  const hitAbove = above === undefined ? undefined : since.find((b) => b.close >= above);
  const hitBelow = below === undefined ? undefined : since.find((b) => b.close <= below);
  if (hitAbove) triggered.push({ alert: "above", date: hitAbove.date, close: hitAbove.close });
  if (hitBelow) triggered.push({ alert: "below", date: hitBelow.date, close: hitBelow.close });
  return {
    id: item.id,
    symbol: item.symbol,
    reason: item.reason,
    added_day: item.added_day,
    price_at_add: item.price_at_add,
    reference_price: ref?.price ?? null,
    price_as_of: ref?.as_of ?? null,
    change_since_added_pct: ref && item.price_at_add ? r2((ref.price / item.price_at_add - 1) * 100) : null,
    trading_days_on_list: tradingDaysBetween(days, item.added_day, deps.tradingDay),
    trading_days_left: tradingDaysBetween(days, deps.tradingDay, item.expires_on),
    expires_on: item.expires_on,
    alerts: { above: above ?? null, below: below ?? null },
    alerts_triggered: triggered,
  };
}

export function makeWatchlistHandlers(deps: JournalToolDeps): {
  add_watchlist: HandlerOf<typeof addWatchlist>;
  remove_watchlist: HandlerOf<typeof removeWatchlist>;
  get_watchlist: HandlerOf<typeof getWatchlist>;
} {
  const allowed = new Set(deps.universe.map((i) => i.symbol.toUpperCase()));
  return { add_watchlist: addHandler(deps, allowed), remove_watchlist: removeHandler(deps), get_watchlist: getHandler(deps) };
}

const unknown = (symbol: string): HandlerFailure => ({ ok: false, code: "unknown_symbol", message: `${symbol} is not in the allowlisted universe` });

/** `add_watchlist`: one live entry a symbol (a new one replaces the old), at most MAX_LIVE_WATCH_ITEMS live. */
function addHandler(deps: JournalToolDeps, allowed: Set<string>): HandlerOf<typeof addWatchlist> {
  return async (args) => {
    const symbol = String(args.symbol).toUpperCase();
    if (!allowed.has(symbol)) return unknown(symbol);
    const above = typeof args.alert_above === "number" ? args.alert_above : undefined;
    const below = typeof args.alert_below === "number" ? args.alert_below : undefined;
    if (above !== undefined && below !== undefined && below >= above) {
      return {
        ok: false,
        code: "invalid_tool_arguments",
        message: `alert_below ${below} must be under alert_above ${above}`,
        issues: [{ path: "$.alert_below", message: `must be under alert_above (${above})` }],
      };
    }
    const ttl = typeof args.ttl_trading_days === "number" ? args.ttl_trading_days : 10;
    const at = iso(deps.now());
    return deps.journal.commitWatch<AnswerOf<typeof addWatchlist>>((s) => {
      const live = activeWatchItems(s, deps.tradingDay);
      const old = live.find((i) => i.symbol === symbol);
      if (!old && live.length >= MAX_LIVE_WATCH_ITEMS) {
        return {
          events: [],
          result: {
            ok: false,
            code: "watchlist_full",
            message: `the watchlist holds ${MAX_LIVE_WATCH_ITEMS} live entries; remove one first`,
          } satisfies AnswerOf<typeof addWatchlist>,
        };
      }
      const item: WatchItem = {
        id: `w-${s.seq + 1}`,
        symbol,
        reason: String(args.reason).trim(),
        run_id: deps.runId,
        added_day: deps.tradingDay,
        added_at: at,
        price_at_add: deps.prices.referencePrice(symbol)?.price ?? null,
        ttl_trading_days: ttl,
        expires_on: addTradingDays(deps.market.calendar.days, deps.tradingDay, ttl - 1),
        status: "live",
        ...(above !== undefined ? { alert_above: above } : {}),
        ...(below !== undefined ? { alert_below: below } : {}),
      };
      const events = [
        ...(old ? [{ kind: "remove" as const, id: old.id, run_id: deps.runId, at, reason: `replaced by ${item.id}` }] : []),
        { kind: "add" as const, item },
      ];
      return { events, result: { ok: true, data: { item, replaced: old?.id ?? null } } satisfies AnswerOf<typeof addWatchlist> };
    });
  };
}

/** `remove_watchlist`: the symbol's live entry, removed with its reason. */
function removeHandler(deps: JournalToolDeps): HandlerOf<typeof removeWatchlist> {
  return async (args) => {
    const symbol = String(args.symbol).toUpperCase();
    const reason = typeof args.reason === "string" ? args.reason.trim() : "removed by the agent";
    return deps.journal.commitWatch<AnswerOf<typeof removeWatchlist>>((s) => {
      const item = activeWatchItems(s, deps.tradingDay).find((i) => i.symbol === symbol);
      if (!item) {
        const live = activeWatchItems(s, deps.tradingDay).map((i) => i.symbol);
        return {
          events: [],
          result: {
            ok: false,
            code: "not_on_watchlist",
            message: `${symbol} is not on the watchlist (watched: ${live.join(", ") || "none"})`,
            details: { watched: live },
          } satisfies AnswerOf<typeof removeWatchlist>,
        };
      }
      const at = iso(deps.now());
      return {
        events: [{ kind: "remove", id: item.id, run_id: deps.runId, at, reason }],
        result: { ok: true, data: { item: { ...item, status: "removed", removed_at: at, removed_reason: reason } } } satisfies AnswerOf<typeof removeWatchlist>,
      };
    });
  };
}

/** `get_watchlist`: the live entries (or one symbol's), as the model sees them. */
function getHandler(deps: JournalToolDeps): HandlerOf<typeof getWatchlist> {
  return (args): AnswerOf<typeof getWatchlist> => {
    const symbol = typeof args.symbol === "string" ? args.symbol.toUpperCase() : undefined;
    const items = activeWatchItems(deps.journal.watchState(), deps.tradingDay)
      .filter((i) => !symbol || i.symbol === symbol)
      .map((i) => watchView(i, deps));
    const evidence_id = `watchlist:${deps.runId}`;
    return { ok: true, data: { evidence_id, as_of: deps.tradingDay, total: items.length, items }, evidenceIds: [evidence_id] };
  };
}
