/**
 * Audit of a run's artifacts against every contract: the event stream's shape, the research-cycle
 * schema and its agreement with the events, the safety facts, the gate-and-operator invariant
 * (nothing reached the broker that the final gate and the operator did not approve), transcript
 * protocol, evidence grounding, the cassette's shape, and leaked secrets. Pure over file contents.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { LOG_FILE } from "../journal/types.js";
import { checkAgreement } from "./audit-agreement.js";
import { eventShapeIssues } from "./audit-events.js";
import { checkDigests } from "../run/audit-digests.js";
import { checkRecords, type TranscriptDoc } from "./audit-records.js";
import { checkSecrets, nestedRunFiles } from "./audit-secrets.js";
import { ARTIFACT_FILES, PACKED_FILE, readArtifact } from "../run/artifacts.js";
import { buildTradecatCycle } from "../run/tradecat.js";
import { TRADECAT_FILE } from "../run/tradecat-export.js";
import { tradecatProblems } from "../run/tradecat-rules.js";
import { type RunEvent, RUN_EVENT_TYPES } from "../core/events.js";
import { ordersHash } from "../run/approval.js";
import { orderKey } from "../core/order.js";
import { buildResearchCycle, validateResearchCycle } from "../run/research-cycle.js";
import { derivedResearchCycle, hasDerivedEnvelopes } from "../run/envelopes.js";
import { type CassetteRead, readCassette, requestKey } from "../agent/cassette.js";
import { maskerOfRun } from "../run/masking.js";

export interface AuditFinding {
  check: string;
  message: string;
}

/** Every other file of the run folder (anything written there besides the artifacts; the packed file is read through readArtifact). */
function otherRunFiles(runDir: string): { name: string; text: string }[] {
  const artifacts = new Set<string>([...Object.values(ARTIFACT_FILES), PACKED_FILE]);
  return readdirSync(runDir, { withFileTypes: true })
    .filter((d) => d.isFile() && !artifacts.has(d.name))
    .map((d) => ({ name: d.name, text: readFileSync(join(runDir, d.name), "utf8") }));
}

/** The home's journal (head and append-only log), when the run folder is in a home's runs/. */
function journalFiles(runDir: string): { name: string; text: string }[] {
  const home = dirname(dirname(resolve(runDir)));
  if (basename(dirname(resolve(runDir))) !== "runs") return [];
  // Only files: a journal file that is something else (a folder) is the digests check's finding.
  return ["journal.json", LOG_FILE]
    .map((f) => join(home, f))
    .filter((p) => existsSync(p) && statSync(p).isFile())
    .map((p) => ({ name: p, text: readFileSync(p, "utf8") }));
}

type Add = (check: string, message: string) => void;
type ArtifactTexts = Partial<Record<keyof typeof ARTIFACT_FILES, string>>;

/** Each artifact's text (read from the packed file where the run's folder was packed); a missing one is a finding. */
function readTexts(runDir: string, add: Add): ArtifactTexts {
  const texts: ArtifactTexts = {};
  for (const [key, file] of Object.entries(ARTIFACT_FILES)) {
    let text: string | null = null;
    let unreadable = false;
    try {
      text = readArtifact(runDir, key as keyof typeof ARTIFACT_FILES);
    } catch (e) {
      // Named as the artifact it failed to give (the reason names the file read: its own, or the packed one).
      add("files", `${file} cannot be read: ${(e as Error).message}`);
      unreadable = true;
    }
    if (text === null && key === "researchCycle") text = derivedCycleText(runDir, add);
    if (text !== null) texts[key as keyof typeof ARTIFACT_FILES] = text;
    else if (!unreadable) add("files", `${file} is missing`);
  }
  return texts;
}

/** A simulated day's envelope, derived from the facts it kept and its events (checked like a written one); null when it kept none. */
function derivedCycleText(runDir: string, add: Add): string | null {
  try {
    const cycle = derivedResearchCycle(runDir);
    return cycle === null ? null : JSON.stringify(cycle);
  } catch (e) {
    add("research-cycle", `the envelope cannot be derived: ${(e as Error).message}`);
    return "";
  }
}

