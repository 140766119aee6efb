/**
 * Audit: the run's records agree record for record. Every tool result the model saw is in three
 * places — the transcript, the cassette's next request (what was sent to the model) and the
 * events (its SHA-256) — so an edit of any one of them (a `HTLX` turned into `HTLY`) is found and
 * named. Pure over file contents.
 */
import { createHash } from "node:crypto";
import type { RunEvent } from "../core/events.js";

type Add = (check: string, message: string) => void;

interface Block {
  type: string;
  tool_use_id?: string;
  content?: unknown;
}
interface Message {
  role: string;
  content: Block[] | string;
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const text = (c: unknown) => (typeof c === "string" ? c : JSON.stringify(c));

function toolResults(messages: readonly Message[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of messages)
    if (Array.isArray(m.content)) for (const b of m.content) if (b.type === "tool_result" && b.tool_use_id) out.set(b.tool_use_id, text(b.content));
  return out;
}

/** Where two texts first differ, for the finding. */
function firstDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  return `at character ${i}: …${a.slice(from, i + 20)}… vs …${b.slice(from, i + 20)}…`;
}

/** A recorded call as audit reads it (cassette-format's ParsedCall): its request in full and its line in the file. */
interface RecordedCall {
  line: number;
  request: { messages?: unknown };
}

export function checkAgreement(
  transcript: readonly Message[] | null,
  cassetteCalls: readonly RecordedCall[] | null,
  events: readonly RunEvent[],
  add: Add,
): void {
  const fromTranscript = transcript ? toolResults(transcript) : new Map<string, string>();
  // The cassette: each request carries every earlier tool result; all requests must agree on each.
  const fromCassette = new Map<string, { text: string; line: number }>();
  for (const call of cassetteCalls ?? []) {
    const messages = call.request.messages;
    if (!Array.isArray(messages)) continue; // reported by the cassette check
    for (const [id, t] of toolResults(messages as Message[])) {
      const seen = fromCassette.get(id);
      if (seen && seen.text !== t) add("agreement", `tool result ${id}: cassette lines ${seen.line} and ${call.line} disagree (${firstDiff(seen.text, t)})`);
      else if (!seen) fromCassette.set(id, { text: t, line: call.line });
    }
  }
  if (transcript) {
    for (const [id, c] of fromCassette) {
      const t = fromTranscript.get(id);
      if (t === undefined) add("agreement", `tool result ${id} was sent to the model (cassette line ${c.line}) but is missing from transcript.json`);
      else if (t !== c.text)
        add("agreement", `tool result ${id} in transcript.json differs from what the model was sent (cassette line ${c.line}), ${firstDiff(t, c.text)}`);
    }
  }
  for (const e of events) {
    if ((e.type !== "tool.result" && e.type !== "tool.rejected") || e.result_sha256 === undefined) continue;
    const t = fromTranscript.get(e.call_id);
    if (transcript && t === undefined) add("agreement", `events.jsonl records a result of ${e.tool} (${e.call_id}) that transcript.json does not have`);
    else if (t !== undefined && sha(t) !== e.result_sha256)
      add("agreement", `tool result ${e.call_id} (${e.tool}) in transcript.json is not the one events.jsonl recorded (its SHA-256 differs)`);
    const c = fromCassette.get(e.call_id);
    if (c && sha(c.text) !== e.result_sha256)
      add("agreement", `tool result ${e.call_id} (${e.tool}) in cassette.jsonl line ${c.line} is not the one events.jsonl recorded (its SHA-256 differs)`);
  }
}
