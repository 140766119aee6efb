import { Type } from "@sinclair/typebox";
import { num, pct, price } from "../../core/format.js";
import { defineTool } from "../define.js";
import { SymbolField } from "./order.js";

const Input = Type.Object(
  {
    symbol: SymbolField,
    lookback_days: Type.Optional(
      Type.Integer({
        minimum: 20,
        maximum: 260,
        default: 126,
        description: "Trading days to summarise.",
      }),
    ),
  },
  { additionalProperties: false, description: "Which instrument's history to summarise." },
);

/** A [date, close] pair, as draft 2020-12 writes a fixed-length array (TypeBox's Tuple writes the draft-07 form). */
const DateClose = Type.Unsafe<[string, number]>({
  type: "array",
  prefixItems: [Type.String(), Type.Number()],
  items: false,
  minItems: 2,
  description: "[date, close]",
});

const Output = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String(),
    symbol: Type.String(),
    currency: Type.String(),
    as_of: Type.String(),
    last_close: Type.Number(),
    returns_pct: Type.Object(
      {
        "1w": Type.Union([Type.Number(), Type.Null()]),
        "1m": Type.Union([Type.Number(), Type.Null()]),
        "3m": Type.Union([Type.Number(), Type.Null()]),
        "6m": Type.Union([Type.Number(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    sma20: Type.Union([Type.Number(), Type.Null()]),
    sma50: Type.Union([Type.Number(), Type.Null()]),
    high_6m: Type.Number(),
    high_6m_date: Type.String(),
    low_6m: Type.Number(),
    low_6m_date: Type.String(),
    drawdown_from_high_pct: Type.Number(),
    volatility_annualised_pct: Type.Union([Type.Number(), Type.Null()]),
    last_closes: Type.Array(DateClose, { description: "The last 10 closes, oldest first." }),
    bars_used: Type.Integer(),
  },
  { additionalProperties: false },
);

export const getPriceHistory = defineTool({
  name: "get_price_history",
  group: "market",
  kind: "read",
  description: "One instrument's daily prices before the trading day, summarised: returns, SMA20/50, 6-month range, volatility, last 10 closes.",
  example: { symbol: "ALFA" },
  successSummary:
    "success=true with evidence_id, symbol, as_of, last_close, returns_pct{1w,1m,3m,6m}, sma20, sma50, high_6m, low_6m, drawdown_from_high_pct, volatility_annualised_pct and last_closes[] ([date, close]).",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 15,
  summarize: (r) => `${r.symbol} last close ${num(r.last_close, price)} (${r.as_of}), 3m ${num(r.returns_pct?.["3m"], pct)}, SMA50 ${num(r.sma50, price)}`,
});
