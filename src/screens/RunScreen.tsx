/**
 * The live run: header, finished items in <Static> (printed once, append-only), a live region
 * that is always shorter than the terminal (the streamed model text is clipped to its last lines),
 * and a status line with a spinner while the model thinks.
 */
import { Box, Static, Text } from "ink";
import { type ReactNode, useMemo, useState } from "react";
import { joinClauses, money, pct, usd } from "../printers/format.js";
import { sanitizeText } from "../util/sanitize.js";
import { HelpOverlay, KeyHelp, ScrollLines, Spinner, useTicker } from "./components.js";
import { useKeys } from "./input.js";
import { matchKey, overlayKeys, RUN_FINISHED_KEYS, RUN_KEYS } from "./keys.js";
import { portfolioLines } from "./portfolio-lines.js";
import { useResizeGeneration } from "./resize.js";
import type { RunHeader, RunItem, RunState, VerdictRow } from "./run-state.js";
import { useTerminalSize } from "./terminal.js";
import { clip, fitSegments, formatDuration, tailLines } from "./text.js";
import { type Theme, type Tone, useTheme } from "./theme.js";

const OVERLAY = overlayKeys("stop the run (nothing more is placed)");

export const HEADER_ROWS = 2;
const STATUS_ROWS = 2; // status line + key help

function RunHeaderView({ header, columns }: { header: RunHeader; columns: number }) {
  const th = useTheme();
  const cur = header.base_currency;
  const width = Math.max(20, columns - 1);
  // Segments by priority: a narrow terminal drops the lowest first (mode, day, value, state and
  // orders left stay; the run id, model and account go first — they are in the log as well).
  const line1 = fitSegments(
    [
      { text: `tradewarden ${header.mode ? header.mode.toUpperCase() : "starting…"}`, priority: 10 },
      { text: header.trading_day ? `day ${header.trading_day}` : "", priority: 9 },
      { text: header.account || cur ? `account ${header.account || "?"}${cur ? ` (${cur})` : ""}` : "", priority: 3 },
      { text: header.broker ? `broker ${header.broker}` : "", priority: 5 },
      { text: header.model ? `model ${header.model}` : "", priority: 4 },
      { text: header.run_id ? `run ${header.run_id}` : "", priority: 2 },
    ],
    width,
  );
  const dd = header.drawdown_pct;
  const ddTone: Tone = dd !== null && header.max_drawdown_pct !== null && dd >= header.max_drawdown_pct * 0.75 ? "warn" : "plain";
  const stateTone: Tone = header.trading_state === "HALTED" ? "error" : header.trading_state === "REDUCING" ? "warn" : "ok";
  const line2 = fitSegments(
    [
      { text: `value ${header.value === null ? "—" : money(header.value, cur)}`, priority: 10 },
      { text: header.cash === null ? "" : `cash ${money(header.cash)}`, priority: 3 },
      { text: `peak ${header.peak === null ? "—" : money(header.peak)}`, priority: 5 },
      { text: `drawdown ${dd === null ? "—" : pct(dd)}${header.max_drawdown_pct === null ? "" : ` / max ${pct(header.max_drawdown_pct, 0)}`}`, priority: 7 },
      { text: header.trading_state ?? "—", priority: 9 },
      { text: `orders left ${header.orders_left ?? "—"}`, priority: 8 },
    ],
    width,
  );
  return (
    <Box flexDirection="column" width={columns}>
      <Text bold color={th.c("accent")} wrap="truncate-end">
        {line1}
      </Text>
      <Text wrap="truncate-end" color={th.c(header.trading_state === "ACTIVE" ? ddTone : stateTone)}>
        {line2}
      </Text>
    </Box>
  );
}

function VerdictLines({ rows, indent }: { rows: VerdictRow[]; indent: number }) {
  const th = useTheme();
  return (
    <Box flexDirection="column" marginLeft={indent}>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of a finished item never change
        <Box key={i} flexDirection="column">
          <Text color={th.c(r.approved ? "ok" : "error")}>
            {r.approved ? "✓" : "✗"} {r.head} · notional {money(r.notional)}
            {r.approved ? " · approved" : " · BLOCKED"}
          </Text>
          {r.reasons.map((reason, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static
            <Text key={j} color={th.c("error")}>
              {"    "}
              {reason}
            </Text>
          ))}
        </Box>
      ))}
    </Box>
  );
}

type ItemOf<K extends RunItem["kind"]> = Extract<RunItem, { kind: K }>;

