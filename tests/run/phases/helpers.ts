/** A run context over real parts: a journal in a temporary home and the simulated broker in memory. */
import { SimBroker } from "../../../src/broker/simulated.js";
import { defaultConfig } from "../../../src/config/load.js";
import type { Config } from "../../../src/config/types.js";
import type { Bar, Instrument } from "../../../src/core/domain.js";
import type { RunEvent } from "../../../src/core/events.js";
import { MarketData } from "../../../src/market/data.js";
import { AutoApprover, type Approver } from "../../../src/run/approval.js";
import { EventSink } from "../../../src/run/event-sink.js";
import { type RunStart, Stop } from "../../../src/run/phases/context.js";
import { newRunContext } from "../../../src/run/pipeline.js";
import { simulatedSessionClock } from "../../../src/run/session-clock.js";
import { simPricing } from "../../../src/run/services.js";
import { freshJournal, tmpHome } from "../../journal/helpers.js";

const b = (date: string, o: number, h: number, l: number, c: number, volume = 1_000_000): Bar => ({ date, open: o, high: h, low: l, close: c, volume });
const DAYS = ["2020-01-02", "2020-01-03", "2020-01-06", "2020-01-07", "2020-01-08"];

export const UNIVERSE: Instrument[] = [
  { symbol: "AAA", currency: "USD", tick: 0.01 },
  { symbol: "GBX", currency: "GBP", tick: 0.01 },
];

export async function phaseWorld(opts: { config?: (c: Config) => void; approver?: Approver; closes?: number[] } = {}) {
  const closes = opts.closes ?? DAYS.map(() => 10);
  const market = MarketData.fromBars(
    {
      AAA: DAYS.map((d, i) => b(d, closes[i]!, closes[i]! * 1.05, closes[i]! * 0.95, closes[i]!)),
      GBX: DAYS.map((d) => b(d, 20, 21, 19, 20)),
    },
    { GBX: "GBP" },
  );
  const config = defaultConfig();
  config.fx = { GBP: 1.2 };
  config.account.capital = 10_000;
  config.account.timezone = "UTC";
  config.executor = { wait_s: 0, settle_s: 0, poll_ms: 1 };
  opts.config?.(config);
  const home = tmpHome();
  const journal = await freshJournal({ home, capital: 10_000 });
  const broker = SimBroker.open({
    market,
    config: config.broker.sim,
    start: "2020-01-06",
    cash: 10_000,
    pricing: simPricing(config, UNIVERSE),
    closeAfterWork: true,
  });
  const sink = new EventSink();
  const ctx: RunStart = newRunContext({
    home,
    mode: "paper",
    config,
    universe: UNIVERSE,
    journal,
    broker,
    openSession: async () => ({ tradingDay: broker.beginDay(), isOpen: true }),
    closeSession: async () => broker.endDay(),
    market,
    model: { provider: "scripted", id: "test", client: undefined as never, price: undefined as never } as never,
    approver: opts.approver ?? new AutoApprover(),
    sink,
    signal: new AbortController().signal,
    secretsRead: [],
    sessionClock: simulatedSessionClock("UTC"),
    runId: `r-${Math.random().toString(36).slice(2, 8)}`,
  });
  const events = (type: RunEvent["type"]) => sink.events.filter((e) => e.type === type);
  return { ctx, journal, broker, market, config, sink, events };
}

/** What a phase established, or the test fails with the stop it returned. */
export function ok<T>(r: Stop | T): T {
  if (r instanceof Stop) throw new Error(`unexpected stop: ${r.outcome} (${r.message})`);
  return r;
}
