/**
 * `tradewarden simulate --from D --to D`: the daily run over historical days on the simulated
 * broker, unattended (exactly the gate-approved orders go ahead). One line per day, or one JSON
 * object per run with --json, then a summary. Stops at the first run that needs a person
 * (reconciliation, an internal error, an interruption).
 */
import { loopbackAllowedForTests } from "../broker/loopback.js";
import { acquireLock } from "../journal/lock.js";
import { AutoApprover } from "../run/approval.js";
import { EventSink } from "../run/event-sink.js";
import type { RunEvent } from "../core/events.js";
import { EXIT } from "../core/exit-codes.js";
import { money, pct, usd } from "../run/format.js";
import { runDaily } from "../run/pipeline.js";
import { maskerFor } from "../run/masking.js";
import { createRunServices } from "../run/services.js";
import { isIsoDay } from "../market/calendar.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";
import { installInterruptHandlers } from "./run.js";

export interface SimulateOptions {
  home: string;
  from: string;
  to: string;
  json: boolean;
  /** Entity masking: the model sees aliases, neutral names and shifted dates (see README, Masking). */
  mask?: boolean;
}

const STOPPING: ReadonlySet<number> = new Set([EXIT.INTERNAL_ERROR, EXIT.USAGE_OR_CONFIG, EXIT.RECONCILE_FAILED, EXIT.BROKER_OR_DATA_UNAVAILABLE, EXIT.INTERRUPTED]);

export async function cmdSimulate(opts: SimulateOptions, io: CommandIO): Promise<number> {
  for (const [flag, v] of [["--from", opts.from], ["--to", opts.to]] as const) {
    if (!isIsoDay(v)) {
      io.stderr(`tradewarden simulate: ${flag} ${v} is not a date (YYYY-MM-DD)\n`);
      return EXIT.USAGE_OR_CONFIG;
    }
  }
  if (opts.from > opts.to) {
    io.stderr(`tradewarden simulate: --from ${opts.from} is after --to ${opts.to}\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const lock = await acquireLock(opts.home, "run");
  const interrupts = installInterruptHandlers(io);
  try {
    const svc = await createRunServices(opts.home, io.env);
    const sim = svc.sim;
    if (!sim) throw new TwError("not_simulated", "simulate needs broker.kind = \"sim\"", EXIT.USAGE_OR_CONFIG);
    // Days before --from pass without a run (nothing trades on them).
    let skipped = 0;
    for (let d = sim.nextDay(); d !== undefined && d < opts.from; d = sim.nextDay()) {
      sim.beginDay();
      sim.endDay();
      skipped++;
    }
    const first = sim.nextDay();
    if (first === undefined || first > opts.to) {
      throw new TwError("nothing_to_simulate", `no unplayed trading day between ${opts.from} and ${opts.to} (the simulation's next day is ${first ?? "past the data"}; \`tradewarden sim reset --start ${opts.from}\` starts over)`, EXIT.USAGE_OR_CONFIG);
    }
    if (skipped > 0 && !opts.json) io.stdout(`skipped ${skipped} trading day(s) before ${opts.from}\n`);
    const mask = opts.mask ? maskerFor(svc.universe) : undefined;
    const approver = new AutoApprover();
    const outcomes = new Map<string, number>();
    let runs = 0;
    let orders = 0;
    let cost = 0;
    let maxDd = 0;
    let lastValue = 0;
    let lastPeak = 0;
    let exit: number = EXIT.OK;
    while (!interrupts.controller.signal.aborted) {
      const day = sim.nextDay();
      if (day === undefined || day > opts.to) break;
      const sink = new EventSink();
      let value: number | null = null;
      let peak = 0;
      let dd = 0;
      let placed = 0;
      sink.subscribe((e: RunEvent) => {
        if (e.type === "valuation") {
          value = e.value;
          peak = e.peak;
          dd = e.drawdown_pct;
        }
        if (e.type === "order.placed") placed++;
      });
      const summary = await runDaily({
        home: opts.home,
        mode: "paper",
        config: svc.config,
        universe: svc.universe,
        journal: svc.journal,
        broker: svc.broker,
        openSession: svc.openSession,
        closeSession: svc.closeSession,
        sessionClock: svc.sessionClock,
        market: svc.market,
        model: svc.model,
        approver,
        sink,
        signal: interrupts.controller.signal,
        secretsRead: svc.secretsRead,
        research: svc.research,
        ...(mask ? { mask } : {}),
        allowLoopbackBroker: loopbackAllowedForTests(),
      });
      runs++;
      orders += placed;
      const runCost = svc.journal.runCostUsd(summary.runId);
      cost += runCost;
      outcomes.set(summary.outcome, (outcomes.get(summary.outcome) ?? 0) + 1);
      if (value !== null) {
        lastValue = value;
        lastPeak = peak;
        maxDd = Math.max(maxDd, dd);
      }
      const v = value as number | null;
      if (opts.json) {
        io.stdout(`${JSON.stringify({ trading_day: summary.tradingDay, run_id: summary.runId, outcome: summary.outcome, exit_code: summary.exitCode, value: v, peak, drawdown_pct: dd, orders: placed, cost_usd: runCost })}\n`);
      } else {
        io.stdout(`${summary.tradingDay}  ${summary.outcome.padEnd(18)} ${v === null ? "—".padStart(14) : money(v).padStart(14)}  dd ${pct(dd).padStart(7)}  orders ${placed}\n`);
      }
      if (STOPPING.has(summary.exitCode)) {
        exit = summary.exitCode;
        if (!opts.json) io.stderr(`stopped: ${summary.message} (run ${summary.runId})\n`);
        break;
      }
    }
    if (interrupts.controller.signal.aborted) exit = EXIT.INTERRUPTED;
    const result = { runs, outcomes: Object.fromEntries(outcomes), orders, final_value: lastValue, peak: lastPeak, max_drawdown_pct: maxDd, cost_usd: cost, exit_code: exit };
    if (opts.json) io.stdout(`${JSON.stringify({ summary: result })}\n`);
    else {
      io.stdout(
        `\n${runs} run(s): ${[...outcomes].map(([k, n]) => `${k} ${n}`).join(", ")}; ${orders} order(s) placed\nfinal value ${money(lastValue)}, peak ${money(lastPeak)}, worst drawdown ${pct(maxDd)}, LLM cost ${usd(cost)}\n`,
      );
    }
    return exit;
  } finally {
    interrupts.dispose();
    await lock.release();
  }
}
