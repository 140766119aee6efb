/**
 * Runs a simulation: the daily-run pipeline (its public entry, `runDaily`) once per trading day
 * from `--from` to `--to`, in the simulation's own folder — its own journal, simulated broker and
 * runs, never the home's. Each day's artifacts are written once, packed, as its run closes, its record
 * appended to `days.jsonl`, and the report rebuilt at the end (also after an interruption or a
 * failed day, for the days done).
 */
import { appendFileSync, existsSync, mkdirSync } from "node:fs";
import { boundHeapGrowth } from "../util/heap.js";
import { createModelClient } from "../agent/factory.js";
import { currenciesWithoutRate, fxToBaseOf } from "../config/fx.js";
import type { Config } from "../config/types.js";
import type { Instrument } from "../core/domain.js";
import { fromMinor } from "../core/money.js";
import { acquireLock, type LockHandle } from "../journal/lock.js";
import { MarketData } from "../market/data.js";
import { AutoApprover } from "../run/approval.js";
import { HeldArtifacts } from "../run/artifacts.js";
import { EventSink } from "../run/event-sink.js";
import { EXIT } from "../core/exit-codes.js";
import { resetKillSwitch } from "../run/killswitch.js";
import { maskerFor } from "../run/masking.js";
import { runDaily } from "../run/pipeline.js";
import type { Masker } from "../research/masking.js";
import { createRunServices, type RunServices, accountDeps } from "../run/services.js";
import { accountValue } from "../run/valuation.js";
import { TwError } from "../core/errors.js";
import { effectiveConfig, saveEffectiveConfig } from "./config.js";
import { type DayRecord, dayFacts } from "./day-record.js";
import { checkSimulationName, generatedName, type SimulationPaths, simulationPaths } from "./paths.js";
import { checkDayArgs, planDays } from "./plan.js";
import { writeReport } from "./report-files.js";
import { type SimulationMeta, type SimulationStatus, writeMeta } from "./store.js";

export interface SimulationRequest {
  home: string;
  name?: string;
  from: string;
  to?: string;
  configFile?: string;
  model?: string;
  sets: string[];
  /** Reset a halt automatically after this many halted trading days (null: stay halted). */
  resetAfter: number | null;
  /** Entity masking: the model sees opaque aliases, neutral names and shifted dates. */
  mask?: boolean;
  env: NodeJS.ProcessEnv;
  /** Told what the simulation's journal open repaired (the command's stderr); default: the process's. */
  notice?: (message: string) => void;
}

export interface SimulationProgress {
  done: number;
  total: number;
  costUsd: number;
  elapsedMs: number;
}

export interface SimulationHooks {
  onStart?: (meta: SimulationMeta) => void;
  onDay?: (day: DayRecord, progress: SimulationProgress) => void;
  /** Checked before each day: true stops before the next day (the first Ctrl+C). */
  stopRequested?: () => boolean;
  /** Aborts the day in progress (a second Ctrl+C): the run closes as interrupted. */
  signal?: AbortSignal;
  now?: () => number;
}

export interface SimulationResult {
  meta: SimulationMeta;
  days: DayRecord[];
  exitCode: number;
}

const INDEX_SYMBOL = "SPX";
/**
 * Simulated days between writes of the simulation journal's head (its log takes every commit at
 * once). Replacing the head by rename cost ~0.6 ms a day on ext4; a simulation killed mid-way (it
 * cannot be resumed) keeps its report, days and runs, and its journal reads as of the last head.
 */
const JOURNAL_HEAD_EVERY = 16;
/** Day changes between snapshots of the simulation's broker book (see SimBroker `snapshotEvery`). */
const SIM_SNAPSHOT_EVERY = 64;
const noSleep = async () => {};

/** A simulation's folder made and locked, its config and first meta written. */
interface OpenedSimulation {
  market: MarketData;
  days: string[];
  paths: SimulationPaths;
  lock: LockHandle;
  meta: SimulationMeta;
}

/** How the days ended (before the run services are closed). */
interface DaysEnd {
  status: SimulationStatus;
  exitCode: number;
}

/** What the loop over the days works with. */
interface DayLoop {
  req: SimulationRequest;
  hooks: SimulationHooks;
  svc: RunServices;
  market: MarketData;
  mask: Masker | undefined;
  days: string[];
  paths: SimulationPaths;
  meta: SimulationMeta;
  records: DayRecord[];
  started: number;
  now: () => number;
}

