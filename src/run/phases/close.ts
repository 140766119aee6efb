/**
 * Close: the broker session closes, the run's artifacts are completed (transcript, research-cycle
 * envelope, cassette), then the run is finished in the journal with its outcome and the SHA-256 of
 * each artifact. Never throws for a failed close step: each is reported as a note and the run
 * still ends with its outcome.
 */
import { existsSync, writeFileSync } from "node:fs";
import { CASSETTE_FORMAT } from "../../agent/cassette.js";
import { EXIT } from "../../core/exit-codes.js";
import { CONTRACT_VERSION } from "../../tools/catalogue.js";
import { packageVersion } from "../../util/paths.js";
import { ARTIFACT_FILES, type ArtifactPaths, type HeldArtifacts, OPTIONAL_ARTIFACT_FILES, putJsonArtifact, writeHeld, writeJsonAtomic } from "../artifacts.js";
import { artifactDigests, digestsOf } from "../audit-digests.js";
import { buildResearchCycle, type ResearchCycleFacts, validateResearchCycle } from "../research-cycle.js";
import { writeTradecatCycle } from "../tradecat-export.js";
import { faultPoint } from "../../util/test-fault.js";
import { type RunStart, type RunSummary, Stop } from "./context.js";

const MARKET_DATA =
  "daily bars: the bundled data (the S&P 500 index and synthetic instruments derived from it) and bars imported into the home (CSV or Alpaca's market data API)";

export async function closeRun(ctx: RunStart, stopped: Stop): Promise<RunSummary> {
  faultPoint("run.before_close");
  // A signal that came after the last phase still makes this an interrupted run (exit 130).
  const s =
    ctx.deps.signal.aborted && stopped.outcome !== "interrupted" ? new Stop("interrupted", EXIT.INTERRUPTED, `interrupted; ${stopped.message}`) : stopped;
  const { deps, runId, runDir } = ctx;
  const { tradingDay, started, couldTrade, agentResult } = ctx.progress;
  const { sink, journal } = deps;
  const now = ctx.now;
  // A proposal awaiting approval keeps its session open: `tradewarden approve` may decide it
  // until the session ends (on the simulated broker: until the next run opens the next day).
  if (tradingDay && deps.closeSession && s.outcome !== "awaiting_approval") {
    try {
      await deps.closeSession();
    } catch (e) {
      sink.emit({ type: "run.note", level: "warn", message: `could not close the broker session: ${(e as Error).message}` });
    }
  }
  sink.emit({ type: "run.finished", outcome: s.outcome, exit_code: s.exitCode, message: s.message, cost_usd: agentResult?.cost_usd ?? 0 });
  const summary = writeArtifacts(ctx, s);
  // The artifacts are complete: the event file is written out and closed, and the run is finished
  // in the journal with each artifact's SHA-256 (audit finds any later edit of any of them).
  sink.close();
  const digests = deps.held ? writeHeldRun(ctx) : null;
  if (started) {
    const status = s.outcome === "interrupted" ? "interrupted" : s.exitCode === EXIT.INTERNAL_ERROR ? "failed" : "completed";
    try {
      await journal.finishRun(runId, {
        status,
        outcome: s.outcome,
        exit_code: s.exitCode,
        message: s.message,
        at: now(),
        could_trade: couldTrade,
        artifacts: digests ?? artifactDigests(runDir),
      });
    } catch (e) {
      sink.emit({ type: "run.note", level: "warn", message: `could not close the run in the journal: ${(e as Error).message}` });
    }
  }
  return summary;
}

/** The transcript (when the agent wrote none), the research-cycle envelope, the TradeCat record and the cassette. */
function writeArtifacts(ctx: RunStart, s: Stop): RunSummary {
  const { deps, runId, paths, runDir, now } = ctx;
  const { tradingDay } = ctx.progress;
  const { sink } = deps;
  if (!ctx.progress.agentResult && !(deps.resume && existsSync(paths.transcript)))
    putJsonArtifact(deps.held, paths.transcript, { run_id: runId, system: null, messages: [] }, deps.journal.durable);
  const endpoint = deps.broker.endpoint();
  const facts: ResearchCycleFacts = {
    runId,
    mode: deps.mode,
    tradingDay: tradingDay || "0000-00-00",
    generatedAt: now().toISOString(),
    version: packageVersion(),
    model: { provider: deps.model.provider, id: deps.model.id },
    broker: { kind: endpoint.kind === "sim" ? "simulated" : "alpaca_paper", endpoint: endpoint.url },
    secretsRead: deps.secretsRead,
    marketData: MARKET_DATA,
  };
  if (deps.held) {
    // A simulated day: its envelopes are derived from these facts and its events when exported or audited.
    deps.held.setJson(OPTIONAL_ARTIFACT_FILES.envelopeFacts, facts);
    ensureCassette(paths, deps.model.id, now(), deps.held);
    return { runId, outcome: s.outcome, exitCode: s.exitCode, message: s.message, tradingDay, runDir };
  }
  const cycle = buildResearchCycle(sink.events, facts);
  const problems = validateResearchCycle(cycle);
  if (problems.length > 0) {
    writeJsonAtomic(`${paths.researchCycle}.invalid`, cycle, deps.journal.durable);
    return {
      runId,
      outcome: "error",
      exitCode: EXIT.INTERNAL_ERROR,
      message: `the research-cycle envelope failed validation: ${problems.join("; ")}`,
      tradingDay,
      runDir,
    };
  }
  writeJsonAtomic(paths.researchCycle, cycle, deps.journal.durable);
  const tradecat = writeTradecatCycle(runDir, cycle, sink.events);
  ensureCassette(paths, deps.model.id, now());
  if (tradecat.length > 0)
    return {
      runId,
      outcome: "error",
      exitCode: EXIT.INTERNAL_ERROR,
      message: `the TradeCat record failed its checks: ${tradecat.join("; ")}`,
      tradingDay,
      runDir,
    };
  return { runId, outcome: s.outcome, exitCode: s.exitCode, message: s.message, tradingDay, runDir };
}

/** A run that never called the model still gets a cassette: its meta line and no calls. */
function ensureCassette(paths: ArtifactPaths, modelId: string, at: Date, held?: HeldArtifacts): void {
  const meta = `${JSON.stringify({ type: "meta", format: CASSETTE_FORMAT, contract_version: CONTRACT_VERSION, model: modelId, created_at: at.toISOString() })}\n`;
  if (held) {
    if (!held.has(ARTIFACT_FILES.cassette)) held.set(ARTIFACT_FILES.cassette, meta);
  } else if (!existsSync(paths.cassette)) writeFileSync(paths.cassette, meta);
}

/** A run holding its artifacts: the events join them, all are written once (packed); their SHA-256s, from memory. */
function writeHeldRun(ctx: RunStart): Record<string, string> | null {
  const { held, sink } = ctx.deps;
  if (!held) return null;
  held.set(ARTIFACT_FILES.events, sink.events.map((e) => `${JSON.stringify(e)}\n`).join(""));
  try {
    writeHeld(ctx.runDir, held);
  } catch (e) {
    sink.emit({ type: "run.note", level: "warn", message: `could not write the run's artifacts: ${(e as Error).message}` });
  }
  return digestsOf(held.texts);
}
