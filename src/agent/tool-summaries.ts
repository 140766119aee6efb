/**
 * One-line summaries of the screening, watchlist and sandbox tools' results, for the console and
 * the headless log (the `tool.result` event's `summary`). Null for tools summarised elsewhere.
 */
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);

export function summarizeNewTool(tool: string, e: Record<string, unknown>): string | null {
  switch (tool) {
    case "screen_universe": {
      const sort = (e.sort ?? {}) as Record<string, unknown>;
      const top = list(e.results)
        .slice(0, 3)
        .map((r) => `${r.symbol} ${r[String(sort.by)] ?? "?"}`)
        .join(", ");
      return `${e.returned ?? 0} of ${e.matched ?? 0} by ${sort.by ?? "?"} ${sort.order ?? ""}${top ? `: ${top}` : ""}`;
    }
    case "execute_code": {
      const result = JSON.stringify(e.result ?? null);
      return `ran in ${e.elapsed_ms ?? "?"} ms → ${result.length > 80 ? `${result.slice(0, 77)}...` : result}${e.output ? ` (+${String(e.output).split("\n").length - 1} output line(s))` : ""}`;
    }
    case "get_watchlist": {
      const items = list(e.items).map((i) => `${i.symbol} ${typeof i.change_since_added_pct === "number" ? `${i.change_since_added_pct >= 0 ? "+" : ""}${i.change_since_added_pct}%` : ""}`.trim());
      return `${e.total ?? 0} on the watchlist${items.length ? `: ${items.join(", ")}` : ""}`;
    }
    case "add_watchlist": {
      const i = (e.item ?? {}) as Record<string, unknown>;
      const alerts = [i.alert_above !== undefined ? `alert ≥ ${i.alert_above}` : "", i.alert_below !== undefined ? `alert ≤ ${i.alert_below}` : ""].filter(Boolean).join(", ");
      return `watching ${i.symbol} for ${i.ttl_trading_days} trading days (until ${i.expires_on})${alerts ? `, ${alerts}` : ""}${e.replaced ? `; replaced ${e.replaced}` : ""}`;
    }
    case "remove_watchlist": {
      const i = (e.item ?? {}) as Record<string, unknown>;
      return `${i.symbol} removed from the watchlist`;
    }
    case "remember": {
      const n = (e.note ?? {}) as Record<string, unknown>;
      return `note ${n.id} saved (${n.kind}${n.symbol ? `, ${n.symbol}` : ""})${n.supersedes ? `, supersedes ${n.supersedes}` : ""}`;
    }
    case "place_standing_order":
    case "cancel_standing_order": {
      const o = (e.standing_order ?? {}) as Record<string, unknown>;
      return `standing order ${o.id} ${o.status}: ${o.type} ${o.symbol} at ${o.trigger_price} → ${o.side} ${o.quantity} @ ${o.limit_price} (through ${o.expires_on})`;
    }
    case "list_standing_orders":
      return `${e.total ?? 0} standing order(s): ${list(e.standing_orders)
        .map((o) => `${o.id} ${o.status}`)
        .join(", ")}`;
    default:
      return null;
  }
}
