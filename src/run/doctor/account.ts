/**
 * Doctor: whether the account can trade — the kill switch's state (HALTED or REDUCING is a failed
 * check with what to do), money to trade with, and this month's LLM spend against its cap. Read
 * only; a home without an account yet has nothing to check here.
 */
import type { Journal } from "../../journal/journal.js";
import { openJournal } from "../../journal/journal.js";
import { dayAndClock, money, pct, usd } from "../../core/format.js";
import type { DoctorCheck, DoctorContext } from "./types.js";
import { fail, pass } from "./types.js";

const RESET = 'review the trip with `tradewarden killswitch`, then `tradewarden killswitch reset --yes --reason "…"` (or reset it on the killswitch screen)';

function tradingCheck(j: Journal, ctx: DoctorContext): DoctorCheck {
  const state = j.tradingState();
  const limit = ctx.config ? ` (drawdown limit ${ctx.config.limits.max_drawdown_pct}%)` : "";
  if (state === "HALTED") {
    const t = j.tripHistory().at(-1);
    const why = t ? `: ${t.reason} (tripped on ${dayAndClock(j.run(t.run_id)?.trading_day ?? "?", t.at)}, drawdown ${pct(t.drawdown_pct)})` : "";
    return fail("account", "account.trading", `trading is HALTED by the kill switch${why}; runs only sell what is held`, RESET, {
      trading_state: state,
      trip: t,
    });
  }
  if (state === "REDUCING") {
    const left = j.reducingRunsLeft();
    return fail(
      "account",
      "account.trading",
      `trading is REDUCING after a kill-switch reset: sells only for ${left} more run(s) that can trade`,
      `nothing to reset: buying resumes by itself after ${left} run(s) that can trade (\`tradewarden run\`); \`tradewarden killswitch\` shows the facts`,
      { trading_state: state, reducing_runs_left: left },
    );
  }
  return pass("account", "account.trading", `trading is ACTIVE${limit}`, { trading_state: state });
}

function fundsCheck(j: Journal): DoctorCheck {
  const cur = j.baseCurrency();
  const held = Object.values(j.holdings()).filter((h) => h.quantity !== 0).length;
  if (j.cash() <= 0 && held === 0)
    return fail(
      "account",
      "account.funds",
      `no cash (${money(j.cash(), cur)}) and nothing held: the account cannot trade`,
      "add money with `tradewarden deposit AMOUNT`",
    );
  return pass("account", "account.funds", `cash ${money(j.cash(), cur)}, ${held} holding(s)`);
}

function spendCheck(j: Journal, ctx: DoctorContext): DoctorCheck[] {
  if (!ctx.config) return [];
  const cap = ctx.config.model.monthly_budget_usd;
  const spent = j.spendThisMonth(ctx.now);
  if (spent >= cap)
    return [
      fail(
        "account",
        "account.spend",
        `this month's LLM spend ${usd(spent)} reached the cap of ${usd(cap)}: runs stop before calling the model`,
        "raise model.monthly_budget_usd in tradewarden.toml, or wait for next month",
      ),
    ];
  return [pass("account", "account.spend", `this month's LLM spend ${usd(spent)} of ${usd(cap)}`)];
}

export async function accountChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  let j: Journal;
  try {
    j = await openJournal(ctx.home, {
      timezone: ctx.config?.account.timezone ?? "America/New_York",
      readOnly: true,
      ...(ctx.notice ? { notice: ctx.notice } : {}),
    });
  } catch {
    return []; // the home section says why the journal does not open
  }
  if (!j.existsOnDisk() || !j.isInitialised()) return [];
  return [tradingCheck(j, ctx), fundsCheck(j), ...spendCheck(j, ctx)];
}
