/** Daily bars for the loopback Alpaca tests: the fake's clock says Monday 2024-03-04; the bars end the trading day before. */
export const LAST_BAR = "2024-03-01";

/** `n` weekdays of daily bars ending on `LAST_BAR`, rising ~0.4% a day with a small wiggle (close > SMA20 > SMA50, 3-month return > 0). */
export function risingBarsCsv(start: number, n = 130): string {
  const days: string[] = [];
  for (let t = Date.parse(`${LAST_BAR}T00:00:00Z`); days.length < n; t -= 86_400_000) {
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) days.unshift(new Date(t).toISOString().slice(0, 10));
  }
  const rows = days.map((d, i) => {
    const close = start * 1.004 ** i * (1 + 0.003 * Math.sin(i));
    const open = close * 0.998;
    const r = (x: number) => x.toFixed(2);
    return `${d},${r(open)},${r(close * 1.006)},${r(open * 0.994)},${r(close)},${1_000_000 + i * 1000}`;
  });
  return `Date,Open,High,Low,Close,Volume\n${rows.join("\n")}\n`;
}
