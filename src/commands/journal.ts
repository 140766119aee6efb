/** `tradewarden journal --json` and `tradewarden journal verify`. Both only read (no lock needed). */
import { type Journal, openJournal } from "../journal/journal.js";
import { noticeTo } from "../journal/load.js";
import { decidedBy } from "../journal/decided.js";
import { fromMinor } from "../core/money.js";
import { isIsoDay } from "../market/calendar.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";
import { reportError } from "./init.js";
import { pickRunId } from "./run-id.js";

/** `--from` / `--to` must be real calendar days ("2024-13-45" is refused, not compared as text). */
export function checkDayRange(args: { from?: string; to?: string }): void {
  for (const [k, v] of [
    ["--from", args.from],
    ["--to", args.to],
  ] as const) {
    if (v !== undefined && !isIsoDay(v))
      throw new TwError("invalid_date", `${k} must be a calendar day (YYYY-MM-DD), got ${JSON.stringify(v)}`, EXIT.USAGE_OR_CONFIG);
  }
  if (args.from !== undefined && args.to !== undefined && args.from > args.to) {
    throw new TwError("invalid_date", `--from ${args.from} is after --to ${args.to}`, EXIT.USAGE_OR_CONFIG);
  }
}

/** Which runs `--run`, `--from` and `--to` keep (`--run`: an id, a unique prefix or latest, of the journal's runs; else a usage error). */
export function runsFilter(j: Journal, args: { run?: string; from?: string; to?: string }): (r: { run_id: string; trading_day: string }) => boolean {
  const runId =
    args.run === undefined
      ? undefined
      : pickRunId(
          j.runs().map((r) => r.run_id),
          args.run,
          "the journal",
        );
  return (r) =>
    (runId === undefined || r.run_id === runId) &&
    (args.from === undefined || r.trading_day >= args.from) &&
    (args.to === undefined || r.trading_day <= args.to);
}

/** A journal whose hash chain is broken is still shown (as `journal verify` reads it), under a warning on stderr: what it shows may have been edited. */
export function warnIfChainBroken(j: Journal, io: Pick<CommandIO, "stderr">): void {
  if (j.chainIssue)
    io.stderr(
      `tradewarden journal: warning: the journal's hash chain is broken (${j.chainIssue}): what it shows may have been edited; \`tradewarden journal verify\` says more\n`,
    );
}

export async function cmdJournalJson(args: { home: string; run?: string; from?: string; to?: string; timezone?: string }, io: CommandIO): Promise<number> {
  try {
    checkDayRange(args);
    const timezone = args.timezone ?? "UTC";
    const j = await openJournal(args.home, { timezone, readOnly: true, notice: noticeTo(io.stderr) });
    warnIfChainBroken(j, io);
    const runs = j.runs().filter(runsFilter(j, args));
    const ids = new Set(runs.map((r) => r.run_id));
    const initialised = j.isInitialised();
    const cur = initialised ? j.baseCurrency() : null;
    const money = (m: number | null) => (m === null || cur === null ? null : fromMinor(m, cur));
    const out = {
      runs: runs.map(({ first_value_minor, previous_value_minor, peak_after_minor, cost_micros, ...r }) => ({
        ...r,
        first_value: money(first_value_minor),
        previous_value: money(previous_value_minor),
        peak_after: money(peak_after_minor),
        cost_usd: cost_micros / 1e6,
        proposals: j.proposals(r.run_id),
        approvals: j.approvals(r.run_id),
        final_gate: j.finalGate(r.run_id) ?? null,
        /** A proposal awaiting approval decided later: the run that decided it and its decision. */
        decided_by: decidedBy(j, r.run_id),
      })),
      orders: j.orders().filter((o) => ids.has(o.run_id)),
      fills: j
        .fills()
        .filter((f) => ids.has(f.run_id))
        .map(({ gross_minor, commission_minor, ...f }) => ({ ...f, gross: money(gross_minor), commission: money(commission_minor) })),
      state: {
        initialised,
        base_currency: cur,
        cash: j.cash(),
        holdings: j.holdings(),
        peak: j.peak(),
        trading_state: j.tradingState(),
        reducing_runs_left: j.reducingRunsLeft(),
        trips: j.tripHistory(),
        resets: j.resetHistory(),
        orders_this_month: j.ordersThisMonth(new Date()),
        spend_this_month_usd: j.spendThisMonth(new Date()),
        timezone,
      },
      watchlist: [...j.watchState().items.values()],
      standing_orders: [...j.standingState().orders.values()],
    };
    io.stdout(JSON.stringify(out, null, 2) + "\n");
    return EXIT.OK;
  } catch (e) {
    return reportError(e, io);
  }
}

export async function cmdJournalVerify(args: { home: string; timezone?: string }, io: CommandIO): Promise<number> {
  try {
    const j = await openJournal(args.home, { timezone: args.timezone ?? "UTC", readOnly: true, notice: noticeTo(io.stderr) });
    const findings = j.verify();
    if (findings.length === 0) {
      io.stdout(
        `journal ok: ${j.runs().length} runs, ${j.ledger().length} ledger entries, ${j.fills().length} fills; cash ${j.cash()}${j.isInitialised() ? ` ${j.baseCurrency()}` : ""}\n`,
      );
      return EXIT.OK;
    }
    io.stdout(`journal verify: ${findings.length} finding${findings.length === 1 ? "" : "s"}\n`);
    for (const f of findings) io.stdout(`  [${f.code}] ${f.message}\n`);
    return EXIT.INTERNAL_ERROR;
  } catch (e) {
    return reportError(e, io);
  }
}
