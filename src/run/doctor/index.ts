/**
 * `tradewarden doctor`: every check a new user needs, in order — home, config, the account (can it
 * trade: the kill switch, money, this month's spend), broker, model, market data, research provider, notification channels. Sections that need the config are skipped when it does not load
 * (the config check has failed and says why). Nothing is written to the home; the model is called
 * only with --ping (which also sends each notification channel a test message).
 */
import { MarketData } from "../../market/data.js";
import { accountChecks } from "./account.js";
import { brokerChecks } from "./broker.js";
import { configCheck, homeChecks } from "./home.js";
import { marketChecks } from "./market.js";
import { modelChecks } from "./model.js";
import { notifyChecks } from "./notify.js";
import { researchChecks } from "./research.js";
import { scheduleChecks } from "./schedule.js";
import type { DoctorCheck, DoctorContext, DoctorReport, DoctorSectionCheck } from "./types.js";
import { fail } from "./types.js";

export type { DoctorReport } from "./types.js";

export async function runDoctor(opts: {
  home: string;
  env: NodeJS.ProcessEnv;
  ping: boolean;
  now?: Date;
  notice?: (message: string) => void;
}): Promise<DoctorReport> {
  const { check: config, config: loaded, universe } = configCheck(opts.home);
  const ctx: DoctorContext = {
    home: opts.home,
    env: opts.env,
    config: loaded,
    universe,
    ping: opts.ping,
    now: opts.now ?? new Date(),
    ...(opts.notice ? { notice: opts.notice } : {}),
  };
  const checks: DoctorCheck[] = [...(await homeChecks(ctx)), config];
  let market: MarketData | null = null;
  if (loaded) {
    try {
      market = MarketData.load({ home: opts.home });
    } catch (e) {
      checks.push(fail("market", "market.load", `market data does not load: ${(e as Error).message}`, "fix or remove the file named under <home>/market"));
    }
  }
  const sections: DoctorSectionCheck[] = [
    accountChecks,
    async (c) => (market ? brokerChecks(c, market) : []),
    modelChecks,
    async (c) => (market ? marketChecks(c, market) : []),
    researchChecks,
    notifyChecks,
    scheduleChecks,
  ];
  for (const section of sections) checks.push(...(await section(ctx)));
  return { ok: checks.every((c) => c.ok), home: opts.home, checks };
}
