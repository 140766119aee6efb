/**
 * One run's screening features, computed once per instrument: `screen_universe` and the market-wide
 * tools (`get_market_overview`, `get_sector_summary`) read the same point-in-time view, and each
 * used to compute every instrument's features (returns, volatility, RSI, SMA distances) itself.
 * The features depend only on the last `SCREEN_LOOKBACK_BARS` bars, so within one view they are
 * keyed by the symbol, the first and last of those bars' dates and how many there are.
 */
import type { FeaturesOf } from "../market/market-stats.js";
import { computeFeatures, type FeatureRow, SCREEN_LOOKBACK_BARS } from "../market/screen.js";

/** A memo of `compute` (computeFeatures) for one run's view (do not share it between views of different days). */
export function runFeatures(compute: (bars: Parameters<FeaturesOf>[1]) => FeatureRow = computeFeatures): FeaturesOf {
  const memo = new Map<string, FeatureRow>();
  return (symbol, bars) => {
    const used = Math.min(bars.length, SCREEN_LOOKBACK_BARS);
    const key = `${symbol.toUpperCase()} ${bars[bars.length - used]?.date ?? ""} ${bars[bars.length - 1]?.date ?? ""} ${used}`;
    let row = memo.get(key);
    if (row === undefined) {
      row = compute(bars);
      memo.set(key, row);
    }
    return row;
  };
}
