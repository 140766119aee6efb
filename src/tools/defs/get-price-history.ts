import { Type } from "@sinclair/typebox";
import type { ToolContract } from "../types.js";
import { SymbolField } from "./order.js";

const Input = Type.Object(
  {
    symbol: SymbolField,
    lookback_days: Type.Optional(
      Type.Integer({
        minimum: 20,
        maximum: 260,
        default: 126,
        description: "Trading days of history to summarise, ending the day before the run's trading day (default 126 ≈ 6 months).",
      }),
    ),
  },
  { additionalProperties: false, description: "Which instrument's history to summarise." },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String(),
    symbol: Type.String(),
    as_of: Type.String(),
    last_close: Type.Number(),
  },
  { additionalProperties: true },
);

export const getPriceHistory: ToolContract<typeof Input, typeof Output> = {
  name: "get_price_history",
  group: "market",
  kind: "read",
  description:
    "Summarise one instrument's daily prices strictly before the run's trading day: last close and its date, returns over 1 week, 1, 3 and 6 months, SMA20 and SMA50, 6-month high and low, drawdown from the high, annualised volatility and the last 10 closes. Limited calls per run: choose symbols deliberately.",
  example: { symbol: "ALFA", lookback_days: 126 },
  successSummary:
    "success=true with evidence_id, symbol, as_of, last_close, returns_pct{1w,1m,3m,6m}, sma20, sma50, high_6m, low_6m, drawdown_from_high_pct, volatility_annualised_pct and last_closes[] ({date, close}).",
  input: Input,
  output: Output,
  callLimit: 15,
};
