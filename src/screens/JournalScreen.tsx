/**
 * The journal browser (`tradewarden journal`): runs list (filter with /), run detail (timeline,
 * orders and fills, verdicts, the operator's decision, cost), transcript viewer, and an account
 * view charting value against peak and the drawdown limit line. Reads only; never writes.
 */
import { Box, Text, useInput } from "ink";
import { type ReactNode, useEffect } from "react";
import type { GateDecision } from "../core/gate-types.js";
import type { RunEvent } from "../core/events.js";
import { money, pct, usd } from "../run/format.js";
import { describe } from "../run/headless.js";
import { sanitizeLine, sanitizeText } from "../util/sanitize.js";
import { type ChartPoint, type ChartSeries, renderChart } from "./chart.js";
import { KeyHelp, PromptLine, Spinner } from "./components.js";
import {
  JOURNAL_ACCOUNT_KEYS,
  JOURNAL_DETAIL_KEYS,
  JOURNAL_LIST_KEYS,
  JOURNAL_TRANSCRIPT_KEYS,
  type KeyTable,
  matchKey,
  type PromptAction,
  promptKeys,
  type ScrollAction,
} from "./keys.js";
import { useTerminalSize } from "./terminal.js";
import { clip, editBuffer, padEnd, padStart, wrapText } from "./text.js";
import { type Tone, useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

// ── The source the lead wires to the journal ─────────────────────────────────────────────────
type MaybePromise<T> = T | Promise<T>;

export interface JournalRunSummary {
  run_id: string;
  started_at: string;
  trading_day: string;
  mode: string;
  outcome: string | null;
  orders: number;
  fills: number;
  cost_usd: number;
}

export interface JournalOrderRow {
  client_order_id: string;
  symbol: string;
  side: string;
  quantity: number;
  limit_price: number;
  status: string;
  filled_quantity?: number;
  avg_price?: number;
}

export interface JournalFillRow {
  at: string;
  symbol: string;
  side: string;
  quantity: number;
  price: number;
  commission?: number;
  client_order_id?: string;
}

export interface JournalDecision {
  decision: string;
  by: string;
  reason?: string;
  orders_hash?: string;
  orders?: number;
}

export interface JournalCost {
  total_usd: number;
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  turns?: number;
}

export interface TranscriptEntry {
  role: string;
  text: string;
}

export interface JournalRunDetail {
  run_id: string;
  /** The run's events.jsonl. */
  events: RunEvent[];
  orders: JournalOrderRow[];
  fills: JournalFillRow[];
  /** The operator's decision; derived from the approval.decided event when null. */
  decision: JournalDecision | null;
  transcript: TranscriptEntry[];
  cost: JournalCost;
}

export interface JournalAccountPoint {
  run_id: string;
  trading_day: string;
  value: number;
  peak: number;
}

export interface JournalAccount {
  points: JournalAccountPoint[];
  max_drawdown_pct: number;
  base_currency?: string;
}

export interface JournalBrowserSource {
  listRuns(): MaybePromise<JournalRunSummary[]>;
  runDetail(runId: string): MaybePromise<JournalRunDetail | null>;
  account(): MaybePromise<JournalAccount>;
}

export interface JournalScreenProps {
  source: JournalBrowserSource;
  onExit: () => void;
  /** Ctrl+C; defaults to onExit. */
  onInterrupt?: () => void;
}

// ── Pure helpers ─────────────────────────────────────────────────────────────────────────────
export interface Line {
  text: string;
  tone: Tone;
}

export function filterRuns(runs: readonly JournalRunSummary[], query: string): JournalRunSummary[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...runs];
  const terms = q.split(/\s+/);
  return runs.filter((r) => {
    const hay = `${r.run_id} ${r.trading_day} ${r.started_at} ${r.mode} ${r.outcome ?? "running"}`.toLowerCase();
    return terms.every((t) => hay.includes(t));
  });
}

const plainPaint = { red: (s: string) => s, green: (s: string) => s, yellow: (s: string) => s, dim: (s: string) => s };

