/**
 * Replay of a recorded run: the agent loop runs again with the current harness (prompt, tool
 * contracts, validation, dispatch, compaction) against the recorded model traffic, with every tool
 * that reached its handler answered from the run's recorded results. Any difference in what the
 * harness would send the model fails closed, naming the first difference; so do recorded calls
 * left over or missing. Nothing touches the journal or the broker.
 */
import { join } from "node:path";
import type { AgentOutcome, RunEvent } from "../core/events.js";
import { runAgent } from "../agent/loop.js";
import { CassetteError, ReplayClient, canonicalRequest, firstDifference, type ParsedCassette, parseCassette } from "../agent/cassette.js";
import type { CallHooks, Message, ModelClient, ModelRequest, ModelResponse } from "../agent/types.js";
import { agentLimitsFrom } from "../agent/factory.js";
import { loadPriceTable, type PricedProvider, resolvePrice } from "../agent/pricing.js";
import { buildToolRuntime } from "../tools/runtime.js";
import { contractSet, isContractVersion } from "../tools/versions.js";
import { isToolErrorCode } from "../core/tool-error-codes.js";
import type { HandlerResult, ToolHandler } from "../tools/types.js";
import type { Config } from "../config/types.js";
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import { ARTIFACT_FILES, readArtifact } from "../run/artifacts.js";
import { maskerOfRun } from "../run/masking.js";
import type { Masker } from "../research/masking.js";
import { mentionsOf } from "../research/mentions.js";
import { evidenceIdsOf } from "../tools/grounding.js";
import type { Instrument } from "../core/domain.js";

export interface ReplayReport {
  runId: string;
  contractVersion: string;
  calls: number;
  outcome: AgentOutcome;
  recordedOutcome: AgentOutcome | null;
  events: number;
}

interface Transcript {
  run_id: string;
  system: string | null;
  messages: Message[];
}

/** Recorded handler results per tool, in call order (only calls that reached their handler). */
function recordedResults(events: RunEvent[], messages: Message[]): Map<string, string[]> {
  const text = new Map<string, string>();
  for (const m of messages) {
    for (const b of m.content) if (b.type === "tool_result") text.set(String(b.tool_use_id), String(b.content));
  }
  const byTool = new Map<string, string[]>();
  for (const e of events) {
    if (e.type !== "tool.result") continue;
    const t = text.get(e.call_id);
    if (t === undefined) throw new TwError("replay_incomplete", `the transcript has no result for call ${e.call_id} (${e.tool})`, EXIT.INTERNAL_ERROR);
    const list = byTool.get(e.tool) ?? [];
    list.push(t);
    byTool.set(e.tool, list);
  }
  return byTool;
}

function handlerFromRecording(tool: string, queue: string[], masker: Masker | null): ToolHandler {
  return (): HandlerResult => {
    const next = queue.shift();
    if (next === undefined) throw new TwError("cassette_exhausted", `the replay asked ${tool} for more results than the run recorded`, EXIT.INTERNAL_ERROR);
    // A masked run recorded what the model saw: unmask it, so the runtime's masking shows it again unchanged.
    const parsed = JSON.parse(next) as Record<string, unknown>;
    const env = masker ? masker.unmask(parsed) : parsed;
    if (env.success === true) {
      const { success: _s, ...data } = env;
      return { ok: true, data, evidenceIds: evidenceIdsOf(data) };
    }
    const code = String(env.error_code);
    const correction = (env.correction ?? {}) as Record<string, unknown>;
    return {
      ok: false,
      code: isToolErrorCode(code) ? code : "tool_execution_failed",
      message: String(env.error ?? ""),
      ...(typeof correction.instruction === "string" ? { instruction: correction.instruction } : {}),
    };
  };
}

/**
 * The replay client checks each request against the recorded call's key only, and the key was
 * computed when the call was recorded: an edit of the recorded request itself would go unnoticed.
 * This wrapper compares every request the harness sends with the recorded request too, so a
 * cassette edited after the run fails closed, naming the first differing path.
 */
class VerifyingReplayClient implements ModelClient {
  readonly model: string;
  private index = 0;

  constructor(
    private readonly inner: ReplayClient,
    private readonly recorded: readonly unknown[],
  ) {
    this.model = inner.model;
  }

  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    const i = this.index++;
    if (i < this.recorded.length) {
      const now = canonicalRequest(req);
      const path = firstDifference(this.recorded[i], now);
      if (path) {
        throw new CassetteError(
          "cassette_mismatch",
          `request ${i + 1} differs from the recorded request at ${path}: recorded ${preview(valueAt(this.recorded[i], path))}, now ${preview(valueAt(now, path))}`,
          { index: i, path },
        );
      }
    }
    return this.inner.complete(req, hooks);
  }
}

function valueAt(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const p of path.replace(/^\$/, "").match(/\.[^.[]+|\[\d+\]/g) ?? []) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = p.startsWith("[") ? (cur as unknown[])[Number(p.slice(1, -1))] : (cur as Record<string, unknown>)[p.slice(1)];
  }
  return cur;
}

