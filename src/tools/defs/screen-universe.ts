import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { SymbolField } from "./order.js";

import { SCREEN_FEATURE_NAMES } from "../../market/screen-features.js";

export { SCREEN_FEATURE_NAMES };

export const SCREEN_DEFAULT_LIMIT = 10;
const SCREEN_MAX_LIMIT = 25;
const BOUND = 100_000;

const Feature = Type.Union(
  SCREEN_FEATURE_NAMES.map((f) => Type.Literal(f)),
  { description: "The feature to filter on." },
);

const Bound = (what: string) => Type.Number({ minimum: -BOUND, maximum: BOUND, description: `Keep ${what} this value.` });

const Filter = Type.Object(
  { feature: Feature, min: Type.Optional(Bound("at least")), max: Type.Optional(Bound("at most")) },
  { additionalProperties: false, description: "A range: min, max or both." },
);

const Input = Type.Object(
  {
    filters: Type.Optional(Type.Array(Filter, { minItems: 1, maxItems: 8, description: "Filters; all must pass." })),
    sort_by: Type.Optional(
      Type.Union(
        SCREEN_FEATURE_NAMES.map((f) => Type.Literal(f)),
        { default: "return_63d_pct", description: "Feature to rank by." },
      ),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal("desc"), Type.Literal("asc")], {
        default: "desc",
        description: "desc = highest first.",
      }),
    ),
    sector: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "Only this sector." })),
    symbols: Type.Optional(Type.Array(SymbolField, { minItems: 1, maxItems: 50, uniqueItems: true, description: "Only these symbols." })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SCREEN_MAX_LIMIT,
        default: SCREEN_DEFAULT_LIMIT,
        description: "Most to return.",
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
    "Rank and filter the allowlisted instruments on features of daily bars before the trading day (percent unless named otherwise; dist_* = last close vs that average or high). Too short a history: listed in insufficient_history.",
  example: { filters: [{ feature: "rsi_14", max: 70 }], limit: 5 },
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
