/** The journal browser's long views as lines, pure: a run's detail and its transcript. */
import type { GateDecision } from "../core/gate-types.js";
import type { RunEvent } from "../core/events.js";
import { decisionText, money, quantity, price, usd } from "../printers/format.js";
import { count, wallClock } from "../core/format.js";
import { describe } from "../printers/headless.js";
import { sanitizeLine, sanitizeText } from "../util/sanitize.js";
import type { Line } from "./components.js";
import type { JournalDecision, JournalRunDetail, JournalRunSummary, TranscriptEntry } from "./journal-data.js";
import { padEnd, padStart, prettyText, wrapIndented, wrapText } from "./text.js";
import type { Tone } from "./theme.js";

const plainPaint = { red: (s: string) => s, green: (s: string) => s, yellow: (s: string) => s, dim: (s: string) => s };

function eventTone(e: RunEvent): Tone {
  if (e.type.startsWith("order.")) return e.type === "order.filled" ? "ok" : e.type === "order.rejected" || e.type === "order.uncertain" ? "error" : "plain";
  if (e.type === "tool.rejected" || e.type === "submit.bounced" || e.type === "model.retry") return "warn";
  if (e.type === "killswitch.tripped" || e.type === "reconcile.failed" || e.type === "preflight.failed") return "error";
  if (e.type === "model.turn_started" || e.type === "model.response") return "dim";
  return "plain";
}

function verdictLines(title: string, decisions: readonly GateDecision[], currency: string): Line[] {
  const out: Line[] = [{ text: title, tone: "accent" }];
  for (const d of decisions) {
    const head = `${sanitizeLine(String(d.order.side)).toUpperCase()} ${quantity(d.order.quantity)} ${sanitizeLine(String(d.order.symbol))} @ ${price(d.order.limit_price)}`;
    out.push({
      text: `  ${d.approved ? "✓" : "✗"} ${head} · notional ${money(d.notional, currency)}${d.approved ? " · approved" : " · BLOCKED"}`,
      tone: d.approved ? "ok" : "error",
    });
    for (const r of d.reasons) out.push({ text: `      ${r.code}: ${sanitizeLine(r.message)}`, tone: "error" });
  }
  return out;
}

/** "2026-03-02T14:00:05.123Z" → "14:00:05" (UTC wall clock). */
const clock = (at: string | undefined) => (at ?? "").slice(11, 19);
/** When a fill was booked, on the wall clock: its own date and time, never glued to the trading day. */
const bookedAt = (at: string) => wallClock(sanitizeLine(at), false);

/** The run's base currency, from its start event ("" when the run never said). */
function currencyOf(d: JournalRunDetail): string {
  for (const e of d.events) if (e.type === "run.started") return e.base_currency;
  return "";
}

function decisionOf(d: JournalRunDetail): JournalDecision | null {
  if (d.decision) return d.decision;
  const ev = [...d.events].reverse().find((e) => e.type === "approval.decided");
  return ev?.type === "approval.decided"
    ? { decision: ev.decision, by: ev.by, orders_hash: ev.orders_hash, orders: ev.orders.length, ...(ev.reason ? { reason: ev.reason } : {}) }
    : null;
}

