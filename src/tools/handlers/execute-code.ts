/**
 * The `execute_code` handler: builds the run's point-in-time data once (every allowlisted
 * instrument's bars strictly before the trading day), runs the model's code in the sandbox and
 * maps the outcome to the envelope: tracebacks for errors, `sandbox_timeout`, `sandbox_memory_exceeded`,
 * and a per-run budget of failed executions.
 */
import { createHash } from "node:crypto";
import type { Instrument } from "../../core/domain.js";
import type { MarketView } from "../../market/data.js";
import { EXECUTE_CODE_RETRY_BUDGET, type executeCode } from "../defs/execute-code.js";
import type { AnswerOf, HandlerOf } from "../define.js";
import type { Masker } from "../../research/masking.js";
import type { SandboxSeries } from "../../research/sandbox-protocol.js";
import { DEFAULT_SANDBOX_LIMITS, runSandbox, type SandboxLimits } from "../../research/sandbox.js";

export interface ExecuteCodeDeps {
  view: MarketView;
  universe: readonly Instrument[];
  tradingDay: string;
  limits?: SandboxLimits;
  /** A masked run: the code sees aliases, shifted dates and rescaled prices only, and its evidence id is shown masked. */
  mask?: Pick<Masker, "maskedSeries" | "maskText">;
}

/** Every allowlisted instrument's bars strictly before the trading day, column by column. */
function sandboxSeries(view: MarketView, universe: readonly Instrument[]): Record<string, SandboxSeries> {
  const out: Record<string, SandboxSeries> = {};
  for (const inst of universe) {
    const bars = view.history(inst.symbol);
    out[inst.symbol.toUpperCase()] = {
      dates: bars.map((b) => b.date),
      open: bars.map((b) => b.open),
      high: bars.map((b) => b.high),
      low: bars.map((b) => b.low),
      close: bars.map((b) => b.close),
      volume: bars.map((b) => b.volume),
    };
  }
  return out;
}

export function makeExecuteCodeHandler(deps: ExecuteCodeDeps): HandlerOf<typeof executeCode> {
  let series: Record<string, SandboxSeries> | null = null;
  let failures = 0;
  const limits = deps.limits ?? DEFAULT_SANDBOX_LIMITS;
  return async (args): Promise<AnswerOf<typeof executeCode>> => {
    if (failures >= EXECUTE_CODE_RETRY_BUDGET) {
      return {
        ok: false,
        code: "sandbox_retry_budget_exhausted",
        message: `execute_code failed ${failures} times in this run; the sandbox accepts no more code this run`,
      };
    }
    series ??= deps.mask ? deps.mask.maskedSeries(sandboxSeries(deps.view, deps.universe)) : sandboxSeries(deps.view, deps.universe);
    const code = String(args.code);
    const cutoff = deps.mask ? deps.mask.maskText(deps.tradingDay) : deps.tradingDay;
    const run = await runSandbox({ code, cutoff, series }, limits);
    const r = run.reply;
    if (r.ok) {
      const evidence_id = `code:${deps.tradingDay}:${createHash("sha256").update(code).digest("hex").slice(0, 8)}`;
      return {
        ok: true,
        // Registered as real; shown as the model's (masked) terms: it cites what it saw, unmasked on the way back.
        data: {
          evidence_id: deps.mask ? deps.mask.maskText(evidence_id) : evidence_id,
          result: r.result,
          output: r.output,
          output_truncated: r.output_truncated,
          elapsed_ms: r.eval_ms,
        },
        evidenceIds: [evidence_id],
      };
    }
    failures += 1;
    const left = EXECUTE_CODE_RETRY_BUDGET - failures;
    const details = { traceback: r.traceback, output: r.output, failed_executions_left: left };
    if (r.kind === "timeout") {
      return {
        ok: false,
        code: "sandbox_timeout",
        message: `the code ran past the ${limits.timeoutMs} ms deadline and was terminated${run.terminated ? " (the worker thread was killed)" : ""}`,
        details,
      };
    }
    if (r.kind === "memory") {
      return {
        ok: false,
        code: "sandbox_memory_exceeded",
        message: `the code exceeded the sandbox memory cap of ${Math.round(limits.memoryBytes / 1048576)} MB: ${r.message}`,
        details,
      };
    }
    return { ok: false, code: "sandbox_error", message: `${r.name}: ${r.message}`, details };
  };
}