export async function runSimulation(req: SimulationRequest, hooks: SimulationHooks = {}): Promise<SimulationResult> {
  // Before the market data loads: the full collection during the load sets the next heap limit.
  boundHeapGrowth();
  const now = hooks.now ?? Date.now;
  const { market, days, paths, lock, meta } = await openSimulation(req, now);
  const records: DayRecord[] = [];
  const started = now();
  let end: DaysEnd = { status: "completed", exitCode: EXIT.OK };
  try {
    // One broker stays open across every day: its day changes go to its log between snapshots.
    const svc = await createRunServices(paths.dir, req.env, {
      fsync: false,
      headOnFlush: true,
      market,
      keepClosedOrders: false,
      simSnapshotEvery: SIM_SNAPSHOT_EVERY,
      ...(req.notice ? { notice: req.notice } : {}),
    });
    const mask = req.mask ? maskerFor(svc.universe) : undefined;
    hooks.onStart?.(meta);
    end = await runDays({ req, hooks, svc, market, mask, days, paths, meta, records, started, now });
    svc.sim?.checkpoint();
    await svc.journal.flush();
    await svc.journal.close();
  } catch (e) {
    const exitCode = e instanceof TwError ? e.exitCode : EXIT.INTERNAL_ERROR;
    end = { status: "failed", exitCode };
    meta.failure = { day: null, run_id: null, outcome: "error", exit_code: exitCode, message: (e as Error).message };
  } finally {
    meta.status = end.status;
    meta.finished_at = new Date(now()).toISOString();
    meta.elapsed_ms = now() - started;
    writeMeta(paths.meta, meta);
    writeReport(paths, meta, records);
    await lock.release();
  }
  return { meta, days: records, exitCode: end.exitCode };
}

