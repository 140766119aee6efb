/** Shapes the market-wide tools share (get_market_overview, get_sector_summary). */
import { type TSchema, Type } from "@sinclair/typebox";

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Pct = Nullable(Type.Number());

/** Percent returns over 1 week, 1 month and 3 months (5, 21 and 63 trading days). */
export const Returns = Type.Object({ "1w": Pct, "1m": Pct, "3m": Pct }, { additionalProperties: false });
