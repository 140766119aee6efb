/**
 * The point-in-time features the screener computes (market/screen.ts) and the screen_universe tool
 * offers (by name: the lean tw-tools/3 description says what the names mean in one line).
 */
/** The features a screen can filter and sort on, with the bars each needs. */
const SCREEN_FEATURES = {
  return_5d_pct: "percent change of the close over the last 5 trading days",
  return_21d_pct: "percent change of the close over the last 21 trading days (~1 month)",
  return_63d_pct: "percent change of the close over the last 63 trading days (~3 months)",
  return_126d_pct: "percent change of the close over the last 126 trading days (~6 months)",
  volatility_63d_pct: "annualised volatility of daily log returns over the last 63 trading days, percent (population standard deviation × √252)",
  rsi_14: "14-day RSI (Wilder smoothing), 0–100",
  dist_sma20_pct: "percent distance of the last close from its 20-day simple moving average",
  dist_sma50_pct: "percent distance of the last close from its 50-day simple moving average",
  dist_sma200_pct: "percent distance of the last close from its 200-day simple moving average",
  dist_high_252d_pct: "percent distance of the last close from the highest close of the last 252 trading days (≤ 0)",
  volume_change_pct: "percent change of the 5-day average volume against the 20-day average volume before it",
} as const;

export type ScreenFeature = keyof typeof SCREEN_FEATURES;
export const SCREEN_FEATURE_NAMES = Object.keys(SCREEN_FEATURES) as ScreenFeature[];
