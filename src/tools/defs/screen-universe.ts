import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { SymbolField } from "./order.js";

import { SCREEN_FEATURE_NAMES, SCREEN_FEATURES } from "../../market/screen-features.js";

export { SCREEN_FEATURE_NAMES };

export const SCREEN_DEFAULT_LIMIT = 10;
const SCREEN_MAX_LIMIT = 25;
const BOUND = 100_000;

const Feature = Type.Union(
  SCREEN_FEATURE_NAMES.map((f) => Type.Literal(f)),
  { description: `A point-in-time feature: ${SCREEN_FEATURE_NAMES.map((f) => `${f} = ${SCREEN_FEATURES[f]}`).join("; ")}.` },
);

const Bound = (what: string) =>
  Type.Number({ minimum: -BOUND, maximum: BOUND, description: `Keep instruments whose feature is ${what} this value (same unit as the feature).` });

const Filter = Type.Object(
  { feature: Feature, min: Type.Optional(Bound("at least")), max: Type.Optional(Bound("at most")) },
  { additionalProperties: false, description: "One range filter; give min, max or both (min ≤ max)." },
);

const Input = Type.Object(
  {
    filters: Type.Optional(Type.Array(Filter, { minItems: 1, maxItems: 8, description: "Range filters; an instrument must pass all of them." })),
    sort_by: Type.Optional(
      Type.Union(
        SCREEN_FEATURE_NAMES.map((f) => Type.Literal(f)),
        { default: "return_63d_pct", description: "Feature to rank by (default return_63d_pct)." },
      ),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal("desc"), Type.Literal("asc")], {
        default: "desc",
        description: "desc = highest first (default), asc = lowest first; ties by symbol.",
      }),
    ),
    sector: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "Only instruments of this sector (case-insensitive)." })),
    symbols: Type.Optional(Type.Array(SymbolField, { minItems: 1, maxItems: 50, uniqueItems: true, description: "Only these symbols." })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SCREEN_MAX_LIMIT,
        default: SCREEN_DEFAULT_LIMIT,
        description: `Most instruments to return (default ${SCREEN_DEFAULT_LIMIT}).`,
      }),
    ),
  },
  { additionalProperties: false, description: "Optional filters, sort and limit; {} is the default screen (top 10 by 3-month return)." },
);

/** One ranked instrument: who it is, its last close and every feature (null where its history is too short). */
const Row = Type.Object(
  {
    rank: Type.Integer(),
    symbol: Type.String(),
    name: Type.String(),
    sector: Type.String(),
    last_close: Type.Number(),
    as_of: Type.String(),
    ...Object.fromEntries(SCREEN_FEATURE_NAMES.map((f) => [f, Type.Union([Type.Number(), Type.Null()])])),
  },
  { additionalProperties: false },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String(),
    as_of: Type.Union([Type.String(), Type.Null()], { description: "The latest bar date among the screened instruments; null when none has data." }),
    trading_day: Type.String(),
    sort: Type.Object({ by: Type.String(), order: Type.Union([Type.Literal("asc"), Type.Literal("desc")]) }, { additionalProperties: false }),
    universe_size: Type.Integer(),
    matched: Type.Integer(),
    returned: Type.Integer(),
    results: Type.Array(Row),
    insufficient_history: Type.Array(Type.Object({ symbol: Type.String(), missing: Type.Array(Type.String()) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const screenUniverse = defineTool({
  name: "screen_universe",
  group: "screening",
  kind: "read",
  description:
    "Rank and filter the allowlisted instruments on point-in-time features computed from daily bars strictly before the run's trading day (returns over 5/21/63/126 days, 63-day volatility, 14-day RSI, distance from the 20/50/200-day averages and from the 252-day high, volume change). Instruments whose history is too short for a feature the screen needs are listed under insufficient_history, not ranked. Called with {} it returns the top 10 by 3-month return.",
  example: {
    filters: [
      { feature: "rsi_14", max: 70 },
      { feature: "dist_sma50_pct", min: 0 },
    ],
    sort_by: "return_63d_pct",
    order: "desc",
    limit: 5,
  },
  successSummary:
    "success=true with evidence_id, as_of, sort {by, order}, matched, returned and results[] ({rank, symbol, name, sector, last_close, every feature}), plus insufficient_history[] ({symbol, missing}).",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 10,
  summarize: (r) => {
    const sort = r.sort ?? {};
    const top = (Array.isArray(r.results) ? r.results : [])
      .slice(0, 3)
      .map((x: Record<string, unknown>) => `${x.symbol} ${x[String(sort.by)] ?? "?"}`)
      .join(", ");
    return `${r.returned ?? 0} of ${r.matched ?? 0} by ${sort.by ?? "?"} ${sort.order ?? ""}${top ? `: ${top}` : ""}`;
  },
});