/** The event stream: one JSON event a line, known types, seq 1, 2, …, one run id, ending with run.finished. */
function checkEvents(text: string, add: Add): RunEvent[] {
  const events: RunEvent[] = [];
  const lineOf: number[] = [];
  const lines = text.split("\n").filter((l) => l.length > 0);
  lines.forEach((line, i) => {
    try {
      events.push(JSON.parse(line) as RunEvent);
      lineOf.push(i + 1);
    } catch {
      add("events", `events.jsonl line ${i + 1} is not JSON`);
    }
  });
  const known = new Set<string>(RUN_EVENT_TYPES);
  events.forEach((e, i) => {
    if (!known.has(e.type)) add("events", `event ${i + 1} has unknown type "${e.type}"`);
    if (e.seq !== i + 1) add("events", `event ${i + 1} has seq ${e.seq} (expected ${i + 1})`);
    const issues = eventShapeIssues(e.type, e);
    if (issues.length > 0) add("events", `events.jsonl line ${lineOf[i]} is not a valid ${e.type} event: ${issues.slice(0, 3).join("; ")}`);
  });
  const runIds = new Set(events.map((e) => e.run_id));
  if (runIds.size > 1) add("events", `events name several run ids: ${[...runIds].join(", ")}`);
  if (events.length > 0 && events.at(-1)?.type !== "run.finished") add("events", "the last event is not run.finished");
  checkGateAndOperator(events, add);
  for (const e of events) if (e.type === "mask.leak") add("masking", `the model's ${e.where} on turn ${e.turn} names a real ${e.kind}: ${e.found}`);
  return events;
}

/** The envelope rebuilt from the events, with the facts the written one states. */
function rebuiltCycle(doc: Record<string, unknown>, events: RunEvent[]): Record<string, unknown> {
  const safety = doc.safety as Record<string, unknown> | undefined;
  const model = doc.model as Record<string, unknown> | undefined;
  const provenance = doc.provenance as Record<string, unknown> | undefined;
  return buildResearchCycle(events, {
    runId: String(doc.run_id),
    mode: doc.mode === "observe_only" ? "observe" : doc.mode === "watch" ? "watch" : "paper",
    tradingDay: String(doc.trading_day),
    generatedAt: String(doc.generated_at),
    version: String(provenance?.tradewarden_version ?? ""),
    model: { provider: String(model?.provider ?? ""), id: String(model?.id ?? "") },
    broker: { kind: safety?.broker_endpoint_kind as "simulated" | "alpaca_paper", endpoint: String(safety?.broker_endpoint ?? "") },
    secretsRead: (safety?.secrets_read as string[] | undefined) ?? [],
    marketData: String(provenance?.market_data ?? ""),
  });
}

/** The research-cycle envelope: its schema, its agreement with the events, and no live endpoint. */
function checkResearchCycle(text: string, events: RunEvent[], add: Add): void {
  let doc: Record<string, unknown> | null = null;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch {
    add("research-cycle", "research-cycle.json is not JSON");
  }
  if (!doc) return;
  for (const p of validateResearchCycle(doc)) add("research-cycle", `schema: ${p}`);
  if (events.length > 0) {
    const started = events.find((e) => e.type === "run.started");
    const rebuilt = rebuiltCycle(doc, events);
    for (const key of [
      "ok",
      "outcome",
      "exit_code",
      "tool_calls",
      "proposal",
      "verdicts",
      "operator_decision",
      "executed",
      "research",
      "masking",
      "next_action",
    ]) {
      if (JSON.stringify(rebuilt[key]) !== JSON.stringify(doc[key])) add("research-cycle", `"${key}" does not match what events.jsonl records`);
    }
    if (started && started.type === "run.started" && started.run_id !== doc.run_id) add("research-cycle", "run_id differs from the events");
  }
  const endpoint = String((doc.safety as Record<string, unknown> | undefined)?.broker_endpoint ?? "");
  if (/^https?:\/\/api\.alpaca\.markets/i.test(endpoint)) add("safety", `broker endpoint ${endpoint} is a live endpoint`);
}

/** The transcript's protocol and grounding (and masking); its messages and document for the cross-checks. */
function checkTranscriptText(text: string, events: RunEvent[], add: Add): { messages: Parameters<typeof checkAgreement>[0]; doc: TranscriptDoc | null } {
  try {
    const transcript = JSON.parse(text) as { system?: unknown; messages?: unknown[] } | unknown[];
    const list = (Array.isArray(transcript) ? transcript : (transcript.messages ?? [])) as {
      role: string;
      content: { type: string; id?: string; tool_use_id?: string; content?: string; name?: string; input?: unknown }[];
    }[];
    checkTranscript(list, events, add);
    checkMaskedTranscript(transcript, events, add);
    return { messages: list, doc: Array.isArray(transcript) ? { legacy: true, messages: list } : { system: transcript.system, messages: list } };
  } catch {
    add("transcript", "transcript.json is not JSON");
    return { messages: null, doc: null };
  }
}