function preview(v: unknown): string {
  const s = v === undefined ? "(absent)" : JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** The recorded requests, in call order, in full (tools resolved, whatever the cassette's format). */
function recordedRequests(cassette: ParsedCassette): unknown[] {
  return cassette.calls.map((c) => c.request);
}

function parseArtifact<T>(path: string, text: string, line?: number): T {
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new TwError("replay_incomplete", `${path}${line ? ` line ${line}` : ""} is not valid JSON: ${(e as Error).message}`, EXIT.USAGE_OR_CONFIG);
  }
}

/** A run artifact's text (plain or packed); a missing or unreadable one refuses naming the folder and the file. */
function artifactText(runDir: string, key: "events" | "transcript" | "cassette"): string {
  const path = join(runDir, ARTIFACT_FILES[key]);
  let t: string | null;
  try {
    t = readArtifact(runDir, key);
  } catch (e) {
    throw new TwError("replay_incomplete", `${runDir} is not a complete run folder: ${(e as Error).message}`, EXIT.USAGE_OR_CONFIG);
  }
  if (t === null) throw new TwError("replay_incomplete", `${runDir} is not a complete run folder: ${path} is missing`, EXIT.USAGE_OR_CONFIG);
  return t;
}

type RunStarted = Extract<RunEvent, { type: "run.started" }>;

/** The run's events and transcript, and its start; refused when the run never called the model. */
function readRecordedRun(runDir: string): { events: RunEvent[]; transcript: Transcript & { system: string }; started: RunStarted } {
  const eventsPath = join(runDir, ARTIFACT_FILES.events);
  const events = artifactText(runDir, "events")
    .split("\n")
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l.length > 0)
    .map(([l, n]) => parseArtifact<RunEvent>(eventsPath, l, n));
  const transcript = parseArtifact<Transcript>(join(runDir, ARTIFACT_FILES.transcript), artifactText(runDir, "transcript"));
  const started = events.find((e) => e.type === "run.started");
  if (started?.type !== "run.started") throw new TwError("replay_incomplete", "the run has no run.started event", EXIT.USAGE_OR_CONFIG);
  const resumedFrom = (transcript as { resumed_from?: unknown }).resumed_from;
  if (typeof resumedFrom === "string") {
    throw new TwError(
      "replay_nothing",
      `run ${started.run_id} decided the proposal of run ${resumedFrom} (tradewarden approve) and never called the model: replay run ${resumedFrom}`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  if (!transcript.system || transcript.messages.length === 0) {
    throw new TwError("replay_nothing", `run ${started.run_id} never called the model: there is nothing to replay`, EXIT.USAGE_OR_CONFIG);
  }
  return { events, transcript: { ...transcript, system: transcript.system }, started };
}

/** The agent's events until it finishes, each handed to `onEvent`; the report of the replay. */
async function driveReplay(
  gen: ReturnType<typeof runAgent>,
  recorded: { recording: ReplayClient; events: readonly RunEvent[]; started: RunStarted; version: string },
  onEvent?: (e: unknown) => void,
): Promise<ReplayReport> {
  let count = 0;
  let calls = 0;
  for (;;) {
    const step = await gen.next();
    if (step.done) {
      recorded.recording.assertConsumed();
      const finished = recorded.events.find((e) => e.type === "agent.finished");
      return {
        runId: recorded.started.run_id,
        contractVersion: recorded.version,
        calls,
        outcome: step.value.outcome,
        recordedOutcome: finished && finished.type === "agent.finished" ? finished.outcome : null,
        events: count,
      };
    }
    count++;
    if (step.value.type === "model.response") calls++;
    onEvent?.(step.value);
  }
}

export async function replayRun(
  runDir: string,
  config: Config,
  onEvent?: (e: unknown) => void,
  opts: { requireMask?: boolean; universe?: readonly Instrument[] } = {},
): Promise<ReplayReport> {
  const { events, transcript, started } = readRecordedRun(runDir);
  const cassette = parseCassette(artifactText(runDir, "cassette"));
  const recording = new ReplayClient(cassette);
  // Serve the tool contracts the run was recorded with (descriptions, schemas, serialisation).
  const version = recording.meta.contract_version;
  if (!isContractVersion(version)) {
    throw new TwError("cassette_mismatch", `the cassette was recorded with tool contract ${version}, which this build cannot serve`, EXIT.INTERNAL_ERROR);
  }
  const client = new VerifyingReplayClient(recording, recordedRequests(cassette));
  const masker = maskerOfRun(events);
  if (opts.requireMask && !masker) {
    throw new TwError(
      "replay_not_masked",
      `run ${started.run_id} was recorded without masking; a masked replay would send different requests (replay it without --mask)`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  const results = recordedResults(events, transcript.messages);
  const handlers: Record<string, ToolHandler> = {};
  for (const t of contractSet(version).contracts) handlers[t.name] = handlerFromRecording(t.name, results.get(t.name) ?? [], masker);
  const runtime = buildToolRuntime(handlers, {
    runId: started.run_id,
    tradingDay: started.trading_day,
    contractVersion: version,
    // The tools the run offered (absent in older cassettes: every tool of the version).
    ...(recording.meta.tools ? { offered: recording.meta.tools } : {}),
    subjectsOf: mentionsOf(opts.universe ?? []),
    ...(masker ? { masking: masker.toolMasking() } : {}),
  });
  const first = transcript.messages[0];
  const task = first?.content.find((b) => b.type === "text");
  if (task?.type !== "text") throw new TwError("replay_incomplete", "the transcript does not begin with the task message", EXIT.USAGE_OR_CONFIG);
  // Priced as the run was: the config's [model.price] when it prices this model, else the table.
  const provider = (["anthropic", "openai"].includes(started.model.provider) ? started.model.provider : "scripted") as PricedProvider;
  const price = resolvePrice(provider, started.model.id, started.model.id === config.model.id ? config.model.price : null, loadPriceTable());
  const gen = runAgent({
    client,
    runtime,
    system: transcript.system,
    task: String(task.text),
    limits: { ...agentLimitsFrom(config.model, 0), monthlyBudgetLeftUsd: Number.POSITIVE_INFINITY },
    price,
  });
  return driveReplay(gen, { recording, events, started, version }, onEvent);
}
