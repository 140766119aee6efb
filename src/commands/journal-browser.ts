/** The journal browser's data source: the journal's records and each run's artifacts, read only. */
import type { Journal } from "../journal/journal.js";
import { fromMinor } from "../core/money.js";
import { readArtifact } from "../run/artifacts.js";
import type { RunEvent } from "../core/events.js";
import { homePaths } from "../util/paths.js";
import { prepareInkForTerminal } from "../util/terminal-env.js";
import { type JournalAccount, type JournalBrowserSource, type JournalRunDetail, outcomeText, type TranscriptEntry } from "../screens/journal-data.js";
import { decidedBy } from "../journal/decided.js";
import { EXIT } from "../core/exit-codes.js";
import { count, usd } from "../core/format.js";

/** An artifact's text (plain or packed), or null when missing or unreadable. */
function artifactText(runDir: string, key: "events" | "transcript"): string | null {
  try {
    return readArtifact(runDir, key);
  } catch {
    return null;
  }
}

function readEvents(runDir: string): RunEvent[] {
  const text = artifactText(runDir, "events");
  if (text === null) return [];
  const out: RunEvent[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as RunEvent);
    } catch {
      // a torn last line of a crashed run: skip it
    }
  }
  return out;
}

function readTranscript(runDir: string): TranscriptEntry[] {
  const text = artifactText(runDir, "transcript");
  if (text === null) return [];
  try {
    const t = JSON.parse(text) as { system?: string | null; messages?: { role: string; content: Record<string, unknown>[] }[] };
    const out: TranscriptEntry[] = [];
    if (t.system) out.push({ role: "system", text: t.system });
    for (const m of t.messages ?? []) {
      for (const b of m.content ?? []) {
        if (b.type === "text") out.push({ role: m.role, text: String(b.text) });
        else if (b.type === "tool_use") out.push({ role: m.role, text: `→ ${String(b.name)} ${JSON.stringify(b.input)}` });
        else if (b.type === "tool_result") out.push({ role: "tool", text: `${b.is_error ? "✗ " : "← "}${String(b.content)}` });
      }
    }
    return out;
  } catch {
    return [{ role: "system", text: "transcript.json could not be read" }];
  }
}

/** Token counts and turns over the run's model responses. */
function tokenUsage(events: readonly RunEvent[]) {
  let input = 0;
  let output = 0;
  let cacheRead = 0;
  let cacheWrite = 0;
  let turns = 0;
  for (const e of events) {
    if (e.type !== "model.response") continue;
    turns++;
    input += e.usage.input_tokens;
    output += e.usage.output_tokens;
    cacheRead += e.usage.cache_read_input_tokens;
    cacheWrite += e.usage.cache_creation_input_tokens;
  }
  return { input, output, cacheRead, cacheWrite, turns };
}

type JournalFill = ReturnType<Journal["fills"]>[number];

/** The run's orders, each with the average price of its own fills (when it has any). */
function orderRows(journal: Journal, id: string, fills: readonly JournalFill[]): JournalRunDetail["orders"] {
  return journal.orders(id).map((o) => {
    const own = fills.filter((f) => f.client_order_id === o.client_order_id);
    const qty = own.reduce((a, f) => a + f.quantity, 0);
    const avg = qty > 0 ? own.reduce((a, f) => a + f.quantity * f.price, 0) / qty : undefined;
    return {
      client_order_id: o.client_order_id,
      symbol: o.symbol,
      side: o.side,
      quantity: o.quantity,
      limit_price: o.limit_price,
      status: o.status,
      filled_quantity: o.filled_quantity,
      ...(avg !== undefined ? { avg_price: Math.round(avg * 10000) / 10000 } : {}),
    };
  });
}

function runDetail(journal: Journal, home: string, currency: string, id: string): JournalRunDetail | null {
  const run = journal.run(id);
  if (!run) return null;
  const runDir = homePaths(home).runDir(id);
  const events = readEvents(runDir);
  const fills = journal.fills(id);
  const approval = journal.approvals(id).at(-1);
  const { input, output, cacheRead, cacheWrite, turns } = tokenUsage(events);
  return {
    run_id: id,
    events,
    orders: orderRows(journal, id, fills),
    fills: fills.map((f) => ({
      at: f.at,
      symbol: f.symbol,
      side: f.side,
      quantity: f.quantity,
      price: f.price,
      commission: fromMinor(f.commission_minor, currency),
      client_order_id: f.client_order_id,
    })),
    decision: approval
      ? {
          decision: approval.decision,
          by: approval.by,
          orders_hash: approval.orders_hash,
          ...(approval.reason ? { reason: approval.reason } : {}),
          ...(approval.orders ? { orders: approval.orders.length } : {}),
        }
      : null,
    transcript: readTranscript(runDir),
    cost: {
      total_usd: journal.runCostUsd(id),
      input_tokens: input,
      output_tokens: output,
      cache_read_tokens: cacheRead,
      cache_write_tokens: cacheWrite,
      turns,
    },
  };
}

/** Each valued run's value and peak, with trip, reset and fill marks. */
/** A reset after the last run started: the peak it set (the chart's limit line and headroom follow it until the next run). */
function resetAfter(journal: Journal, lastStart: string | undefined) {
  const reset = journal.resetHistory().at(-1);
  return reset && lastStart !== undefined && reset.at > lastStart ? { reset_after_last_run: { peak: reset.new_peak } } : {};
}