/** Checks the request (config, model, days, name), then makes and locks the simulation's folder. */
async function openSimulation(req: SimulationRequest, now: () => number): Promise<OpenedSimulation> {
  // A malformed day is named as the option it came from, not as the config's start date it becomes.
  checkDayArgs(req.from, req.to);
  const eff = effectiveConfig({
    home: req.home,
    ...(req.configFile ? { configFile: req.configFile } : {}),
    ...(req.model ? { model: req.model } : {}),
    sets: req.sets,
    from: req.from,
  });
  refuseUnpricedUniverse(eff.config, eff.universe);
  // The model is checked before anything is written: an unknown policy or a missing key refuses here.
  const model = createModelClient(eff.config.model, { env: req.env });
  const market = MarketData.load({ home: req.home });
  const days = planDays(market.calendar, req.from, req.to);
  const name = checkSimulationName(req.name ?? generatedName(days[0] as string, days.at(-1) as string));
  const paths = simulationPaths(req.home, name);
  if (existsSync(paths.dir)) {
    throw new TwError(
      "simulation_exists",
      `a simulation named "${name}" already exists in ${paths.dir}; pick another --name (\`tradewarden simulate report ${name}\` rebuilds its report)`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  mkdirSync(paths.dir, { recursive: true });
  saveEffectiveConfig(paths.config, eff);
  const lock = await acquireLock(paths.dir, "run");
  const meta: SimulationMeta = {
    format: "tradewarden-simulation/1",
    name,
    from: days[0] as string,
    to: days.at(-1) as string,
    days_total: days.length,
    days_done: 0,
    status: "running",
    created_at: new Date(now()).toISOString(),
    finished_at: null,
    elapsed_ms: 0,
    model: { provider: model.provider, id: model.provider === "scripted" ? `scripted:${eff.config.model.script}` : eff.config.model.id },
    config: { file: eff.origin.file, model: eff.origin.model, sets: eff.origin.sets },
    reset_after: req.resetAfter,
    masked: req.mask === true,
    max_drawdown_pct: eff.config.limits.max_drawdown_pct,
    capital: eff.config.account.capital,
    base_currency: eff.config.account.base_currency,
    index_symbol: INDEX_SYMBOL,
    start_index: market.asOf(days[0] as string).referencePrice(INDEX_SYMBOL)?.price ?? 0,
    failure: null,
  };
  writeMeta(paths.meta, meta);
  return { market, days, paths, lock, meta };
}

/**
 * A universe priced in a currency with no rate to the base one is refused before anything is
 * written: its instruments (the index among them) could be neither valued nor traded, and every day
 * would hold with the index read as zero.
 */
function refuseUnpricedUniverse(config: Config, universe: readonly Instrument[]): void {
  const missing = currenciesWithoutRate(config, universe);
  if (missing.size === 0) return;
  const base = config.account.base_currency.toUpperCase();
  const parts = [...missing].map(
    ([c, symbols]) => `${symbols.length} instrument(s) priced in ${c} (${symbols.slice(0, 3).join(", ")}${symbols.length > 3 ? ", …" : ""})`,
  );
  const [first] = missing.keys();
  throw new TwError(
    "missing_fx_rate",
    `the account's base currency is ${base}, but ${parts.join(" and ")} have no exchange rate to it: set one under [fx] (e.g. --set fx.${first}=<${base} per ${first}>)`,
    EXIT.USAGE_OR_CONFIG,
  );
}

/** Runs the days in order until the last, a stop, or a failed day; each day's record is appended as it closes. */
async function runDays(l: DayLoop): Promise<DaysEnd> {
  const { req, hooks, svc, records, meta } = l;
  const signal = hooks.signal ?? new AbortController().signal;
  let costUsd = 0;
  let haltedDays = 0;
  for (const day of l.days) {
    // A day can run on synchronous I/O and resolved promises alone: yield to the event loop
    // between days so a signal (the first Ctrl+C stops here) is handled before the next one.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (hooks.stopRequested?.() || signal.aborted) return { status: "interrupted", exitCode: EXIT.INTERRUPTED };
    if (svc.sim?.nextDay() !== day)
      throw new TwError("sim_out_of_step", `the simulated broker's next day is ${svc.sim?.nextDay() ?? "none"}, expected ${day}`, EXIT.INTERNAL_ERROR);
    haltedDays = svc.journal.tradingState() === "HALTED" ? haltedDays + 1 : 0;
    const reset = req.resetAfter !== null && haltedDays > req.resetAfter ? await autoReset(svc, day, req.resetAfter) : undefined;
    if (reset) haltedDays = 0;
    const record = await simulateDay(svc, day, signal, l.market, l.mask);
    if (records.length % JOURNAL_HEAD_EVERY === JOURNAL_HEAD_EVERY - 1) await svc.journal.flush();
    if (reset) record.reset = reset;
    records.push(record);
    costUsd += record.cost_usd;
    appendFileSync(l.paths.days, `${JSON.stringify(record)}\n`);
    meta.days_done = records.length;
    hooks.onDay?.(record, { done: records.length, total: l.days.length, costUsd, elapsedMs: l.now() - l.started });
    if (record.exit_code === EXIT.INTERRUPTED) return { status: "interrupted", exitCode: EXIT.INTERRUPTED };
    if (record.exit_code !== EXIT.OK && record.exit_code !== EXIT.HALTED_OR_TRIPPED) {
      meta.failure = { day, run_id: record.run_id, outcome: record.outcome, exit_code: record.exit_code, message: record.message };
      return { status: "failed", exitCode: record.exit_code };
    }
  }
  return { status: "completed", exitCode: EXIT.OK };
}

async function simulateDay(svc: RunServices, day: string, signal: AbortSignal, market: MarketData, mask: Masker | undefined): Promise<DayRecord> {
  // A simulated day's events are written when its run closes (a simulation is not resumable mid-day).
  const sink = new EventSink(undefined, { writeThrough: false });
  const summary = await runDaily({
    home: svc.journal.home,
    mode: "paper",
    ...accountDeps(svc),
    model: svc.model,
    approver: new AutoApprover(),
    sink,
    signal,
    secretsRead: svc.secretsRead,
    research: svc.research,
    ...(mask ? { mask } : {}),
    executorSleep: noSleep,
    // The day's artifacts are held in memory and written once, packed, when its run closes.
    held: new HeldArtifacts(),
  });
  const facts = dayFacts(sink.events);
  // Close-of-day marks: what is known once the day's bar is in (the next day's reference prices).
  const close = market.asOf(market.calendar.next(day) ?? "9999-12-31", {
    universe: svc.universe,
    baseCurrency: svc.config.account.base_currency,
    fxToBase: fxToBaseOf(svc.config),
  });
  const { value } = accountValue(svc.journal, close);
  const currency = svc.config.account.base_currency;
  return {
    day,
    run_id: summary.runId,
    outcome: summary.outcome,
    exit_code: summary.exitCode,
    value,
    cash: svc.journal.cash(),
    index: close.referencePrice(INDEX_SYMBOL)?.price ?? 0,
    peak: svc.journal.peak() ?? value,
    gate_drawdown: facts.gateDrawdown,
    trading_state: svc.journal.tradingState(),
    orders: facts.orders,
    fills: svc.journal.fills(summary.runId).map((f) => ({
      symbol: f.symbol,
      side: f.side,
      quantity: f.quantity,
      price: f.price * f.fx_to_base,
      commission: fromMinor(f.commission_minor, currency),
    })),
    blocked: facts.blocked,
    cost_usd: svc.journal.runCostUsd(summary.runId),
    ...(facts.trip ? { trip: facts.trip } : {}),
    message: summary.message,
  };
}

async function autoReset(svc: RunServices, day: string, after: number): Promise<DayRecord["reset"]> {
  const reason = `automatic reset after ${after} halted trading day(s) (--reset-after)`;
  const r = await resetKillSwitch(svc, { who: "simulation", reason, at: svc.sessionClock(day)() });
  return { reason, value: r.value };
}