export function auditRunDir(runDir: string, env: NodeJS.ProcessEnv = process.env): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const add = (check: string, message: string) => findings.push({ check, message });
  const texts = readTexts(runDir, add);

  // Secrets: every file of the run and the home's journal, for key patterns and for the values of
  // this environment's secrets in every form a server may echo them.
  const artifactTexts = Object.entries(texts).map(([key, text]) => ({ name: ARTIFACT_FILES[key as keyof typeof ARTIFACT_FILES], text }));
  const scanned = [...artifactTexts, ...otherRunFiles(runDir), ...nestedRunFiles(runDir), ...journalFiles(runDir)];
  checkSecrets(scanned, texts.events, env, add);

  const events = texts.events === undefined ? [] : checkEvents(texts.events, add);
  if (texts.researchCycle !== undefined) checkResearchCycle(texts.researchCycle, events, add);
  // Transcript protocol and grounding.
  const transcript = texts.transcript === undefined ? { messages: null, doc: null } : checkTranscriptText(texts.transcript, events, add);
  // The transcript, the cassette and the events agree on every tool result the model saw.
  const cassette = texts.cassette === undefined ? null : readCassette(texts.cassette);
  checkAgreement(transcript.messages, cassette?.calls ?? null, events, add);
  checkRecords(transcript.doc, cassette?.calls ?? null, events, add);
  if (cassette) checkCassette(cassette, add);
  // Every artifact is what the run wrote at close (the SHA-256s in its journal record).
  checkDigests(runDir, add);
  auditTradecat(runDir, events, add);
  return findings;
}

/**
 * The cassette (format 1 or 2) reads line by line, each tools line still holds the tools its id
 * names, and each call's key is the SHA-256 of its canonical request (tools resolved): a mismatch
 * means the call line, or the tools line it refers to, was edited. Lines are the file's own.
 */
export function checkCassette(read: CassetteRead, add: (c: string, m: string) => void): void {
  for (const p of read.problems) add("cassette", `cassette.jsonl ${p.message}`);
  for (const t of read.tools) {
    if (t.digest !== t.id) add("cassette", `cassette.jsonl line ${t.line}: the tool list does not match its id (the cassette was edited)`);
  }
  for (const c of read.calls) {
    if (c.key === requestKey(c.request)) continue;
    const where = c.toolsLine === undefined ? "" : ` (with the tools of line ${c.toolsLine})`;
    add("cassette", `cassette.jsonl line ${c.line}: the recorded request${where} does not match its key (the cassette was edited)`);
  }
}

/**
 * An order's identity (core/order.ts) as the audit's findings print it: SIDE:SYMBOL:QTY:LIMIT. The
 * records may have been edited (a key renamed, a string made a number): read as strings, never thrown on.
 */
function keyOf(o: { symbol: unknown; side: unknown; quantity: number; limit_price: number }): string {
  const [symbol, side, quantity, limit] = orderKey({
    symbol: String(o.symbol),
    side: String(o.side).toUpperCase(),
    quantity: o.quantity,
    limit_price: o.limit_price,
  });
  return `${side}:${symbol}:${quantity}:${limit}`;
}

/** Every non-liquidation order placed was approved by the final gate and the operator. */
function checkGateAndOperator(events: RunEvent[], add: (c: string, m: string) => void): void {
  const approvedByGate = new Set<string>();
  const liquidation = new Set<string>();
  /** Orders of standing orders that fired: approved by the operator earlier, bound by their hash. */
  const standing = new Set<string>();
  let halted = false;
  let operatorHash: string | null = null;
  let operatorOrders: { symbol: string; side: string; quantity: number; limit_price: number }[] = [];
  for (const e of events) {
    if (e.type === "approval.decided" && e.decision === "approved") {
      operatorHash = e.orders_hash;
      operatorOrders = e.orders;
      if (ordersHash(e.orders) !== e.orders_hash) add("approval", "the approval's hash does not match its orders");
    }
    if (e.type === "gate.final") {
      for (const d of e.decisions) if (d.approved) approvedByGate.add(keyOf(d.order));
    }
    if (e.type === "killswitch.tripped") {
      halted = true;
      for (const o of e.liquidation) liquidation.add(keyOf(o));
    }
    if (e.type === "valuation" && e.first_of_run && e.trading_state === "HALTED") halted = true;
    if (e.type === "standing.fired" && e.result === "placed") standing.add(keyOf(e.order));
    if (e.type === "order.placed") {
      const key = keyOf(e);
      if (liquidation.has(key)) continue;
      // A halted account's later runs sell what is still held: kill-switch sells (ids end in -L<i>).
      if (halted && e.side === "SELL" && /-L\d+$/.test(e.client_order_id)) continue;
      if (!approvedByGate.has(key)) add("gate", `order ${e.client_order_id} (${key}) was placed without a final-gate approval`);
      if (/-S\d+$/.test(e.client_order_id)) {
        if (!standing.has(key)) add("approval", `order ${e.client_order_id} (${key}) was placed as a standing order that did not fire in this run`);
        continue;
      }
      if (operatorHash === null || !operatorOrders.some((o) => keyOf(o) === key)) {
        add("approval", `order ${e.client_order_id} (${key}) was placed without an operator approval`);
      }
    }
  }
}

