import { type TSchema, Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { SymbolField } from "./order.js";

const Input = Type.Object(
  {
    sector: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "Only this sector." })),
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "Symbol or name contains this text." })),
    symbols: Type.Optional(Type.Array(SymbolField, { minItems: 1, maxItems: 50, uniqueItems: true, description: "Only these symbols." })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20, description: "Most to return." })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 0, description: "Matches to skip (paging)." })),
  },
  { additionalProperties: false, description: "Optional filters; all combine." },
);

const Instrument = Type.Object(
  {
    symbol: Type.String(),
    name: Type.String(),
    sector: Type.String(),
    currency: Type.Optional(Type.String()),
    exchange: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    note: Type.Optional(Type.String()),
    reference_price: Type.Union([Type.Number(), Type.Null()]),
    price_as_of: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false, description: "currency, exchange and price_as_of are left out when the result states them once for every row." },
);

/** A field every listed instrument shares, stated once at the top of the result instead of on each row. */
const Shared = <T extends TSchema>(t: T, what: string) =>
  Type.Optional({ ...t, description: `${what} of every instrument listed (then left out of the rows).` });

const Output = Type.Object(
  {
    success: Type.Literal(true),
    currency: Shared(Type.String(), "The currency"),
    exchange: Shared(Type.Union([Type.String(), Type.Null()]), "The exchange"),
    price_as_of: Shared(Type.Union([Type.String(), Type.Null()]), "The date of the reference price"),
    instruments: Type.Array(Instrument),
    total: Type.Integer(),
    returned: Type.Integer(),
    offset: Type.Integer(),
    sectors: Type.Array(Type.String()),
    next_offset: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

export const listUniverse = defineTool({
  name: "list_universe",
  group: "market",
  kind: "read",
  description: "The allowlisted instruments (the only ones you may trade) with name, sector, currency and reference price. Filters combine.",
  example: { sector: "Technology" },
  successSummary:
    "success=true with instruments[] (symbol, name, sector, reference_price; currency, exchange and price_as_of on each row, or once at the top when every row shares them), total and returned.",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 10,
  summarize: (r) => `${r.returned ?? (Array.isArray(r.instruments) ? r.instruments.length : "?")} of ${r.total ?? "?"} instruments`,
});