function noteItem(item: ItemOf<"note">, th: Theme): ReactNode {
  return (
    <Box flexDirection="column">
      <Text color={th.c(item.tone)} dimColor={th.dim(item.tone)}>
        {item.tone === "error" ? "✗ " : "• "}
        {item.text}
      </Text>
      {item.detail.map((d, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static
        <Text key={i} color={th.c(item.tone)}>
          {"    "}
          {d}
        </Text>
      ))}
    </Box>
  );
}

/** A tool call: the call, its outcome, and the correction the model was given, if any. */
function toolItem(item: ItemOf<"tool">, th: Theme): ReactNode {
  const tone: Tone = item.status === "ok" ? "ok" : item.status === "rejected" ? "warn" : "error";
  const mark = item.status === "ok" ? "✓" : "✗";
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={th.c("accent")}>→ {item.tool}</Text> <Text dimColor>{item.args}</Text>
      </Text>
      <Text color={th.c(tone)}>
        {"  "}
        {mark}{" "}
        {item.status === "ok"
          ? "ok"
          : item.status === "rejected"
            ? `rejected ${item.error_code ?? ""}${item.retryable ? " (retryable)" : ""}`
            : `failed ${item.error_code ?? ""}`}
        : {item.message}
        {item.truncated ? " (compacted)" : ""}
        {item.duration_ms !== undefined ? ` · ${item.duration_ms} ms` : ""}
      </Text>
      {item.correction ? (
        <Box flexDirection="column" marginLeft={4}>
          <Text color={th.c("warn")}>correction: {item.correction.instruction}</Text>
          {item.correction.issues.map((x, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static
            <Text key={`i${i}`}>issue {x}</Text>
          ))}
          {item.correction.missing.length ? <Text>missing: {item.correction.missing.join(", ")}</Text> : null}
          {item.correction.pending.length ? <Text>pending: {item.correction.pending.join(", ")}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}

function verdictsItem(item: ItemOf<"verdicts">, th: Theme): ReactNode {
  return (
    <Box flexDirection="column">
      <Text bold color={th.c(item.tone)}>
        ▸ {item.title}
      </Text>
      <VerdictLines rows={item.rows} indent={2} />
      {item.footer.map((f, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static
        <Text key={i}>
          {"  "}
          {f}
        </Text>
      ))}
    </Box>
  );
}

/** One finished item, as printed into the scrollback. */
function RunItemView({ item }: { item: RunItem }) {
  const th = useTheme();
  switch (item.kind) {
    case "note":
      return noteItem(item, th);
    case "text":
      return (
        <Box flexDirection="column" marginTop={1}>
          <Text dimColor>model · turn {item.turn}</Text>
          <Text>{item.text}</Text>
        </Box>
      );
    case "tool":
      return toolItem(item, th);
    case "verdicts":
      return verdictsItem(item, th);
    case "pending":
      return item.pending.length ? (
        <Text color={th.c("warn")}>⚠ pending corrections: {item.pending.map((p) => `${p.tool} (${p.error_code}): ${p.error}`).join("; ")}</Text>
      ) : (
        <Text dimColor>• pending corrections cleared</Text>
      );
    case "order":
      return (
        <Text color={th.c(item.tone)}>
          {"$ "}
          {item.text}
        </Text>
      );
  }
}

/** The live region: pending tool calls and the tail of the streamed text, at most `maxRows` rows. */
function RunLive({ state, columns, maxRows }: { state: RunState; columns: number; maxRows: number }) {
  const th = useTheme();
  const width = Math.max(10, columns - 1);
  const tools = state.pendingTools.slice(-Math.max(0, maxRows - 2));
  const pendingRow = state.pending.length > 0 ? 1 : 0;
  const textRows = Math.max(0, maxRows - tools.length - pendingRow - 1);
  const raw = state.live?.text ?? "";
  // Only the tail is ever looked at, so drawing costs the same late in a long stream.
  const budget = (width + 1) * (textRows + 2);
  const tail = sanitizeText(raw.length > budget ? raw.slice(raw.length - budget) : raw);
  const { lines, clipped } = tailLines(tail, width, textRows);
  const showText = state.live !== null && (lines.length > 0 || state.status.thinking);
  return (
    <Box flexDirection="column">
      {showText && textRows > 0 ? (
        <Text dimColor wrap="truncate-end">
          model · turn {state.live?.turn}
          {clipped || raw.length > budget ? " (earlier lines above are clipped; shown in full when the turn ends)" : ""}
        </Text>
      ) : null}
      {lines.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a line position in a window
        <Text key={i} wrap="truncate-end">
          {l}
        </Text>
      ))}
      {tools.map((t) => (
        <Text key={t.call_id} wrap="truncate-end">
          <Spinner /> <Text color={th.c("accent")}>{t.tool}</Text> <Text dimColor>{clip(t.args, width)}</Text>
        </Text>
      ))}
      {pendingRow ? (
        <Text color={th.c("warn")} wrap="truncate-end">
          ⚠ pending corrections: {state.pending.map((p) => `${p.tool} (${p.error_code})`).join(", ")}
        </Text>
      ) : null}
    </Box>
  );
}

function StatusLine({ state, columns }: { state: RunState; columns: number }) {
  const th = useTheme();
  const st = state.status;
  const finished = state.final !== null || st.phase === "finished";
  useTicker(!finished && st.deadline_ms !== null, 1000);
  if (state.final) {
    const f = state.final;
    return (
      <Box width={columns}>
        <Text wrap="truncate-end" color={th.c(f.exit_code === 0 ? "ok" : "error")} bold>
          {f.exit_code === 0 ? "✓" : "✗"} finished: {f.outcome} (exit {f.exit_code}): {joinClauses(f.message, `LLM ${usd(f.cost_usd)}`)}
        </Text>
      </Box>
    );
  }
  const parts: string[] = [];
  if (st.max_turns > 0) parts.push(`turn ${st.turn}/${st.max_turns}`);
  if (st.deadline_ms !== null) parts.push(`${formatDuration(st.deadline_ms - Date.now())} left`);
  if (st.budget_usd > 0 || st.cost_usd > 0) parts.push(`cost ${usd(st.cost_usd)} of ${usd(st.budget_usd)}`);
  const phase = st.phase === "approval" ? "awaiting your decision" : st.phase.replace("_", " ");
  return (
    <Box width={columns}>
      <Text wrap="truncate-end">
        {st.thinking ? <Spinner /> : <Text color={th.c("accent")}>●</Text>} <Text bold>{st.thinking ? "thinking" : phase}</Text>
        {parts.length ? ` · ${parts.join(" · ")}` : ""}
        {st.retry ? <Text color={th.c("warn")}> · {st.retry}</Text> : null}
      </Text>
    </Box>
  );
}

export interface RunScreenProps {
  state: RunState;
  onInterrupt: () => void;
  /** Replaces the live region (the approval screen); it then owns the keyboard. */
  children?: ReactNode;
}

export function RunScreen({ state, onInterrupt, children }: RunScreenProps) {
  const { columns, rows } = useTerminalSize();
  const [help, setHelp] = useState(false);
  const hasChild = children !== undefined && children !== null && children !== false;
  const finished = state.final !== null;
  useKeys(
    (input, key) => {
      if (help) {
        if (matchKey(OVERLAY, input, key) === "interrupt") onInterrupt();
        else setHelp(false);
        return;
      }
      const a = matchKey(RUN_KEYS, input, key);
      if (a === "interrupt") onInterrupt();
      else if (a === "help") setHelp(true);
    },
    { isActive: !hasChild && !finished },
  );
  // A fresh array only when finished items were added (Static renders only the new tail).
  const items = useMemo(() => state.items.slice(0, state.itemCount), [state.items, state.itemCount]);
  // After a resize the scrollback is cleared and every finished item printed again at the new width.
  const resizeGeneration = useResizeGeneration();
  const width = Math.max(20, columns - 1);
  // The portfolio while the model works (the approval screen shows its own).
  const folio =
    !hasChild && state.header.portfolio && rows >= 22 ? portfolioLines(state.header.portfolio, null, width, Math.max(0, Math.min(5, rows - 22))) : [];
  const liveRows = Math.max(1, rows - HEADER_ROWS - STATUS_ROWS - 2 - folio.length);
  return (
    <>
      <Static key={resizeGeneration} items={items}>
        {(item) => <RunItemView key={item.key} item={item} />}
      </Static>
      <Box flexDirection="column" width={width}>
        <RunHeaderView header={state.header} columns={columns} />
        {hasChild ? null : <ScrollLines lines={folio} offset={0} height={folio.length} width={width} />}
        {hasChild ? (
          children
        ) : help ? (
          <HelpOverlay title="run" table={RUN_KEYS} width={width} />
        ) : (
          <RunLive state={state} columns={columns} maxRows={liveRows} />
        )}
        {hasChild ? null : (
          <>
            <StatusLine state={state} columns={columns} />
            <KeyHelp table={finished ? RUN_FINISHED_KEYS : RUN_KEYS} width={width} />
          </>
        )}
      </Box>
    </>
  );
}