function checkTranscript(
  messages: { role: string; content: { type: string; id?: string; tool_use_id?: string; content?: string }[] }[],
  events: RunEvent[],
  add: (c: string, m: string) => void,
): void {
  const masker = maskerOfRun(events);
  const returnedText: string[] = [];
  messages.forEach((m, i) => {
    if (m.role !== "assistant") return;
    const uses = (m.content ?? []).filter((b) => b.type === "tool_use").map((b) => b.id);
    if (uses.length === 0) return;
    const next = messages[i + 1];
    if (!next) return; // the run ended on this turn (e.g. submit accepted)
    const results = (next.content ?? []).slice(0, uses.length);
    uses.forEach((id, j) => {
      const r = results[j];
      if (r?.type !== "tool_result" || r.tool_use_id !== id) add("transcript", `message ${i + 2} does not begin with the tool_result for ${id}`);
    });
    for (const r of next.content ?? []) if (r.type === "tool_result" && typeof r.content === "string") returnedText.push(r.content);
  });
  const all = returnedText.join("\n");
  for (const e of events) {
    if (e.type !== "proposal") continue;
    // A masked run's transcript shows the ids as the model saw them (masked).
    for (const o of e.orders)
      for (const id of o.evidence_ids ?? [])
        if (!all.includes(JSON.stringify(masker ? masker.maskText(id) : id)))
          add("grounding", `evidence id ${id} of ${o.symbol} was not returned by any tool in the transcript`);
  }
}

/** A masked run: nothing the model saw or wrote (system prompt, messages, tool results) names a real symbol, name or date. */
function checkMaskedTranscript(transcript: unknown, events: RunEvent[], add: (c: string, m: string) => void): void {
  const masker = maskerOfRun(events);
  if (!masker) return;
  const seen = new Set<string>();
  for (const leak of masker.leaks(JSON.stringify(transcript))) {
    const key = `${leak.kind}:${leak.found}`;
    if (seen.has(key)) continue;
    seen.add(key);
    add("masking", `transcript.json (what the model saw) contains a real ${leak.kind}: ${leak.found}`);
  }
}

/** The TradeCat record, when the run wrote one: TradeCat's checks pass and it is what the run's artifacts give. */
function auditTradecat(runDir: string, events: RunEvent[], add: (c: string, m: string) => void): void {
  let doc: unknown;
  let text: string | null;
  try {
    text = readArtifact(runDir, "tradecat");
  } catch {
    return; // an unreadable bundle: reported with the files
  }
  if (text === null) {
    // A simulated day derives its record (runs recorded before the export existed have neither).
    try {
      const cycle = hasDerivedEnvelopes(runDir) ? derivedResearchCycle(runDir, events) : null;
      if (cycle) for (const p of tradecatProblems(buildTradecatCycle(cycle, events))) add("tradecat", p);
    } catch {
      // a failed derivation is reported with the research-cycle envelope (readTexts)
    }
    return;
  }
  try {
    doc = JSON.parse(text);
  } catch {
    add("tradecat", `${TRADECAT_FILE} is not JSON`);
    return;
  }
  for (const p of tradecatProblems(doc)) add("tradecat", p);
  try {
    const cycle = JSON.parse(readArtifact(runDir, "researchCycle") ?? "") as Record<string, unknown>;
    if (JSON.stringify(buildTradecatCycle(cycle, events)) !== JSON.stringify(doc))
      add("tradecat", `${TRADECAT_FILE} does not match what research-cycle.json and events.jsonl record`);
  } catch {
    // research-cycle.json missing or not JSON: reported above
  }
}
