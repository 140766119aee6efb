/**
 * The evidence items themselves: every object a tool returned with an `evidence_id` in this run's
 * transcript, by id, so the operator can read what an order cites (not just its ids), with each
 * dated item's age in trading days. Pure.
 */
import { type EvidenceAge, evidenceAges, type SessionCalendar } from "../core/evidence-age.js";
import type { HandlerResult, ToolHandler } from "../tools/types.js";

interface Block {
  type?: unknown;
  content?: unknown;
}

function collect(v: unknown, out: Map<string, unknown>, depth: number): void {
  if (depth > 8 || v === null || typeof v !== "object") return;
  if (Array.isArray(v)) {
    for (const x of v) collect(x, out, depth + 1);
    return;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.evidence_id === "string" && !out.has(o.evidence_id)) out.set(o.evidence_id, o);
  for (const x of Object.values(o)) collect(x, out, depth + 1);
}

/**
 * The run's handlers, each success's evidence items recorded into `items` (id → item, first wins):
 * what check_orders dates the cited evidence by. A synchronous handler stays synchronous.
 */
export function recordingEvidence(handlers: Record<string, ToolHandler>, items: Map<string, unknown>): Record<string, ToolHandler> {
  const record = (r: HandlerResult): HandlerResult => {
    if (r.ok) collect(r.data, items, 0);
    return r;
  };
  const out: Record<string, ToolHandler> = {};
  for (const [name, h] of Object.entries(handlers)) {
    out[name] = (args, ctx) => {
      const r = h(args, ctx);
      return r instanceof Promise ? r.then(record) : record(r);
    };
  }
  return out;
}

/** Every item's age on the run's trading day (items without a date are left out), by id. */
export function agesById(
  items: Readonly<Record<string, unknown>>,
  calendar: SessionCalendar,
  tradingDay: string,
  staleAfter: number,
): Record<string, EvidenceAge> {
  return Object.fromEntries(evidenceAges(Object.keys(items), items, calendar, tradingDay, staleAfter).map((a) => [a.evidence_id, a]));
}

/** Evidence id → the item that carried it, from the transcript's tool results (first wins). */
export function evidenceFromTranscript(messages: ReadonlyArray<{ content?: unknown }>): Record<string, unknown> {
  const out = new Map<string, unknown>();
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Block[]) {
      if (b?.type !== "tool_result") continue;
      const raw = Array.isArray(b.content)
        ? (b.content as Array<{ text?: unknown }>).map((c) => (typeof c.text === "string" ? c.text : "")).join("")
        : b.content;
      if (typeof raw !== "string") continue;
      try {
        collect(JSON.parse(raw), out, 0);
      } catch {
        // a non-JSON tool result carries no evidence items
      }
    }
  }
  return Object.fromEntries(out);
}