function eventTone(e: RunEvent): Tone {
  if (e.type.startsWith("order.")) return e.type === "order.filled" ? "ok" : e.type === "order.rejected" || e.type === "order.uncertain" ? "error" : "plain";
  if (e.type === "tool.rejected" || e.type === "submit.bounced" || e.type === "model.retry") return "warn";
  if (e.type === "killswitch.tripped" || e.type === "reconcile.failed" || e.type === "preflight.failed") return "error";
  if (e.type === "model.turn_started" || e.type === "model.response") return "dim";
  return "plain";
}

function verdictLines(title: string, decisions: readonly GateDecision[]): Line[] {
  const out: Line[] = [{ text: title, tone: "accent" }];
  for (const d of decisions) {
    const head = `${sanitizeLine(String(d.order.side)).toUpperCase()} ${d.order.quantity} ${sanitizeLine(String(d.order.symbol))} @ ${d.order.limit_price}`;
    out.push({ text: `  ${d.approved ? "✓" : "✗"} ${head} · notional ${money(d.notional)}${d.approved ? " · approved" : " · BLOCKED"}`, tone: d.approved ? "ok" : "error" });
    for (const r of d.reasons) out.push({ text: `      ${r.code}: ${sanitizeLine(r.message)}`, tone: "error" });
  }
  return out;
}

/** Every line of a run's detail view, wrapped to `width`. */
export function detailLines(d: JournalRunDetail, summary: JournalRunSummary | undefined, width: number): Line[] {
  const out: Line[] = [];
  const push = (text: string, tone: Tone = "plain") => {
    for (const l of wrapText(text, width)) out.push({ text: l, tone });
  };
  const started = d.events.find((e) => e.type === "run.started");
  const finished = d.events.find((e) => e.type === "run.finished");
  push(
    `Run ${sanitizeLine(d.run_id)}${summary ? ` · day ${summary.trading_day} · ${summary.mode} · started ${summary.started_at}` : started?.type === "run.started" ? ` · day ${started.trading_day} · ${started.mode}` : ""}`,
    "accent",
  );
  if (finished?.type === "run.finished") push(`Outcome: ${finished.outcome} (exit ${finished.exit_code}): ${sanitizeLine(finished.message)}`, finished.exit_code === 0 ? "ok" : "error");
  else if (summary) push(`Outcome: ${summary.outcome ?? "unfinished"}`);

  let decision = d.decision;
  if (!decision) {
    const ev = [...d.events].reverse().find((e) => e.type === "approval.decided");
    if (ev?.type === "approval.decided") decision = { decision: ev.decision, by: ev.by, orders_hash: ev.orders_hash, orders: ev.orders.length, ...(ev.reason ? { reason: ev.reason } : {}) };
  }
  push(
    decision
      ? `Decision: ${decision.decision} by ${decision.by}${decision.orders !== undefined ? ` · ${decision.orders} order(s)` : ""}${decision.reason ? ` · reason: ${sanitizeLine(decision.reason)}` : ""}${decision.orders_hash ? ` · orders ${decision.orders_hash.slice(0, 12)}` : ""}`
      : "Decision: none recorded",
  );
  const c = d.cost;
  push(
    `Cost: ${usd(c.total_usd)}${c.turns !== undefined ? ` · ${c.turns} turn(s)` : ""}${c.input_tokens !== undefined ? ` · ${c.input_tokens} in` : ""}${c.cache_read_tokens !== undefined ? ` (${c.cache_read_tokens} cache read` : ""}${c.cache_write_tokens !== undefined ? `${c.cache_read_tokens !== undefined ? ", " : " ("}${c.cache_write_tokens} cache write)` : c.cache_read_tokens !== undefined ? ")" : ""}${c.output_tokens !== undefined ? ` · ${c.output_tokens} out` : ""}`,
  );

  out.push({ text: "", tone: "plain" });
  push(`Orders (${d.orders.length})`, "accent");
  if (d.orders.length === 0) push("  none", "dim");
  for (const o of d.orders) {
    push(
      `  ${padEnd(o.side, 5)}${padStart(String(o.quantity), 7)} ${padEnd(sanitizeLine(o.symbol), 8)} @ ${padStart(String(o.limit_price), 9)}  ${padEnd(sanitizeLine(o.status), 17)}${o.filled_quantity !== undefined ? ` filled ${o.filled_quantity}${o.avg_price !== undefined ? ` @ ${o.avg_price}` : ""}` : ""}  ${sanitizeLine(o.client_order_id)}`,
      o.status === "filled" ? "ok" : o.status === "rejected" || o.status === "uncertain" ? "error" : "plain",
    );
  }
  push(`Fills (${d.fills.length})`, "accent");
  if (d.fills.length === 0) push("  none", "dim");
  for (const f of d.fills) push(`  ${sanitizeLine(f.at)}  ${f.side} ${f.quantity} ${sanitizeLine(f.symbol)} @ ${f.price}${f.commission !== undefined ? ` · commission ${money(f.commission)}` : ""}`);

  const proposal = d.events.find((e) => e.type === "proposal");
  if (proposal?.type === "proposal") {
    out.push({ text: "", tone: "plain" });
    push(`Proposal summary: ${sanitizeLine(proposal.summary)}`);
    out.push(...verdictLines("Gate verdicts on the proposal", proposal.decisions));
  }
  const final = d.events.find((e) => e.type === "gate.final");
  if (final?.type === "gate.final") out.push(...verdictLines("Final gate", final.decisions));

  out.push({ text: "", tone: "plain" });
  push(`Timeline (${d.events.length} events)`, "accent");
  let text = "";
  const flushText = (at: string) => {
    const t = sanitizeText(text).trim();
    if (t) for (const l of wrapText(`${at}  model: ${t.replace(/\s*\n\s*/g, " ")}`, width)) out.push({ text: l, tone: "dim" });
    text = "";
  };
  let lastAt = "";
  for (const e of d.events) {
    const at = (e.at ?? "").slice(11, 19);
    if (e.type === "model.text") {
      text += e.delta;
      lastAt = at;
      continue;
    }
    flushText(lastAt);
    const s = describe(e, plainPaint);
    if (s === null) continue;
    const lines = sanitizeText(s).split("\n");
    lines.forEach((l, i) => {
      push(`${i === 0 ? at : " ".repeat(at.length)}  ${l}`, eventTone(e));
    });
  }
  flushText(lastAt);
  return out;
}

