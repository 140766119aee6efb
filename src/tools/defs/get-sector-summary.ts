import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { Nullable, Returns } from "./market-shapes.js";

const Input = Type.Object(
  { sector: Type.String({ minLength: 1, maxLength: 40, description: "A sector of the universe (case-insensitive), as list_universe names it." }) },
  { additionalProperties: false, description: "Which sector to summarise." },
);

const Pct = Nullable(Type.Number());
const Member = Type.Object(
  {
    symbol: Type.String(),
    name: Type.String(),
    as_of: Type.String(),
    last_close: Type.Number(),
    return_1w_pct: Pct,
    return_1m_pct: Pct,
    return_3m_pct: Pct,
    dist_sma50_pct: Pct,
  },
  { additionalProperties: false },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String(),
    sector: Type.String(),
    as_of: Nullable(Type.String()),
    trading_day: Type.String(),
    members: Type.Array(Member),
    leaders: Type.Array(Type.String()),
    laggards: Type.Array(Type.String()),
    sector_returns_pct: Returns,
    index_returns_pct: Returns,
    relative_pct: Returns,
  },
  { additionalProperties: false },
);

export const getSectorSummary = defineTool({
  name: "get_sector_summary",
  group: "market",
  kind: "read",
  description:
    "One sector before the trading day: its members with 1w/1m/3m returns and distance to SMA50 (strongest month first), leaders and laggards by 1-month return, and the sector's equal-weight returns against the index's (relative_pct in points). An unknown sector fails with unknown_sector and the valid sectors.",
  example: { sector: "Technology" },
  successSummary: "success=true with evidence_id, sector, members[], leaders[], laggards[], sector_returns_pct, index_returns_pct and relative_pct.",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 10,
  summarize: (r) => `${r.sector}: ${r.members.length} member(s), 1m ${r.sector_returns_pct["1m"] ?? "?"}% vs index ${r.index_returns_pct["1m"] ?? "?"}%`,
});
