/** The journal browser's account view: value against peak and the limit line, with trip, reset and fill markers. */
import { Box, Text } from "ink";
import { money, pct } from "../printers/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import { type Chart, type ChartPoint, type ChartSeries, MARKS, renderChart } from "./chart.js";
import type { JournalAccount } from "./journal-data.js";
import { type Tone, useTheme } from "./theme.js";

function seriesTone(s: ChartSeries): Tone {
  return s === "value" ? "value" : s === "peak" ? "peak" : s === "limit" ? "limit" : s === "axis" ? "dim" : "plain";
}

function accountChart(account: JournalAccount, width: number, height: number): Chart {
  const points: ChartPoint[] = account.points.map((p) => ({
    label: sanitizeLine(p.trading_day),
    value: p.value,
    peak: p.peak,
    marks: { ...(p.trip ? { trip: true } : {}), ...(p.reset ? { reset: true } : {}), ...(p.fills ? { fills: p.fills } : {}) },
  }));
  return renderChart(points, { width, height, maxDrawdownPct: account.max_drawdown_pct });
}

function ChartView({ chart }: { chart: Chart }) {
  const th = useTheme();
  return (
    <Box flexDirection="column">
      {chart.rows.map((row, r) => {
        // Group runs of the same series into one Text each.
        const segs: Array<{ series: ChartSeries; text: string }> = [];
        for (const cell of row) {
          const last = segs[segs.length - 1];
          if (last && last.series === cell.series) last.text += cell.ch;
          else segs.push({ series: cell.series, text: cell.ch });
        }
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: chart rows
          <Text key={r} wrap="truncate-end">
            {segs.map((s, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: segments of a row
              <Text key={i} color={th.c(seriesTone(s.series))} dimColor={s.series === "axis"}>
                {s.text}
              </Text>
            ))}
          </Text>
        );
      })}
      <Text color={th.c("warn")} wrap="truncate-end">
        {chart.markers || " "}
      </Text>
      <Text dimColor wrap="truncate-end">
        {chart.xAxis}
      </Text>
    </Box>
  );
}

/** What the limit line means for the account now, in words that are true in every state. */
export function headroomText(account: JournalAccount, value: number, limit: number): { text: string; tone: Tone } {
  const cur = account.base_currency ?? "";
  if (account.trading_state === "HALTED")
    return { text: `trading is halted: the kill switch has tripped (limit line ${money(limit, cur)}); \`tradewarden killswitch\` resets it`, tone: "error" };
  const room = value - limit;
  if (room <= 0)
    return { text: `value is ${money(-room, cur)} under the limit line ${money(limit, cur)}: the next run's valuation trips the kill switch`, tone: "error" };
  return { text: `limit line ${money(limit, cur)} · headroom ${money(room, cur)} before the kill switch trips`, tone: "plain" };
}

export function AccountBody({ account, width, height }: { account: JournalAccount; width: number; height: number }) {
  const th = useTheme();
  const a = account;
  const lastP = a.points[a.points.length - 1];
  const cur = a.base_currency ?? "";
  // After a reset (before the next run) the peak is the reset's, and the account was valued at it.
  const reset = a.reset_after_last_run;
  const peak = reset ? reset.peak : (lastP?.peak ?? 0);
  const value = reset ? reset.peak : (lastP?.value ?? 0);
  const dd = peak > 0 ? ((peak - value) / peak) * 100 : 0;
  const limit = peak * (1 - a.max_drawdown_pct / 100);
  const head = lastP ? headroomText(a, value, limit) : null;
  const chart = accountChart(a, width, Math.max(3, height - 6));
  return (
    <Box flexDirection="column">
      <ChartView chart={chart} />
      <Text wrap="truncate-end">
        {/* The legend names the peak's line only when it is drawn: at a new high it lies under the value. */}
        <Text color={th.c("value")}>⣿ value</Text> <Text color={th.c("peak")}>{chart.peakDrawn ? "─ peak" : "(peak on the value line)"}</Text>{" "}
        <Text color={th.c("limit")}>┄ limit (peak × (1 − {pct(a.max_drawdown_pct, 0)}))</Text> ·{" "}
        <Text color={th.c("warn")}>
          {MARKS.trip} trip {MARKS.reset} reset {MARKS.fill} fills
        </Text>{" "}
        · {a.points.length} run(s)
      </Text>
      {lastP ? (
        <Text wrap="truncate-end">
          {reset
            ? `reset after day ${sanitizeLine(lastP.trading_day)}: value = peak ${money(peak, cur)}`
            : `day ${sanitizeLine(lastP.trading_day)}: value ${money(value, cur)} · peak ${money(peak, cur)}`}{" "}
          · drawdown {pct(dd)} of max {pct(a.max_drawdown_pct, 0)}
          {a.trading_state ? ` · ${a.trading_state}` : ""}
        </Text>
      ) : null}
      {head ? (
        <Text wrap="truncate-end" color={th.c(head.tone)}>
          {head.text}
        </Text>
      ) : null}
    </Box>
  );
}