/** The runs that carry a reset mark: for each reset, the first run after it that was valued. */
function resetMarks(all: readonly { run_id: string; first_value_minor: number | null }[], nextRuns: readonly (string | null)[]): Set<string> {
  const marks = new Set<string>();
  for (const next of nextRuns) {
    const from = next === null ? -1 : all.findIndex((r) => r.run_id === next);
    const valued = from < 0 ? undefined : all.slice(from).find((r) => r.first_value_minor !== null);
    if (valued) marks.add(valued.run_id);
  }
  return marks;
}

function accountHistory(journal: Journal, currency: string, maxDrawdownPct: number): JournalAccount {
  const trips = new Set(journal.tripHistory().map((t) => t.run_id));
  const all = journal.runs();
  // A reset is marked on the first run that started after it, by the log's order: in a simulation
  // the reset's time is the simulated session's while a run's start is the wall clock.
  const resetRuns = resetMarks(all, journal.resetNextRuns());
  return {
    points: all
      .filter((r) => r.first_value_minor !== null && r.peak_after_minor !== null)
      .map((r) => {
        const reset = resetRuns.has(r.run_id);
        const fills = journal.fills(r.run_id).length;
        return {
          run_id: r.run_id,
          trading_day: r.trading_day,
          value: fromMinor(r.first_value_minor as number, currency),
          peak: fromMinor(r.peak_after_minor as number, currency),
          ...(trips.has(r.run_id) ? { trip: true } : {}),
          ...(reset ? { reset: true } : {}),
          ...(fills > 0 ? { fills } : {}),
        };
      }),
    max_drawdown_pct: maxDrawdownPct,
    base_currency: currency,
    ...resetAfter(journal, all.at(-1)?.started_at),
    trading_state: journal.tradingState(),
  };
}

/** `decided_by` when the run's awaiting proposal was decided by a later run. */
function decidedField(journal: Journal, runId: string) {
  const d = decidedBy(journal, runId);
  return d ? { decided_by: d } : {};
}

/** What the journal browser reads: the journal's runs, each run's detail and the account's history (exported for tests/pty/fresh-after-action.test.ts). */
export function journalBrowserSource(journal: Journal, home: string, maxDrawdownPct: number): JournalBrowserSource {
  const currency = journal.isInitialised() ? journal.baseCurrency() : "USD";
  return {
    listRuns: () =>
      journal
        .runs()
        .slice()
        .reverse()
        .map((r) => ({
          run_id: r.run_id,
          started_at: r.started_at,
          trading_day: r.trading_day,
          mode: r.mode,
          trigger: r.trigger ?? "manual",
          outcome: r.outcome,
          ...decidedField(journal, r.run_id),
          orders: journal.orders(r.run_id).length,
          fills: journal.fills(r.run_id).length,
          cost_usd: journal.runCostUsd(r.run_id),
        })),
    runDetail: (id) => runDetail(journal, home, currency, id),
    account: () => accountHistory(journal, currency, maxDrawdownPct),
  };
}

/** `tradewarden journal` without --json: the browser on a terminal, a plain runs table otherwise. */
export async function cmdJournalBrowse(
  opts: { home: string; timezone: string; maxDrawdownPct: number; interactive: boolean; env: NodeJS.ProcessEnv; run?: string; from?: string; to?: string },
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
): Promise<number> {
  const { openJournal } = await import("../journal/journal.js");
  const { noticeTo } = await import("../journal/load.js");
  const { runsFilter, warnIfChainBroken } = await import("./journal.js");
  const journal = await openJournal(opts.home, { timezone: opts.timezone, readOnly: true, notice: noticeTo(io.stderr) });
  warnIfChainBroken(journal, io);
  const all = journalBrowserSource(journal, opts.home, opts.maxDrawdownPct);
  // --run, --from and --to keep the same runs as with --json (an unknown --run is a usage error before anything is shown).
  const kept = runsFilter(journal, opts);
  const source: JournalBrowserSource = { ...all, listRuns: async () => (await all.listRuns()).filter(kept) };
  if (opts.interactive) {
    prepareInkForTerminal();
    const { mountJournal } = await import("../screens/run-app.js");
    let interrupted = false;
    const mounted = mountJournal(
      {
        source,
        onExit: () => {},
        onInterrupt: () => {
          interrupted = true;
        },
      },
      { env: opts.env, alternateScreen: true },
    );
    await mounted.waitUntilExit();
    return interrupted ? EXIT.INTERRUPTED : EXIT.OK;
  }
  const runs = await source.listRuns();
  if (runs.length === 0) {
    io.stdout("no runs yet: `tradewarden run` starts the first\n");
    return 0;
  }
  io.stdout(`${"run".padEnd(28)} ${"day".padEnd(10)} ${"mode".padEnd(7)} ${"outcome".padEnd(18)} orders fills   cost\n`);
  for (const r of runs) {
    io.stdout(
      `${r.run_id.padEnd(28)} ${r.trading_day.padEnd(10)} ${r.mode.padEnd(7)} ${(r.outcome ?? "running").padEnd(18)} ${count(r.orders).padStart(6)} ${count(r.fills).padStart(5)} ${usd(r.cost_usd).padStart(7)}${r.decided_by ? `  ${outcomeText(r)}` : ""}${r.trigger === "scheduled" ? "  (scheduled)" : ""}\n`,
    );
  }
  return 0;
}
