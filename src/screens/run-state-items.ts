/**
 * The run reducer's building blocks: appending finished items in place, flushing the streamed
 * text, note and verdict bodies, and the shape of one event's handler.
 */
import type { GateDecision } from "../core/gate-types.js";
import type { RunEvent, RunEventType } from "../core/events.js";
import { sanitizeLine, sanitizeText } from "../util/sanitize.js";
import type { Tone } from "./theme.js";
import type { RunItem, RunState, VerdictRow } from "./run-state-types.js";

export type ItemBody = RunItem extends infer T ? (T extends RunItem ? Omit<T, "key"> : never) : never;

/** The event of one type. */
export type EventOf<K extends RunEventType> = Extract<RunEvent, { type: K }>;

/** The next state after one event of its type (the event's strings already sanitised). */
export type EventHandler<K extends RunEventType> = (s: RunState, e: EventOf<K>) => RunState;

/** One handler per event type. */
export type RunEventHandlers = { [K in RunEventType]: EventHandler<K> };

/** Append in place; `itemCount` moves only in the returned state. */
export function append(s: RunState, seq: number, ...bodies: ItemBody[]): RunState {
  let count = s.itemCount;
  // A state is only ever extended from its own end: if an older state is reduced again, truncate.
  if (s.items.length !== count) s.items.length = count;
  for (const b of bodies) {
    s.items.push({ ...b, key: `${seq}.${count}` } as RunItem);
    count++;
  }
  return { ...s, itemCount: count };
}

/** Move the streamed text of the turn, if any, into the finished items. */
export function flushLive(s: RunState, seq: number): RunState {
  if (!s.live) return s;
  const text = sanitizeText(s.live.text).replace(/\s+$/, "");
  const next: RunState = { ...s, live: null };
  return text.trim() ? append(next, seq, { kind: "text", turn: s.live.turn, text }) : next;
}

export function verdictRows(decisions: readonly GateDecision[]): VerdictRow[] {
  return decisions.map((d) => ({
    head: `${sanitizeLine(String(d.order.side)).toUpperCase()} ${d.order.quantity} ${sanitizeLine(String(d.order.symbol))} @ ${d.order.limit_price}`,
    approved: d.approved,
    notional: d.notional,
    reasons: d.reasons.map((r) => `${r.code}: ${sanitizeLine(r.message)}`),
  }));
}

export function note(tone: Tone, text: string, detail: string[] = []): ItemBody {
  return { kind: "note", tone, text, detail };
}
