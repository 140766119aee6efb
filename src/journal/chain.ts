/**
 * The event log's hash chain and its parser. Every line the log holds is folded into a rolling
 * hash: h₀ = 64 zeros, hᵢ = sha256(hᵢ₋₁ ‖ "\n" ‖ lineᵢ) over the line's exact bytes. Each event
 * written since the chain was introduced carries `prev` = hᵢ₋₁, and the head carries `last_hash`
 * = hₙ of its committed lines, so an edit of any byte of any line (a price, a symbol, an
 * approval's `by`, a usage count, a note), a removed, inserted or reordered line breaks the chain
 * at the next chained line or at the head.
 *
 * Upgrade path: a log written before the chain (no `prev` on any line, no `last_hash` in the head)
 * still opens, verifies and audits; its lines are folded into the rolling hash all the same, so
 * the first chained event appended to it commits to the whole older prefix. From the first
 * chained line on, every later line must carry `prev`. Older readers ignore both fields.
 */
import type { JournalEvent } from "./types.js";
import { lifecycleIssue } from "./lifecycle-check.js";
import { assertEvent } from "./validate.js";
import { sha256Hex } from "../util/sha256.js";
import { withProps } from "../util/with-props.js";

export const CHAIN_ORIGIN = "0".repeat(64);

function chainNext(prev: string, line: string): string {
  // One text, the same bytes as prev, "\n" and the line hashed one after another (prev is hex: no character pairs across the joins).
  return sha256Hex(`${prev}\n${line}`);
}

/** Serialises events (already numbered) onto the chain ending in `prev`: each gets `prev`, and the text is whole lines. */
export function chainEvents(events: JournalEvent[], prev: string): { events: JournalEvent[]; text: string; hash: string } {
  let hash = prev;
  let text = "";
  const out: JournalEvent[] = [];
  for (const e of events) {
    const ev: JournalEvent = withProps(e, { prev: hash });
    const line = JSON.stringify(ev);
    hash = chainNext(hash, line);
    text += `${line}\n`;
    out.push(ev);
  }
  return { events: out, text, hash };
}

export interface ParsedLog {
  events: JournalEvent[];
  /** The rolling hash after the last line read. */
  hash: string;
  /** The first break of the chain (the line named), or null. */
  chainIssue: string | null;
  /** Bytes past the head's commit mark (a write a crash cut off before its commit); cut on the next append. */
  uncommittedBytes?: number;
}

/** Why line `n` (1-based) breaks the chain, or null; `chained` is whether an earlier line carried `prev`. */
function linkIssue(n: number, ev: Record<string, unknown>, expected: string, chained: boolean): string | null {
  if (ev.prev === undefined) return chained ? `event log line ${n} has no chain hash although the lines before it do: a line was edited or inserted` : null;
  if (ev.prev !== expected)
    return `event log line ${n} does not follow from the lines before it (chain hash mismatch): a line at or before ${n} was edited, removed or reordered`;
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * Parses whole lines (each ending in "\n") into events: JSON, in sequence from `firstSeq`, valid
 * by its schema and every order status change a legal step of the order lifecycle (else
 * `fail(why)`, which throws), and on the chain (the first break is returned,
 * not thrown, so a read-only open can still show the books and `journal verify` report it).
 */
export function parseLines(lines: string[], fail: (why: string) => never, firstSeq = 1, start = CHAIN_ORIGIN): ParsedLog {
  const events: JournalEvent[] = [];
  let hash = start;
  let chained = false;
  let chainIssue: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const n = firstSeq + i;
    let ev: unknown;
    try {
      ev = JSON.parse(line);
    } catch {
      fail(`event log line ${n} is not valid JSON`);
    }
    if (!isObject(ev) || ev.seq !== n) fail(`event log line ${n} is out of sequence`);
    assertEvent(n, ev, fail);
    chainIssue ??= linkIssue(n, ev, hash, chained);
    if (ev.prev !== undefined) chained = true;
    hash = chainNext(hash, line);
    events.push(ev);
  }
  const illegal = lifecycleIssue(events);
  if (illegal) fail(illegal);
  return { events, hash, chainIssue };
}

export interface SalvagedLog extends ParsedLog {
  /** Bytes of the whole lines kept. */
  bytes: number;
  /** A torn last line dropped (a write cut short by a crash or a full disk), or null. */
  dropped: { line: number; bytes: number } | null;
}

/**
 * The log read with no head to say how much of it is committed (the head is missing): every whole
 * line is kept; a last line without its newline, or a last line that is not JSON (a write cut
 * short), is dropped and reported. Anything else wrong is refused by `fail`.
 */
export function salvageLog(buf: Buffer, fail: (why: string) => never): SalvagedLog {
  const text = buf.toString("utf8");
  const end = text.lastIndexOf("\n") + 1;
  let kept = text.slice(0, end);
  let dropped: SalvagedLog["dropped"] = null;
  const lines = kept.length === 0 ? [] : kept.slice(0, -1).split("\n");
  if (end < text.length) dropped = { line: lines.length + 1, bytes: Buffer.byteLength(text.slice(end)) };
  else if (lines.length > 0 && !isJson(lines.at(-1) as string)) {
    const last = lines.pop() as string;
    dropped = { line: lines.length + 1, bytes: Buffer.byteLength(last) + 1 };
    kept = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
  }
  return { ...parseLines(lines, fail), bytes: Buffer.byteLength(kept), dropped };
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