export function transcriptLines(entries: readonly TranscriptEntry[], width: number): Line[] {
  const out: Line[] = [];
  if (entries.length === 0) out.push({ text: "(no transcript recorded)", tone: "dim" });
  for (const m of entries) {
    const role = sanitizeLine(m.role);
    out.push({ text: `── ${role} ──`, tone: role === "assistant" ? "accent" : role === "user" ? "ok" : "dim" });
    for (const l of wrapText(sanitizeText(m.text), width)) out.push({ text: l, tone: "plain" });
    out.push({ text: "", tone: "plain" });
  }
  return out;
}

export function scrollBy(action: ScrollAction, offset: number, total: number, height: number): number {
  const maxOff = Math.max(0, total - height);
  const page = Math.max(1, height - 1);
  let next = offset;
  if (action === "up") next = offset - 1;
  else if (action === "down") next = offset + 1;
  else if (action === "pageUp") next = offset - page;
  else if (action === "pageDown") next = offset + page;
  else if (action === "top") next = 0;
  else if (action === "bottom") next = maxOff;
  return Math.min(maxOff, Math.max(0, next));
}

// ── The screen ───────────────────────────────────────────────────────────────────────────────
type Load<T> = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; data: T };

type View =
  | { kind: "list" }
  | { kind: "detail"; runId: string; offset: number }
  | { kind: "transcript"; runId: string; offset: number; back: number }
  | { kind: "account" };

interface JState {
  view: View;
  runs: Load<JournalRunSummary[]>;
  filter: string;
  filtering: boolean;
  selected: number;
  detail: { runId: string; load: Load<JournalRunDetail | null> } | null;
  account: Load<JournalAccount> | null;
}

const FILTER_KEYS = promptKeys("keep filter", "clear filter");
const errText = (e: unknown) => sanitizeLine(e instanceof Error ? e.message : String(e));