/** Every line of a run's detail view, wrapped to `width`. */
export function detailLines(d: JournalRunDetail, summary: JournalRunSummary | undefined, width: number): Line[] {
  const out: Line[] = [];
  const push = (text: string, tone: Tone = "plain") => {
    for (const l of wrapText(text, width)) out.push({ text: l, tone });
  };
  const started = d.events.find((e) => e.type === "run.started");
  const finished = d.events.find((e) => e.type === "run.finished");
  const day = summary?.trading_day ?? (started?.type === "run.started" ? started.trading_day : "");
  push(
    `Run ${sanitizeLine(d.run_id)}${day ? ` · trading day ${sanitizeLine(day)}` : ""}${summary ? ` · ${summary.mode} · started ${wallClock(sanitizeLine(summary.started_at))}` : started?.type === "run.started" ? ` · ${started.mode}` : ""}`,
    "accent",
  );
  if (finished?.type === "run.finished")
    push(`Outcome: ${finished.outcome} (exit ${finished.exit_code}): ${sanitizeLine(finished.message)}`, finished.exit_code === 0 ? "ok" : "error");
  else if (summary) push(`Outcome: ${summary.outcome ?? "unfinished"}`);
  if (summary?.decided_by) push(`Decided later by run ${sanitizeLine(summary.decided_by.run_id)}: ${sanitizeLine(summary.decided_by.decision)}`, "ok");

  const decision = decisionOf(d);
  push(
    decision
      ? `Decision: ${decisionText(decision.decision, decision.by)}${decision.orders ? ` · ${decision.orders} order(s)` : ""}${decision.reason ? ` · reason: ${sanitizeLine(decision.reason)}` : ""}${decision.orders_hash ? ` · orders ${decision.orders_hash.slice(0, 12)}` : ""}`
      : "Decision: none recorded",
  );
  const c = d.cost;
  const tokens = [
    c.input_tokens !== undefined ? `${count(c.input_tokens)} in` : "",
    c.cache_read_tokens !== undefined ? `${count(c.cache_read_tokens)} cache read` : "",
    c.cache_write_tokens !== undefined ? `${count(c.cache_write_tokens)} cache write` : "",
    c.output_tokens !== undefined ? `${count(c.output_tokens)} out` : "",
  ].filter(Boolean);
  push(`Cost: ${usd(c.total_usd)}${c.turns !== undefined ? ` · ${c.turns} turn(s)` : ""}${tokens.length ? ` · tokens: ${tokens.join(", ")}` : ""}`);

  out.push({ text: "", tone: "plain" });
  push(`Orders (${d.orders.length})`, "accent");
  if (d.orders.length === 0) push("  none", "dim");
  for (const o of d.orders) {
    push(
      `  ${padEnd(o.side, 5)}${padStart(quantity(o.quantity), 8)} ${padEnd(sanitizeLine(o.symbol), 8)} @ ${padStart(price(o.limit_price), 10)}  ${padEnd(sanitizeLine(o.status), 17)}${o.filled_quantity !== undefined ? ` filled ${quantity(o.filled_quantity)}${o.avg_price !== undefined ? ` @ ${price(o.avg_price)}` : ""}` : ""}  ${sanitizeLine(o.client_order_id)}`,
      o.status === "filled" ? "ok" : o.status === "rejected" || o.status === "uncertain" ? "error" : "plain",
    );
  }
  push(`Fills (${d.fills.length})`, "accent");
  if (d.fills.length === 0) push("  none", "dim");
  for (const f of d.fills)
    push(
      `  ${f.side} ${quantity(f.quantity)} ${sanitizeLine(f.symbol)} @ ${price(f.price)}${f.commission !== undefined ? ` · commission ${money(f.commission, currencyOf(d))}` : ""} · trading day ${sanitizeLine(day || "?")} · booked ${bookedAt(f.at)}`,
    );

  const proposal = d.events.find((e) => e.type === "proposal");
  if (proposal?.type === "proposal") {
    out.push({ text: "", tone: "plain" });
    push(`Proposal summary: ${sanitizeLine(proposal.summary)}`);
    out.push(...verdictLines("Gate verdicts on the proposal", proposal.decisions, currencyOf(d)));
  }
  const final = d.events.find((e) => e.type === "gate.final");
  if (final?.type === "gate.final") out.push(...verdictLines("Final gate", final.decisions, currencyOf(d)));

  out.push(...timelineLines(d, day, width));
  return out;
}

/** The run's events in order, one line each (the model's streamed text joined), under a heading. */
function timelineLines(d: JournalRunDetail, day: string, width: number): Line[] {
  const out: Line[] = [];
  const push = (text: string, tone: Tone = "plain") => {
    for (const l of wrapText(text, width)) out.push({ text: l, tone });
  };
  out.push({ text: "", tone: "plain" });
  push(`Timeline (${d.events.length} events) · trading day ${sanitizeLine(day || "?")} · times are UTC wall clock`, "accent");
  let text = "";
  const flushText = (at: string) => {
    const t = sanitizeText(text).trim();
    if (t) for (const l of wrapText(`${at}  model: ${t.replace(/\s*\n\s*/g, " ")}`, width)) out.push({ text: l, tone: "dim" });
    text = "";
  };
  let lastAt = "";
  for (const e of d.events) {
    const at = clock(e.at);
    if (e.type === "model.text") {
      text += e.delta;
      lastAt = at;
      continue;
    }
    flushText(lastAt);
    const s = describe(e, plainPaint, currencyOf(d));
    if (s === null) continue;
    sanitizeText(s)
      .split("\n")
      .forEach((l, i) => {
        push(`${i === 0 ? at : " ".repeat(at.length)}  ${l}`, eventTone(e));
      });
  }
  flushText(lastAt);
  return out;
}

/** A transcript entry's text with any JSON in it pretty-printed ("→ tool {…}", "← {…}", a bare document). */
function prettyEntry(text: string): string {
  // "→", "←" and "✗" written as escapes: the bundle stays ASCII (scripts/build.mjs), which is read faster.
  const m = /^(\u2192 \S+ |\u2190 |\u2717 )([[{][\s\S]*)$/.exec(text);
  if (m) return `${m[1]?.trimEnd()}\n${prettyText(m[2] ?? "")}`;
  return prettyText(text);
}

export function transcriptLines(entries: readonly TranscriptEntry[], width: number): Line[] {
  const out: Line[] = [];
  if (entries.length === 0) out.push({ text: "(no transcript recorded)", tone: "dim" });
  for (const m of entries) {
    const role = sanitizeLine(m.role);
    out.push({ text: `── ${role} ──`, tone: role === "assistant" ? "accent" : role === "user" ? "ok" : "dim" });
    for (const l of wrapIndented(sanitizeText(prettyEntry(m.text)), width)) out.push({ text: l, tone: "plain" });
    out.push({ text: "", tone: "plain" });
  }
  return out;
}
