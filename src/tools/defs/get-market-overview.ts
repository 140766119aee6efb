import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { Nullable, Returns } from "./market-shapes.js";

const Input = Type.Object({}, { additionalProperties: false, description: "No arguments." });

const Pct = Nullable(Type.Number());
const Index = Type.Object(
  {
    symbol: Nullable(Type.String()),
    name: Type.String(),
    derived: Type.Union([Type.Literal("instrument"), Type.Literal("equal_weight")]),
    as_of: Type.String(),
    last_close: Type.Number(),
    returns_pct: Returns,
    dist_sma50_pct: Pct,
    dist_sma200_pct: Pct,
  },
  { additionalProperties: false },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String(),
    as_of: Nullable(Type.String()),
    trading_day: Type.String(),
    index: Nullable(Index),
    breadth: Type.Object(
      {
        members: Type.Integer(),
        advancers_1d: Type.Integer(),
        decliners_1d: Type.Integer(),
        advancers_1w: Type.Integer(),
        decliners_1w: Type.Integer(),
        above_sma50_pct: Pct,
        above_sma200_pct: Pct,
        new_highs_52w: Type.Integer(),
        new_lows_52w: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    volatility: Type.Object(
      {
        vol_20d_pct: Pct,
        median_1y_pct: Pct,
        ratio: Pct,
        regime: Nullable(Type.Union([Type.Literal("low"), Type.Literal("normal"), Type.Literal("high")])),
      },
      { additionalProperties: false },
    ),
    sectors: Type.Array(
      Type.Object({ sector: Type.String(), members: Type.Integer(), return_1w_pct: Pct, return_1m_pct: Pct }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

export const getMarketOverview = defineTool({
  name: "get_market_overview",
  group: "market",
  kind: "read",
  description:
    "The market before the trading day: the index (the universe's Index instrument, else its equal-weight index) with 1w/1m/3m returns and distance to SMA50/200; breadth (advancers/decliners 1d and 1w, % above SMA50/200, new 52-week highs/lows); 20-day volatility vs its 1-year median (low under 0.8×, high over 1.25×); each sector's 1w/1m return.",
  example: {},
  successSummary: "success=true with evidence_id, as_of, index, breadth, volatility {vol_20d_pct, median_1y_pct, ratio, regime} and sectors[].",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 3,
  summarize: (r) => {
    const i = r.index;
    const idx = i ? `index 1m ${i.returns_pct["1m"] ?? "?"}%, vs SMA200 ${i.dist_sma200_pct ?? "?"}%` : "no index";
    return `${idx}; ${r.breadth.advancers_1w}↑/${r.breadth.decliners_1w}↓ on the week; volatility ${r.volatility.regime ?? "?"}`;
  },
});
