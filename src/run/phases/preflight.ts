/**
 * Preflight: the paper guard before any I/O, the broker reachable, the account paper and allowed to
 * trade, the session opened, time moving forward, and the run recorded in the journal.
 */
import { assertPaperAccount, assertPaperEndpoint } from "../../broker/guard.js";
import { TwError } from "../../core/errors.js";
import { money } from "../../core/format.js";
import { EXIT } from "../../core/exit-codes.js";
import { wallClock } from "../session-clock.js";
import { type Opened, type Phase, type RunStart, Stop } from "./context.js";

const TIME_WENT_BACK = "trading_day_not_after_last_run";

/**
 * Refuses a trading day that is not after the last completed run's: the journal's notes, fills and
 * activity would come from the model's future. Exit 3 (journal and broker disagree). On a real
 * broker (its clock is the wall clock) a second run on the same day is allowed; an earlier day never.
 */
function timeMovesForward(ctx: RunStart, tradingDay: string): Stop | undefined {
  const last = ctx.deps.journal.isInitialised() ? ctx.deps.journal.lastCompletedTradingDay() : null;
  if (!last || tradingDay > last.trading_day) return undefined;
  // `approve` decides the last run's own proposal within that run's session: the same day, no future facts.
  const resume = ctx.deps.resume;
  if (resume && resume.fromRunId === last.run_id && tradingDay === last.trading_day) return undefined;
  if (tradingDay === last.trading_day && ctx.deps.broker.endpoint().kind !== "sim") return undefined;
  const message =
    `the broker's trading day ${tradingDay} is not after ${last.trading_day}, the trading day of the last completed run (${last.run_id}): ` +
    `the journal would show the model facts from its future, so nothing runs. To start a fresh account, use a new home ` +
    `(\`tradewarden --home NEW_DIR init\`, or TRADEWARDEN_HOME) and \`tradewarden --home NEW_DIR sim reset --start DAY\`; ` +
    `to continue this account, \`tradewarden sim reset --start\` a day after ${last.trading_day}`;
  ctx.deps.sink.emit({ type: "preflight.failed", code: TIME_WENT_BACK, message });
  return new Stop("reconcile_failed", EXIT.RECONCILE_FAILED, message);
}

/** The paper account and the session, from a reachable broker; a `Stop` when either is refused. */
async function openSession(ctx: RunStart): Promise<Stop | Pick<Opened, "account" | "session">> {
  const { deps } = ctx;
  const { broker, sink } = deps;
  const endpoint = broker.endpoint();
  try {
    assertPaperEndpoint(endpoint, { allowLoopback: deps.allowLoopbackBroker === true });
  } catch (e) {
    sink.emit({ type: "preflight.failed", code: "not_paper", message: (e as Error).message });
    return new Stop("error", EXIT.USAGE_OR_CONFIG, (e as Error).message);
  }
  try {
    const account = await broker.account();
    assertPaperAccount(endpoint, account);
    return { account, session: await deps.openSession() };
  } catch (e) {
    const code = e instanceof TwError ? e.code : "broker_unreachable";
    sink.emit({ type: "preflight.failed", code, message: (e as Error).message });
    const exit = e instanceof TwError && e.exitCode !== EXIT.INTERNAL_ERROR ? e.exitCode : EXIT.BROKER_OR_DATA_UNAVAILABLE;
    return new Stop("broker_unavailable", exit, `broker not ready: ${(e as Error).message}`);
  }
}

/** The journal opened (first use) or checked (its currency), and the run's start recorded in it. */
async function recordStart(o: Opened): Promise<void> {
  const { deps } = o;
  const { broker, sink, journal, config } = deps;
  const endpoint = broker.endpoint();
  const firstUse = !journal.isInitialised();
  if (firstUse) {
    await journal.init({ capital: config.account.capital, currency: config.account.base_currency, at: o.now() });
  } else if (journal.baseCurrency() !== config.account.base_currency) {
    throw new TwError(
      "currency_mismatch",
      `the journal's base currency is ${journal.baseCurrency()} but the config says ${config.account.base_currency}`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  const model = { provider: deps.model.provider, id: deps.model.id };
  const brokerInfo = { kind: endpoint.kind, account_id: o.account.account_id, endpoint: endpoint.url };
  const { aborted } = await journal.startRun({
    run_id: o.runId,
    mode: deps.mode,
    trading_day: o.tradingDay,
    at: o.now(),
    model,
    broker: brokerInfo,
    ...(deps.trigger ? { trigger: deps.trigger } : {}),
  });
  o.progress.started = true;
  sink.emit({
    type: "run.started",
    run_id: o.runId,
    mode: deps.mode,
    trading_day: o.tradingDay,
    model,
    broker: brokerInfo,
    base_currency: config.account.base_currency,
  });
  if (firstUse)
    sink.emit({
      type: "run.note",
      level: "info",
      message: `journal opened with capital ${money(config.account.capital, config.account.base_currency)} (first use)`,
    });
  for (const id of aborted)
    sink.emit({ type: "run.note", level: "warn", message: `run ${id} had been left running by a process that is gone; closed as aborted` });
}

export const preflight: Phase<RunStart, Opened> = {
  name: "preflight",
  async run(ctx) {
    const { deps } = ctx;
    if (deps.signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted before the run started; nothing placed");
    const opened = await openSession(ctx);
    if (opened instanceof Stop) return opened;
    const tradingDay = opened.session.tradingDay;
    ctx.progress.tradingDay = tradingDay;
    const back = timeMovesForward(ctx, tradingDay);
    if (back) return back;
    const o: Opened = { ...ctx, ...opened, tradingDay, sessionNow: (deps.sessionClock ?? wallClock)(tradingDay) };
    await recordStart(o);
    if (o.account.trading_blocked) return new Stop("broker_unavailable", EXIT.BROKER_OR_DATA_UNAVAILABLE, "the broker account is blocked from trading");
    return o;
  },
};
