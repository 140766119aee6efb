/**
 * Builds a run's services from the home folder, the configuration and the environment: config and
 * universe, market data, journal, broker (with the paper guard), model client. The I/O edge of the
 * run; the pipeline itself only sees these objects.
 */
import type { PipelineDeps } from "./phases/context.js";
import type { Config } from "../config/types.js";
import { configRefused, type LoadedConfig, requireConfig } from "../config/require.js";
import { modelConfigIssues } from "../agent/model-config.js";
import { loopbackAllowedForTests } from "../broker/loopback.js";
import { MarketData } from "../market/data.js";
import { openJournal, type Journal } from "../journal/journal.js";
import { SimBroker } from "../broker/simulated.js";
import type { SimPricing } from "../broker/simulated-engine.js";
import type { Instrument } from "../core/domain.js";
import { fxToBaseOf } from "../config/fx.js";
import { ALPACA_KEY_ENV, createAlpacaBroker } from "../broker/alpaca.js";
import { GuardedBroker } from "../broker/guard.js";
import type { Broker } from "../broker/types.js";
import { createModelClient, type ModelSetup } from "../agent/factory.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { EXIT } from "../core/exit-codes.js";
import type { Session } from "./pipeline.js";
import { type SessionClock, simulatedSessionClock, wallClock } from "./session-clock.js";
import type { ResearchSetup } from "../research/search.js";
import { createResearchSetup } from "../research/setup.js";

export interface BrokerSetup {
  broker: Broker;
  openSession: () => Promise<Session>;
  closeSession: () => Promise<void>;
  /** The session the next run would trade in, without opening it (valuations outside a run). */
  peekSession: () => Promise<Session>;
  secretsRead: string[];
  /** The session's clock: historical days on the simulated broker, the wall clock on a real one. */
  sessionClock: SessionClock;
  /** The simulated broker, when that is the broker (for `sim` commands and simulations). */
  sim?: SimBroker;
}

/** The simulated broker's pricing: the account in the base currency, each instrument at its `[fx]` rate. */
export function simPricing(config: Config, universe: readonly Instrument[]): SimPricing {
  const fx = fxToBaseOf(config);
  const bySymbol = new Map(universe.map((i) => [i.symbol.toUpperCase(), i.currency.toUpperCase()]));
  return {
    base: config.account.base_currency.toUpperCase(),
    instrument: (symbol) => {
      const currency = bySymbol.get(symbol.toUpperCase());
      const rate = currency === undefined ? undefined : fx(currency);
      return currency === undefined || rate === undefined ? undefined : { currency, fx_to_base: rate };
    },
  };
}

export function createBroker(
  home: string,
  config: Config,
  market: MarketData,
  universe: readonly Instrument[],
  env: NodeJS.ProcessEnv = process.env,
  opts: { persistNew?: boolean; keepClosedOrders?: boolean; simSnapshotEvery?: number; simDurable?: boolean } = {},
): BrokerSetup {
  if (config.broker.kind === "sim") {
    const sim = SimBroker.open({
      market,
      config: config.broker.sim,
      path: homePaths(home).sim,
      start: config.broker.sim.start_date,
      cash: config.account.capital,
      pricing: simPricing(config, universe),
      // Daily runs: the unfilled remainder of an order expires once the day's bar has worked it,
      // so the executor sees a terminal state at once instead of waiting out its timeout.
      closeAfterWork: true,
      ...(opts.persistNew === false ? { persistNew: false } : {}),
      ...(opts.keepClosedOrders === false ? { keepClosedOrders: false } : {}),
      ...(opts.simSnapshotEvery ? { snapshotEvery: opts.simSnapshotEvery } : {}),
      ...(opts.simDurable === false ? { durable: false } : {}),
    });
    return {
      broker: sim,
      sim,
      openSession: async () => ({ tradingDay: sim.beginDay(), isOpen: true }),
      closeSession: async () => sim.endDay(),
      sessionClock: simulatedSessionClock(config.account.timezone),
      peekSession: async () => {
        const day = sim.nextDay();
        if (!day)
          throw new TwError(
            "sim_exhausted",
            "the simulation has played every day of the market data; run `tradewarden sim reset`",
            EXIT.BROKER_OR_DATA_UNAVAILABLE,
          );
        return { tradingDay: day, isOpen: true };
      },
      secretsRead: [],
    };
  }
  // Alpaca paper: keys from the environment only; the guard refuses any non-paper endpoint before
  // any network I/O and checks the account before every order.
  const allowLoopback = loopbackAllowedForTests();
  const alpaca = createAlpacaBroker({ baseUrl: config.broker.alpaca.base_url, env, allowLoopback });
  const broker = new GuardedBroker(alpaca, { allowLoopback });
  const clockSession = async (): Promise<Session> => {
    const c = await broker.clock();
    return { tradingDay: c.tradingDay, isOpen: c.isOpen };
  };
  return {
    broker,
    openSession: clockSession,
    peekSession: clockSession,
    closeSession: async () => {},
    sessionClock: wallClock,
    secretsRead: [...ALPACA_KEY_ENV],
  };
}

