/**
 * Every tool handler of a run, bound to the run's services. The daily run and `tradewarden tools
 * call` build them here, so a tool called by hand behaves exactly as in a run on that day.
 */
import type { Instrument, PriceSource, ProposedOrder, RunMode } from "../core/domain.js";
import type { Journal } from "../journal/journal.js";
import { makeJournalToolHandlers } from "../tools/handlers/journal.js";
import { makeWatchlistHandlers } from "../tools/handlers/watchlist.js";
import { makeStandingOrderHandlers } from "../tools/handlers/standing-orders.js";
import type { MarketData } from "../market/data.js";
import { makeMarketToolHandlers } from "../tools/handlers/market.js";
import { makeScreenHandler } from "../tools/handlers/screen-universe.js";
import { makeMarketWideHandlers } from "../tools/handlers/market-wide.js";
import { makePositionHandler } from "../tools/handlers/position.js";
import { makeCheckOrdersHandler } from "../tools/handlers/check-orders.js";
import type { GateDecision, GateOrder, GateResult } from "../core/gate-types.js";
import { makeSubmitHandler, type SubmitHandler } from "../agent/submit.js";
import { makeExecuteCodeHandler } from "../tools/handlers/execute-code.js";
import { SCREEN_DEFAULT_LIMIT } from "../tools/defs/screen-universe.js";
import type { SearchLogEntry } from "../core/research.js";
import type { Masker } from "../research/masking.js";
import type { ResearchSetup } from "../research/search.js";
import { makeSearchNewsHandler } from "../tools/handlers/search-news.js";
import { makeSubmitOrdersAdapter } from "../tools/handlers/submit-orders.js";
import { makeProposalStatusHandler } from "../tools/handlers/proposal-status.js";
import { proposalStatus } from "../journal/proposal-status.js";
import type { ToolHandlers } from "../tools/catalogue.js";
import { dispatchable } from "../tools/define.js";
import { withResultCheck } from "../tools/result-check.js";
import type { ToolHandler } from "../tools/types.js";
import type { GateInputSnapshot } from "./gate-inputs.js";
import { staleEvidence } from "../core/evidence-age.js";
import { recordingEvidence } from "./evidence.js";

export interface RunHandlerDeps {
  mode: RunMode;
  runId: string;
  tradingDay: string;
  journal: Journal;
  market: MarketData;
  universe: Instrument[];
  prices: PriceSource;
  baseCurrency: string;
  fxToBase: (currency: string) => number | undefined;
  limits: { max_orders_per_month: number; max_drawdown_pct: number };
  now: () => Date;
  gateInputs: () => GateInputSnapshot;
  evaluateOrders: (orders: ProposedOrder[]) => GateDecision[];
  /** check_orders' gate on a copy of the orders (default: the gate itself, `dryRun`). */
  dryRunOrders?: (orders: GateOrder[], inputs: GateInputSnapshot) => GateResult;
  /** News research for search_news (the config's [research]). */
  research: ResearchSetup;
  /** Entity masking (masked simulations): the sandbox's data is masked too. */
  mask?: Masker;
  /** Cited evidence older than this many trading days is named in check_orders' answer (research.stale_evidence_days). */
  staleEvidenceDays: number;
  /** Each search_news call's execution log entry. */
  onSearchLog?: (entry: SearchLogEntry) => void;
}

export function buildRunHandlers(deps: RunHandlerDeps): { handlers: Record<string, ToolHandler>; submit: SubmitHandler } {
  const view = deps.market.asOf(deps.tradingDay, { universe: deps.universe, baseCurrency: deps.baseCurrency, fxToBase: deps.fxToBase });
  const submit = makeSubmitHandler({
    evaluateOrders: deps.evaluateOrders,
    ...(deps.mode === "watch" ? { ordersRefused: "watch mode places nothing: submit an empty list; use add_watchlist for ideas" } : {}),
  });
  // The evidence items the tools returned so far (id → item): check_orders dates what an order cites by them.
  const items = new Map<string, unknown>();
  // One handler per catalogue tool, typed from its definition: a missing one does not compile.
  const handlers: ToolHandlers = {
    ...makeJournalToolHandlers({
      journal: deps.journal,
      prices: deps.prices,
      limits: deps.limits,
      now: deps.now,
      runId: deps.runId,
      tradingDay: deps.tradingDay,
    }),
    ...makeMarketToolHandlers({
      market: deps.market,
      universe: deps.universe,
      tradingDay: deps.tradingDay,
      baseCurrency: deps.baseCurrency,
      fxToBase: deps.fxToBase,
    }),
    ...makeWatchlistHandlers({
      journal: deps.journal,
      market: deps.market,
      prices: view,
      universe: deps.universe,
      runId: deps.runId,
      tradingDay: deps.tradingDay,
      now: deps.now,
    }),
    ...makeStandingOrderHandlers({
      journal: deps.journal,
      market: deps.market,
      prices: view,
      universe: deps.universe,
      runId: deps.runId,
      tradingDay: deps.tradingDay,
      now: deps.now,
    }),
    ...makeMarketWideHandlers({ view, universe: deps.universe, tradingDay: deps.tradingDay }),
    get_position: makePositionHandler({
      journal: deps.journal,
      prices: deps.prices,
      universe: deps.universe,
      runId: deps.runId,
      tradingDay: deps.tradingDay,
      now: deps.now,
      limits: () => ({ ...deps.limits, max_position_pct: deps.gateInputs().limits.max_position_pct }),
      tradingDaysSince: (from) => deps.market.calendar.countBefore(deps.tradingDay) - deps.market.calendar.countBefore(from),
    }),
    search_news: makeSearchNewsHandler({ setup: deps.research, tradingDay: deps.tradingDay, ...(deps.onSearchLog ? { onLog: deps.onSearchLog } : {}) }),
    screen_universe: makeScreenHandler({ view, universe: deps.universe, tradingDay: deps.tradingDay, defaultLimit: SCREEN_DEFAULT_LIMIT }),
    execute_code: makeExecuteCodeHandler({ view, universe: deps.universe, tradingDay: deps.tradingDay, ...(deps.mask ? { mask: deps.mask } : {}) }),
    check_orders: makeCheckOrdersHandler(
      deps.gateInputs,
      (ids) => staleEvidence(ids, Object.fromEntries(items), deps.market.calendar, deps.tradingDay, deps.staleEvidenceDays),
      deps.dryRunOrders,
    ),
    submit_orders: makeSubmitOrdersAdapter(submit),
    // The run's own proposal is recorded only after it submits: by default the latest earlier one.
    get_proposal_status: makeProposalStatusHandler((runId) => proposalStatus(deps.journal, runId, deps.runId)),
  };
  return { handlers: recordingEvidence(withResultCheck(dispatchable(handlers)), items), submit };
}