function ScrollLines({ lines, offset, height }: { lines: readonly Line[]; offset: number; height: number }) {
  const th = useTheme();
  const shown = lines.slice(offset, offset + height);
  return (
    <Box flexDirection="column">
      {shown.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: positions in a scrolling window
        <Text key={i} wrap="truncate-end" color={th.c(l.tone)} dimColor={th.dim(l.tone)}>
          {l.text === "" ? " " : l.text}
        </Text>
      ))}
    </Box>
  );
}

function SERIES_TONE(s: ChartSeries): Tone {
  return s === "value" ? "value" : s === "peak" ? "peak" : s === "limit" ? "limit" : s === "axis" ? "dim" : "plain";
}

function ChartView({ account, width, height }: { account: JournalAccount; width: number; height: number }) {
  const th = useTheme();
  const points: ChartPoint[] = account.points.map((p) => ({ label: sanitizeLine(p.trading_day), value: p.value, peak: p.peak }));
  const chart = renderChart(points, { width, height, maxDrawdownPct: account.max_drawdown_pct });
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
              <Text key={i} color={th.c(SERIES_TONE(s.series))} dimColor={s.series === "axis"}>
                {s.text}
              </Text>
            ))}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">
        {chart.xAxis}
      </Text>
    </Box>
  );
}