export interface RunServices extends LoadedConfig, BrokerSetup {
  market: MarketData;
  journal: Journal;
  model: ModelSetup & { id: string };
  research: ResearchSetup;
}

export interface AccountServices extends LoadedConfig, BrokerSetup {
  market: MarketData;
  journal: Journal;
}

/** The pipeline's account-side dependencies as the services provide them (one place; callers add the rest). */
export function accountDeps(
  svc: AccountServices,
): Pick<PipelineDeps, "config" | "universe" | "journal" | "broker" | "openSession" | "closeSession" | "sessionClock" | "market"> {
  return {
    config: svc.config,
    universe: svc.universe,
    journal: svc.journal,
    broker: svc.broker,
    openSession: svc.openSession,
    closeSession: svc.closeSession,
    sessionClock: svc.sessionClock,
    market: svc.market,
  };
}

/** Everything but the model: for the kill-switch screen, the journal browser and simulations. */
export interface ServiceOptions {
  readOnly?: boolean;
  /** Refuse an uninitialised journal before the broker is opened (a fresh simulated broker would write its book). */
  requireInitialised?: boolean;
  /**
   * fsync the journal on every commit (default true; a simulation's throwaway journal turns it off,
   * and its simulated broker's snapshots follow it).
   */
  fsync?: boolean;
  /** Market data already loaded (a simulation reads its parent home's imported bars). */
  market?: MarketData;
  /** The journal writes its head only on flush() (a simulation flushes after each day; see Journal). */
  headOnFlush?: boolean;
  /** The simulated broker keeps finished orders after the close (default true; see SimBroker). */
  keepClosedOrders?: boolean;
  /** Day changes between snapshots of the simulated broker's book (default 1; see SimBroker). */
  simSnapshotEvery?: number;
  /** Told what the journal's open repaired (a command passes `noticeTo(io.stderr)`); default: the process's stderr. */
  notice?: (message: string) => void;
}

export async function createAccountServices(home: string, env: NodeJS.ProcessEnv, opts: ServiceOptions = {}): Promise<AccountServices> {
  const { config, universe } = requireConfig(home);
  const market = opts.market ?? MarketData.load({ home });
  const journal = await openJournal(home, {
    timezone: config.account.timezone,
    reducingRunsAfterReset: config.limits.reducing_runs_after_reset,
    ...(opts.readOnly ? { readOnly: true } : {}),
    ...(opts.fsync === false ? { fsync: false } : {}),
    ...(opts.headOnFlush ? { headOnFlush: true } : {}),
    ...(opts.notice ? { notice: opts.notice } : {}),
  });
  // Refused before the broker is opened: a fresh simulated broker would write its book.
  if (opts.requireInitialised && !journal.isInitialised()) {
    throw new TwError("not_initialised", "the journal is not initialised yet: run `tradewarden run` or `tradewarden init` first", EXIT.USAGE_OR_CONFIG);
  }
  const broker = createBroker(home, config, market, universe, env, {
    persistNew: !opts.readOnly,
    ...(opts.keepClosedOrders === false ? { keepClosedOrders: false } : {}),
    ...(opts.simSnapshotEvery ? { simSnapshotEvery: opts.simSnapshotEvery } : {}),
    ...(opts.fsync === false ? { simDurable: false } : {}),
  });
  return { config, universe, market, journal, ...broker };
}

/**
 * What `run` checks of the configuration beyond its schema before anything opens (the scripted
 * policy exists, the model id is priced, the provider's key is set): `config check` refuses
 * exactly what `run` would. Throws a TwError naming the file and key.
 */
export function checkRunConfig(config: Config, env: NodeJS.ProcessEnv): void {
  try {
    createModelClient(config.model, { env });
  } catch (e) {
    if (e instanceof TwError) throw new TwError(e.code, `${config.source ?? "the built-in defaults"}: ${e.message}`, e.exitCode);
    throw e;
  }
}

export async function createRunServices(home: string, env: NodeJS.ProcessEnv, opts: Omit<ServiceOptions, "readOnly"> = {}): Promise<RunServices> {
  const { config } = requireConfig(home);
  // The same [model] checks as `config check`: a config it passes is one the run accepts.
  const modelIssues = modelConfigIssues(config);
  if (modelIssues.length > 0) throw configRefused(modelIssues);
  // The model is checked first: an unknown model id or a missing key refuses before anything opens.
  const model = createModelClient(config.model, {
    env,
    limits: { max_position_pct: config.limits.max_position_pct, max_price_deviation_pct: config.limits.max_price_deviation_pct },
  });
  // Research next: a missing TAVILY_API_KEY for provider = "tavily" refuses before anything opens.
  const research = createResearchSetup(config.research, { env, historical: config.broker.kind === "sim" });
  const account = await createAccountServices(home, env, opts);
  const secretsRead = [...account.secretsRead, ...(model.keyEnv ? [model.keyEnv] : []), ...research.secretsRead];
  return {
    ...account,
    research,
    secretsRead,
    model: { ...model, id: model.provider === "scripted" ? `scripted:${config.model.script}` : config.model.id },
  };
}
