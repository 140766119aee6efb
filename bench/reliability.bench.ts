/**
 * The long runs of the reliability record (docs/reliability.md): the fuzz and mutation suites at
 * their bench sizes (read from the record), 10,000 events through the front ends, and a journal of
 * 10,000 runs that must open, browse, verify and audit within its targets:
 *   - open (validate every event, fold, check the checkpoint): < 3 s
 *   - browse (the runs list and one run's detail): < 200 ms
 *   - verify: < 1 s
 *   - audit of a run in that home: < 1 s
 *   - 10,000 events through the reducer and the headless printer: < 2 s, heap growth < 100 MB
 * Each figure is printed to stderr with its target; a miss sets a failing exit code.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bench, describe } from "vitest";
import { createModelClient } from "../src/agent/factory.js";
import { openJournal } from "../src/journal/journal.js";
import { AutoApprover } from "../src/run/approval.js";
import { auditRunDir } from "../src/records/audit.js";
import { EventSink } from "../src/run/event-sink.js";
import { runDaily } from "../src/run/pipeline.js";
import { createAccountServices, accountDeps } from "../src/run/services.js";
import { loadEvents } from "../tests/reliability/load.js";
import { acceptedMustRefuse, classReport, runMutations, TARGETS } from "../tests/reliability/mutation.js";
import { recordedCount } from "../tests/reliability/record.js";
import { fuzzToolCalls } from "../tests/reliability/tool-fuzz.js";

const report = (what: string, value: number, unit: string, target: number) => {
  const ok = value <= target;
  process.stderr.write(`[reliability bench] ${what}: ${value.toFixed(unit === "ms" ? 0 : 1)} ${unit} (target ≤ ${target} ${unit})${ok ? "" : "  MISSED"}\n`);
  if (!ok) process.exitCode = 1;
};
const timed = async <T>(fn: () => Promise<T> | T): Promise<[T, number]> => {
  const t0 = performance.now();
  const v = await fn();
  return [v, performance.now() - t0];
};

// ---- the record's long suites ------------------------------------------------------------------
const fuzzN = recordedCount("tool-fuzz", "bench");
const [fuzz, fuzzMs] = await timed(() => fuzzToolCalls(fuzzN));
process.stderr.write(
  `[reliability bench] tool-fuzz: ${fuzz.calls} calls, ${fuzz.rejected} refused before any handler, ${fuzz.handlerReached} reached a handler with valid arguments, 0 crashes (${(fuzzMs / 1000).toFixed(1)} s)\n`,
);

const mutN = recordedCount("mutation", "bench");
const [mutations, mutMs] = await timed(() => runMutations(Math.ceil(mutN / TARGETS.length)));
const refused = mutations.filter((m) => m.outcome === "refused").length;
process.stderr.write(
  `[reliability bench] mutation: ${mutations.length} mutations, ${refused} refused naming file and place, ${mutations.length - refused} harmless, nothing written (${(mutMs / 1000).toFixed(1)} s)\n`,
);
for (const line of classReport(mutations)) process.stderr.write(`[reliability bench]   ${line}\n`);
const mustHaveRefused = acceptedMustRefuse(mutations);
for (const m of mustHaveRefused) process.stderr.write(`[reliability bench] mutation: MUST-REFUSE LOADED ${m}\n`);
if (mustHaveRefused.length > 0) process.exitCode = 1;

const load = loadEvents(recordedCount("load-events", "bench"));
report(`${load.events} events through reducer + headless printer`, load.ms, "ms", 2000);
report("heap growth for them", load.heapDeltaMb, "MB", 100);

// ---- a journal of 10,000 runs ------------------------------------------------------------------
const RUNS = 10_000;
const home = mkdtempSync(join(tmpdir(), "tw-bench-10k-"));
{
  const j = await openJournal(home, { timezone: "UTC", fsync: false });
  await j.init({ capital: 10_000_000, currency: "USD", at: "2024-01-02T00:00:00Z" });
  const model = { provider: "scripted", id: "rules" };
  for (let i = 0; i < RUNS; i++) {
    const id = `seed-${String(i).padStart(5, "0")}`;
    await j.startRun({ run_id: id, mode: "paper", trading_day: "2024-01-02", at: "2024-01-02T14:00:00Z", model, broker: { kind: "sim" } });
    await j.observeFirstValuation(id, 10_000_000, "2024-01-02T14:00:01Z");
    await j.finishRun(id, { status: "completed", outcome: "hold", exit_code: 0, message: "hold", at: "2024-01-02T15:00:00Z", could_trade: true });
  }
}
const [opened, openMs] = await timed(() => openJournal(home, { timezone: "UTC", readOnly: true }));
report(`open a journal of ${RUNS} runs`, openMs, "ms", 3000);
const [, browseMs] = await timed(() => {
  const runs = opened.runs();
  return opened.run(runs[runs.length - 1]?.run_id ?? "");
});
report("browse it (runs list + one run)", browseMs, "ms", 200);
const [findings, verifyMs] = await timed(() => opened.verify());
report(`verify it (${findings.length} findings)`, verifyMs, "ms", 1000);
// one real daily run in that home, then its audit
const svc = await createAccountServices(home, {});
const model = createModelClient({ ...svc.config.model, provider: "scripted", script: "hold" }, { env: {} });
const summary = await runDaily({
  home,
  mode: "paper",
  ...accountDeps(svc),
  model: { ...model, id: "scripted:hold" },
  approver: new AutoApprover(),
  sink: new EventSink(),
  signal: new AbortController().signal,
  secretsRead: [],
});
const [audit, auditMs] = await timed(() => auditRunDir(summary.runDir, {}));
report(`audit a run in that home (${audit.length} findings)`, auditMs, "ms", 1000);

describe("reliability (the record's long runs; figures above)", () => {
  bench(
    "journal of 10,000 runs: open + browse + verify",
    async () => {
      const j = await openJournal(home, { timezone: "UTC", readOnly: true });
      j.runs();
      j.verify();
    },
    { iterations: 3, warmupIterations: 0 },
  );
});