export function JournalScreen({ source, onExit, onInterrupt }: JournalScreenProps) {
  const th = useTheme();
  const { columns, rows } = useTerminalSize();
  const [get, set] = useRefState<JState>(() => ({ view: { kind: "list" }, runs: { state: "loading" }, filter: "", filtering: false, selected: 0, detail: null, account: null }));
  const st = get();
  const patch = (p: Partial<JState> | ((s: JState) => Partial<JState>)) => set((prev) => ({ ...prev, ...(typeof p === "function" ? p(prev) : p) }));

  useEffect(() => {
    let live = true;
    Promise.resolve()
      .then(() => source.listRuns())
      .then(
        (runs) => live && set((prev) => ({ ...prev, runs: { state: "ready", data: runs } })),
        (e: unknown) => live && set((prev) => ({ ...prev, runs: { state: "error", message: errText(e) } })),
      );
    return () => {
      live = false;
    };
  }, [source, set]);

  const openRun = (runId: string) => {
    patch({ view: { kind: "detail", runId, offset: 0 }, detail: { runId, load: { state: "loading" } } });
    Promise.resolve()
      .then(() => source.runDetail(runId))
      .then(
        (data) => patch((s) => (s.detail?.runId === runId ? { detail: { runId, load: { state: "ready", data } } } : {})),
        (e: unknown) => patch((s) => (s.detail?.runId === runId ? { detail: { runId, load: { state: "error", message: errText(e) } } } : {})),
      );
  };
  const openAccount = () => {
    patch({ view: { kind: "account" }, account: { state: "loading" } });
    Promise.resolve()
      .then(() => source.account())
      .then(
        (data) => patch({ account: { state: "ready", data } }),
        (e: unknown) => patch({ account: { state: "error", message: errText(e) } }),
      );
  };

  const width = Math.max(20, columns - 1);
  const bodyHeight = Math.max(3, rows - 5);
  const runs = st.runs.state === "ready" ? filterRuns(st.runs.data, st.filter) : [];
  const summaryOf = (id: string) => (st.runs.state === "ready" ? st.runs.data.find((r) => r.run_id === id) : undefined);
  const detailData = st.detail?.load.state === "ready" ? st.detail.load.data : null;
  const lines: Line[] =
    st.view.kind === "detail" && detailData
      ? detailLines(detailData, summaryOf(detailData.run_id), width)
      : st.view.kind === "transcript" && detailData
        ? transcriptLines(detailData.transcript, width)
        : [];

  useInput((input, key) => {
    const s = get();
    const interrupt = onInterrupt ?? onExit;
    const v = s.view;
    if (v.kind === "list") {
      if (s.filtering) {
        const a = matchKey<PromptAction>(FILTER_KEYS, input, key);
        if (a === "interrupt") return interrupt();
        if (a === "submit") return patch({ filtering: false });
        if (a === "cancel") return patch({ filtering: false, filter: "", selected: 0 });
        return patch({ filter: editBuffer(s.filter, input, key), selected: 0 });
      }
      const a = matchKey(JOURNAL_LIST_KEYS, input, key);
      const list = s.runs.state === "ready" ? filterRuns(s.runs.data, s.filter) : [];
      switch (a) {
        case "interrupt":
          return interrupt();
        case "quit":
          return onExit();
        case "up":
          return patch({ selected: Math.max(0, s.selected - 1) });
        case "down":
          return patch({ selected: Math.min(Math.max(0, list.length - 1), s.selected + 1) });
        case "filter":
          return patch({ filtering: true });
        case "clear":
          return patch({ filter: "", selected: 0 });
        case "account":
          return openAccount();
        case "open": {
          const run = list[s.selected];
          if (run) openRun(run.run_id);
          return;
        }
        default:
          return;
      }
    }
    if (v.kind === "account") {
      const a = matchKey(JOURNAL_ACCOUNT_KEYS, input, key);
      if (a === "interrupt") return interrupt();
      if (a === "quit") return onExit();
      if (a === "back") return patch({ view: { kind: "list" } });
      return;
    }
    const table = v.kind === "detail" ? JOURNAL_DETAIL_KEYS : JOURNAL_TRANSCRIPT_KEYS;
    const a = matchKey(table, input, key);
    if (!a) return;
    if (a === "interrupt") return interrupt();
    if (a === "quit") return onExit();
    if (a === "back") return patch({ view: v.kind === "detail" ? { kind: "list" } : { kind: "detail", runId: v.runId, offset: v.back } });
    if (a === "transcript") {
      if (v.kind === "detail" && s.detail?.load.state === "ready") patch({ view: { kind: "transcript", runId: v.runId, offset: 0, back: v.offset } });
      return;
    }
    // Scrolling: recompute the line count for the current view and width.
    const d = s.detail?.load.state === "ready" ? s.detail.load.data : null;
    if (!d) return;
    const total = v.kind === "detail" ? detailLines(d, summaryOf(d.run_id), width).length : transcriptLines(d.transcript, width).length;
    patch({ view: { ...v, offset: scrollBy(a, v.offset, total, bodyHeight) } });
  });

  // ── views ──
  let title: string;
  let body: ReactNode;
  let keys: KeyTable;
  if (st.view.kind === "list") {
    keys = st.filtering ? FILTER_KEYS : JOURNAL_LIST_KEYS;
    const all = st.runs.state === "ready" ? st.runs.data.length : 0;
    title = `Journal · ${st.filter ? `${runs.length} of ${all}` : all} run(s)`;
    if (st.runs.state === "loading")
      body = (
        <Text>
          <Spinner /> loading runs…
        </Text>
      );
    else if (st.runs.state === "error") body = <Text color={th.c("error")}>could not read the journal: {st.runs.message}</Text>;
    else {
      const h = Math.max(1, bodyHeight - 2);
      const selected = Math.min(st.selected, Math.max(0, runs.length - 1));
      const start = Math.min(Math.max(0, selected - Math.floor(h / 2)), Math.max(0, runs.length - h));
      body = (
        <Box flexDirection="column">
          {st.filtering || st.filter ? <PromptLine label="filter /" value={st.filter} hint={st.filtering ? "" : "(Esc clears)"} /> : null}
          <Text dimColor wrap="truncate-end">
            {`  ${padEnd("day", 11)}${padEnd("started", 17)}${padEnd("mode", 8)}${padEnd("outcome", 18)}${padStart("orders", 6)}${padStart("fills", 6)}${padStart("cost", 10)}  run`}
          </Text>
          {runs.length === 0 ? <Text dimColor>{all === 0 ? "no runs yet: start one with tradewarden run" : "no run matches the filter"}</Text> : null}
          {runs.slice(start, start + h).map((r, k) => {
            const i = start + k;
            const sel = i === selected;
            const outcome = r.outcome ?? "unfinished";
            const tone: Tone = outcome === "executed" || outcome === "hold" || outcome === "no_trades" ? "ok" : outcome === "rejected" || outcome === "observed" ? "plain" : "warn";
            return (
              <Text key={r.run_id} wrap="truncate-end" bold={sel} inverse={sel && th.color}>
                {sel ? "›" : " "} {padEnd(sanitizeLine(r.trading_day), 11)}
                {padEnd(sanitizeLine(r.started_at).replace("T", " ").slice(0, 16), 17)}
                {padEnd(sanitizeLine(r.mode), 8)}
                <Text color={sel && th.color ? undefined : th.c(tone)}>{padEnd(sanitizeLine(outcome), 18)}</Text>
                {padStart(String(r.orders), 6)}
                {padStart(String(r.fills), 6)}
                {padStart(usd(r.cost_usd), 10)} {sanitizeLine(r.run_id)}
              </Text>
            );
          })}
        </Box>
      );
    }
  } else if (st.view.kind === "account") {
    keys = JOURNAL_ACCOUNT_KEYS;
    title = "Account · value against peak and the drawdown limit";
    const acc = st.account;
    if (!acc || acc.state === "loading")
      body = (
        <Text>
          <Spinner /> loading account history…
        </Text>
      );
    else if (acc.state === "error") body = <Text color={th.c("error")}>could not read the account history: {acc.message}</Text>;
    else if (acc.data.points.length === 0) body = <Text dimColor>no valuations yet</Text>;
    else {
      const a = acc.data;
      const lastP = a.points[a.points.length - 1];
      const cur = a.base_currency ?? "";
      const dd = lastP && lastP.peak > 0 ? ((lastP.peak - lastP.value) / lastP.peak) * 100 : 0;
      const limit = lastP ? lastP.peak * (1 - a.max_drawdown_pct / 100) : 0;
      body = (
        <Box flexDirection="column">
          <ChartView account={a} width={width} height={Math.max(3, bodyHeight - 5)} />
          <Text wrap="truncate-end">
            <Text color={th.c("value")}>⣿ value</Text> <Text color={th.c("peak")}>─ peak</Text> <Text color={th.c("limit")}>┄ limit (peak × (1 − {pct(a.max_drawdown_pct, 0)}))</Text> · {a.points.length} run(s)
          </Text>
          {lastP ? (
            <Text wrap="truncate-end">
              now {money(lastP.value, cur)} · peak {money(lastP.peak, cur)} · drawdown {pct(dd)} of max {pct(a.max_drawdown_pct, 0)}
            </Text>
          ) : null}
          {lastP ? (
            <Text wrap="truncate-end" color={th.c(lastP.value - limit <= 0 ? "error" : "plain")}>
              limit line {money(limit, cur)} · headroom {money(lastP.value - limit, cur)} before the kill switch trips
            </Text>
          ) : null}
        </Box>
      );
    }
  } else {
    const v = st.view;
    keys = v.kind === "detail" ? JOURNAL_DETAIL_KEYS : JOURNAL_TRANSCRIPT_KEYS;
    title = `${v.kind === "detail" ? "Run" : "Transcript of run"} ${sanitizeLine(v.runId)}`;
    const load = st.detail?.load;
    if (!load || load.state === "loading")
      body = (
        <Text>
          <Spinner /> loading run…
        </Text>
      );
    else if (load.state === "error") body = <Text color={th.c("error")}>could not read the run: {load.message}</Text>;
    else if (!load.data) body = <Text color={th.c("warn")}>run not found in the journal</Text>;
    else {
      const offset = Math.min(v.offset, Math.max(0, lines.length - bodyHeight));
      body = (
        <Box flexDirection="column">
          <ScrollLines lines={lines} offset={offset} height={bodyHeight} />
          <Text dimColor>
            lines {lines.length === 0 ? 0 : offset + 1}–{Math.min(lines.length, offset + bodyHeight)} of {lines.length}
          </Text>
        </Box>
      );
    }
  }

  return (
    <Box flexDirection="column" width={columns}>
      <Text bold color={th.c("accent")} wrap="truncate-end">
        tradewarden · {clip(title, width - 14)}
      </Text>
      {body}
      <KeyHelp table={keys} width={columns} />
    </Box>
  );
}
