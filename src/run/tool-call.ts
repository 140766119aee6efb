/**
 * One tool, called by hand exactly as a run on a given trading day would call it: the same
 * handlers, validation, dispatch, envelope and compaction (`buildRunHandlers` + the tool runtime).
 * It always works on a throwaway copy of the home's state (journal, simulated broker), so nothing a
 * state-changing tool does is kept; the answer says so for those tools.
 */
import type { Instrument } from "../core/domain.js";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fxToBaseOf } from "../config/fx.js";
import { limitsOf } from "../config/load.js";
import { requireConfig } from "../config/require.js";
import { evaluate } from "../gate/evaluate.js";
import { openJournal } from "../journal/journal.js";
import { LOG_FILE } from "../journal/types.js";
import { isIsoDay } from "../market/calendar.js";
import { MarketData } from "../market/data.js";
import { STATE_CHANGING_TOOLS } from "../tools/catalogue.js";
import { buildToolRuntime, type DispatchOutcome } from "../tools/runtime.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { EXIT } from "../core/exit-codes.js";
import { buildGateInputs } from "./gate-inputs.js";
import { createBroker } from "./services.js";
import { simulatedSessionClock, wallClock } from "./session-clock.js";
import { createResearchSetup } from "../research/setup.js";
import { buildRunHandlers } from "./tool-handlers.js";

export interface ToolCallReport {
  tool: string;
  trading_day: string;
  contract_version: string;
  /** "throwaway_copy" for state-changing tools: whatever they wrote was discarded. */
  state: "read_only" | "throwaway_copy";
  outcome: DispatchOutcome;
}

const NO_COMMISSION = { commission_per_share: 0, commission_min: 0, commission_max_pct: 0 };

/** One tool call as a run on a day would make it. */
export interface ToolCallOptions {
  home: string;
  tool: string;
  /** The arguments as one JSON object. */
  args: string;
  /** The run's trading day (default: the day the next run would trade). */
  asOf?: string;
  env?: NodeJS.ProcessEnv;
  /** Told what the journal's open repaired (a command passes `noticeTo(io.stderr)`); default: the process's stderr. */
  notice?: (message: string) => void;
}

export async function callTool(opts: ToolCallOptions): Promise<ToolCallReport> {
  const { config, universe } = requireConfig(opts.home);
  if (opts.asOf !== undefined && !isIsoDay(opts.asOf)) {
    throw new TwError("invalid_day", `--as-of must be a day as YYYY-MM-DD (got "${opts.asOf}")`, EXIT.USAGE_OR_CONFIG);
  }
  const market = MarketData.load({ home: opts.home });
  const copy = mkdtempSync(join(tmpdir(), "tw-tools-call-"));
  try {
    const src = homePaths(opts.home);
    const dst = homePaths(copy);
    for (const [from, to] of [
      [src.journal, dst.journal],
      [join(opts.home, LOG_FILE), join(copy, LOG_FILE)],
      [src.sim, dst.sim],
    ] as const) {
      if (existsSync(from)) copyFileSync(from, to);
    }
    const tradingDay = opts.asOf ?? (await nextSessionDay(copy, config, market, universe, opts.env));
    const journal = await openJournal(copy, {
      timezone: config.account.timezone,
      fsync: false,
      reducingRunsAfterReset: config.limits.reducing_runs_after_reset,
      ...(opts.notice ? { notice: opts.notice } : {}),
    });
    if (!journal.isInitialised()) await journal.init({ capital: config.account.capital, currency: config.account.base_currency, at: new Date() });
    const fxToBase = fxToBaseOf(config);
    const prices = market.asOf(tradingDay, { universe, baseCurrency: config.account.base_currency, fxToBase });
    // The clock a run on this day would use (the simulated session on the simulated broker).
    const sessionNow = (config.broker.kind === "sim" ? simulatedSessionClock(config.account.timezone) : wallClock)(tradingDay);
    const inputs = () =>
      buildGateInputs({
        facts: {
          cash: journal.cash(),
          holdings: journal.holdings(),
          peak: journal.peak() ?? journal.cash(),
          ordersThisMonth: journal.ordersThisMonth(sessionNow()),
          tradingState: journal.tradingState(),
        },
        openOrders: [],
        prices,
        universe,
        limits: limitsOf(config),
        schedule: config.broker.kind === "sim" ? config.broker.sim : NO_COMMISSION,
        tradingDay,
      });
    const runId = `tools-call-${tradingDay}`;
    const { handlers } = buildRunHandlers({
      mode: "paper",
      runId,
      tradingDay,
      journal,
      market,
      universe,
      prices,
      baseCurrency: config.account.base_currency,
      fxToBase,
      limits: { max_orders_per_month: config.limits.max_orders_per_month, max_drawdown_pct: config.limits.max_drawdown_pct },
      now: sessionNow,
      gateInputs: inputs,
      evaluateOrders: (orders) => {
        const g = inputs();
        return evaluate(orders, g.state, g.market, g.limits, g.universe, { commission: g.commission }).decisions;
      },
      // What a run on this day would search: the config's provider, undated results excluded for a past day.
      staleEvidenceDays: config.research.stale_evidence_days,
      research: createResearchSetup(config.research, { env: opts.env ?? {}, historical: config.broker.kind === "sim" }),
    });
    const runtime = buildToolRuntime(handlers, { runId, tradingDay });
    const outcome = await runtime.dispatch(opts.tool, opts.args);
    return {
      tool: opts.tool,
      trading_day: tradingDay,
      contract_version: runtime.contractVersion,
      state: STATE_CHANGING_TOOLS.has(opts.tool) ? "throwaway_copy" : "read_only",
      outcome,
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The day the next run would trade: the simulated broker's next unplayed day (read from the copy). */
async function nextSessionDay(
  copyHome: string,
  config: ReturnType<typeof requireConfig>["config"],
  market: MarketData,
  universe: readonly Instrument[],
  env?: NodeJS.ProcessEnv,
): Promise<string> {
  if (config.broker.kind !== "sim") {
    throw new TwError("as_of_required", "with a real paper broker, name the trading day: --as-of YYYY-MM-DD", EXIT.USAGE_OR_CONFIG);
  }
  return (await createBroker(copyHome, config, market, universe, env).peekSession()).tradingDay;
}
