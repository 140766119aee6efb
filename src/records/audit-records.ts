/**
 * Audit: what the model was sent and what it answered agree across the run's records, so an edit
 * of one record is found even without the digests recorded at close (runs recorded before them):
 *
 * - every request in the cassette holds the transcript's system prompt and the transcript's
 *   messages from the first (the task) on, message for message;
 * - every tool call the model made is the same (name and input) in the cassette's response, in the
 *   transcript, in the next request sent, and in events.jsonl's `tool.called`.
 *
 * Compared in canonical JSON (keys sorted, credentials redacted, as the cassette stores requests).
 * Pure over parsed contents.
 */
import { redact } from "../agent/cassette-format.js";
import { canonicalJson } from "../util/canonical-json.js";
import type { RunEvent } from "../core/events.js";

type Add = (check: string, message: string) => void;

interface Block {
  type?: unknown;
  id?: unknown;
  name?: unknown;
  input?: unknown;
}
interface Message {
  role?: unknown;
  content?: unknown;
}
/** A recorded call as audit reads it (cassette-format's ParsedCall). */
interface RecordedCall {
  line: number;
  request: { system?: unknown; messages?: unknown };
  response?: { content?: unknown };
}
/** The transcript as written: `{ system, messages }` (older runs: the messages alone). */
export interface TranscriptDoc {
  /** The older form (a list of messages, no system prompt). */
  legacy?: boolean;
  system?: unknown;
  messages: readonly Message[];
}

const canon = (v: unknown) => canonicalJson(redact(v));

/** Where two texts first differ, for the finding. */
function firstDiff(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  return `at character ${i}: …${a.slice(from, i + 20)}… vs …${b.slice(from, i + 20)}…`;
}

const blocksOf = (content: unknown): Block[] => (Array.isArray(content) ? (content as Block[]).filter((b) => b !== null && typeof b === "object") : []);

function toolUses(content: unknown): Map<string, string> {
  const out = new Map<string, string>();
  for (const b of blocksOf(content)) if (b.type === "tool_use" && typeof b.id === "string") out.set(b.id, canon({ name: b.name, input: b.input }));
  return out;
}

/** The transcript's messages and system prompt are in every request of the cassette. */
function checkRequests(transcript: TranscriptDoc, calls: readonly RecordedCall[], add: Add): void {
  const shown = transcript.messages.map((m) => canon(m));
  const system = transcript.system === undefined || transcript.system === null ? null : canon(transcript.system);
  for (const call of calls) {
    if (!transcript.legacy && transcript.system === undefined && call.request.system !== undefined) {
      add("agreement", `transcript.json has no system prompt, yet one was sent to the model (cassette line ${call.line})`);
    }
    if (system !== null && call.request.system !== undefined) {
      const sent = canon(call.request.system);
      if (sent !== system)
        add("agreement", `transcript.json's system prompt is not the one sent to the model (cassette line ${call.line}), ${firstDiff(system, sent)}`);
    }
    const messages = call.request.messages;
    if (!Array.isArray(messages)) continue; // reported by the cassette check
    messages.forEach((m, i) => {
      const t = shown[i];
      const sent = canon(m);
      const what = i === 0 ? "the task (message 1)" : `message ${i + 1}`;
      if (t === undefined) add("agreement", `${what} was sent to the model (cassette line ${call.line}) but is missing from transcript.json`);
      else if (t !== sent) add("agreement", `${what} in transcript.json is not the one sent to the model (cassette line ${call.line}), ${firstDiff(t, sent)}`);
    });
  }
}

/** Each tool call (name and input) is the same in every record that holds it. */
function checkToolUses(transcript: TranscriptDoc | null, calls: readonly RecordedCall[], events: readonly RunEvent[], add: Add): void {
  const fromTranscript = new Map<string, string>();
  for (const m of transcript?.messages ?? []) if (m.role === "assistant") for (const [id, u] of toolUses(m.content)) fromTranscript.set(id, u);
  const records: { where: string; uses: Map<string, string> }[] = [];
  for (const call of calls) {
    records.push({ where: `the response of cassette line ${call.line}`, uses: toolUses(call.response?.content) });
    const sent = Array.isArray(call.request.messages) ? (call.request.messages as Message[]) : [];
    const uses = new Map<string, string>();
    for (const m of sent) if (m?.role === "assistant") for (const [id, u] of toolUses(m.content)) uses.set(id, u);
    records.push({ where: `the request of cassette line ${call.line}`, uses });
  }
  const called = new Map<string, string>();
  for (const e of events) if (e.type === "tool.called") called.set(e.call_id, canon({ name: e.tool, input: e.arguments }));
  records.push({ where: "events.jsonl (tool.called)", uses: called });
  // The transcript is the reference when there is one; otherwise the first record of each call.
  const reference = new Map<string, { use: string; where: string }>();
  for (const [id, use] of fromTranscript) reference.set(id, { use, where: "transcript.json" });
  for (const r of records) {
    for (const [id, use] of r.uses) {
      const ref = reference.get(id);
      if (!ref) {
        if (transcript && r.where !== "events.jsonl (tool.called)") add("agreement", `tool call ${id} is in ${r.where} but not in transcript.json`);
        reference.set(id, { use, where: r.where });
      } else if (ref.use !== use) add("agreement", `tool call ${id} in ${r.where} differs from ${ref.where}, ${firstDiff(use, ref.use)}`);
    }
  }
}

export function checkRecords(transcript: TranscriptDoc | null, calls: readonly RecordedCall[] | null, events: readonly RunEvent[], add: Add): void {
  if (transcript && calls) checkRequests(transcript, calls, add);
  checkToolUses(transcript, calls ?? [], events, add);
}
