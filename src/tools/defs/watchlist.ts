import { type TSchema, Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { SymbolField } from "./order.js";

const Price = (what: string) => Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description: `Alert on a close ${what} this price.` });

const AddInput = Type.Object(
  {
    symbol: SymbolField,
    reason: Type.String({ minLength: 1, maxLength: 300, description: "Why watch it." }),
    ttl_trading_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 60,
        default: 10,
        description: "Trading days it stays listed.",
      }),
    ),
    alert_above: Type.Optional(Price("at or above")),
    alert_below: Type.Optional(Price("at or below")),
  },
  { additionalProperties: false, description: "An instrument to watch. Adding a symbol already watched replaces its entry." },
);

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A watchlist entry as the journal records it (src/journal/watchlist.ts, `WatchItem`). */
const Item = Type.Object(
  {
    id: Type.String(),
    symbol: Type.String(),
    reason: Type.String(),
    run_id: Type.String(),
    added_day: Type.String(),
    added_at: Type.String(),
    price_at_add: Nullable(Type.Number()),
    ttl_trading_days: Type.Integer(),
    expires_on: Type.String(),
    alert_above: Type.Optional(Type.Number()),
    alert_below: Type.Optional(Type.Number()),
    status: Type.Union([Type.Literal("live"), Type.Literal("removed")]),
    removed_at: Type.Optional(Type.String()),
    removed_by_run: Type.Optional(Type.String()),
    removed_reason: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const AddOutput = Type.Object({ success: Type.Literal(true), item: Item, replaced: Nullable(Type.String()) }, { additionalProperties: false });
const ItemOutput = Type.Object({ success: Type.Literal(true), item: Item }, { additionalProperties: false });

export const addWatchlist = defineTool({
  name: "add_watchlist",
  group: "watchlist",
  kind: "write",
  description: "Put an instrument on the watchlist later runs see, with optional price alerts; re-adding one replaces it. Places nothing.",
  example: { symbol: "ALFA", reason: "Near its SMA50.", alert_below: 95 },
  successSummary:
    "success=true with item {id, symbol, reason, added_day, price_at_add, ttl_trading_days, expires_on, alert_above, alert_below} and replaced (the id it replaced, or null).",
  input: AddInput,
  output: AddOutput,
  mutates: true,
  grounded: false,
  callLimit: 10,
  summarize: (r) => {
    const i = r.item;
    const alerts = [i.alert_above !== undefined ? `alert ≥ ${i.alert_above}` : "", i.alert_below !== undefined ? `alert ≤ ${i.alert_below}` : ""]
      .filter(Boolean)
      .join(", ");
    return `watching ${i.symbol} for ${i.ttl_trading_days} trading days (until ${i.expires_on})${alerts ? `, ${alerts}` : ""}${r.replaced ? `; replaced ${r.replaced}` : ""}`;
  },
});

const RemoveInput = Type.Object(
  {
    symbol: SymbolField,
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: "Why." })),
  },
  { additionalProperties: false, description: "The instrument to take off the watchlist." },
);

export const removeWatchlist = defineTool({
  name: "remove_watchlist",
  group: "watchlist",
  kind: "write",
  description: "Take an instrument off the watchlist.",
  example: { symbol: "ALFA" },
  successSummary: "success=true with item (the removed entry).",
  input: RemoveInput,
  output: ItemOutput,
  mutates: true,
  grounded: false,
  callLimit: 10,
  summarize: (r) => {
    const i = r.item;
    return `${i.symbol} removed from the watchlist`;
  },
});

const GetInput = Type.Object(
  { symbol: Type.Optional(SymbolField) },
  { additionalProperties: false, description: "Optionally one symbol; otherwise the whole list." },
);

/** A live entry with what changed since it was added (src/tools/handlers/watchlist.ts, `watchView`). */
const WatchView = Type.Object(
  {
    id: Type.String(),
    symbol: Type.String(),
    reason: Type.String(),
    added_day: Type.String(),
    price_at_add: Nullable(Type.Number()),
    reference_price: Nullable(Type.Number()),
    price_as_of: Nullable(Type.String()),
    change_since_added_pct: Nullable(Type.Number()),
    trading_days_on_list: Type.Integer(),
    trading_days_left: Type.Integer(),
    expires_on: Type.String(),
    alerts: Type.Object({ above: Nullable(Type.Number()), below: Nullable(Type.Number()) }, { additionalProperties: false }),
    alerts_triggered: Type.Array(
      Type.Object(
        { alert: Type.Union([Type.Literal("above"), Type.Literal("below")]), date: Type.String(), close: Type.Number() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const GetOutput = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String(),
    as_of: Type.String(),
    items: Type.Array(WatchView),
    total: Type.Integer(),
  },
  { additionalProperties: false },
);

export const getWatchlist = defineTool({
  name: "get_watchlist",
  group: "watchlist",
  kind: "read",
  description: "The live watchlist: each entry's reason, price when added and now, days left, and the price alerts triggered since.",
  example: {},
  successSummary:
    "success=true with evidence_id, total and items[] ({id, symbol, reason, added_day, price_at_add, reference_price, change_since_added_pct, trading_days_on_list, trading_days_left, expires_on, alerts{above, below}, alerts_triggered[{alert, date, close}]}).",
  input: GetInput,
  output: GetOutput,
  mutates: false,
  grounded: false,
  callLimit: 5,
  summarize: (r) => {
    const items = (Array.isArray(r.items) ? r.items : []).map((i) =>
      `${i.symbol} ${typeof i.change_since_added_pct === "number" ? `${i.change_since_added_pct >= 0 ? "+" : ""}${i.change_since_added_pct}%` : ""}`.trim(),
    );
    return `${r.total ?? 0} on the watchlist${items.length ? `: ${items.join(", ")}` : ""}`;
  },
});
