/**
 * The MCP resources: read-only views of the home, read afresh on every request (another process,
 * `tradewarden approve` say, may have written since). None of them writes anything: the portfolio
 * is get_portfolio's answer on a throwaway copy (`tools call`'s path), the runs and the kill switch
 * are read from the journal opened read-only, the catalogue is rendered from the contracts.
 */
import { requireConfig } from "../config/require.js";
import { TwError } from "../core/errors.js";
import { decidedBy } from "../journal/decided.js";
import { openJournal } from "../journal/journal.js";
import { proposalStatus } from "../journal/proposal-status.js";
import { killSwitchFacts } from "../run/killswitch.js";
import { createAccountServices } from "../run/services.js";
import { callTool } from "../run/tool-call.js";
import { renderCatalogue } from "../tools/render.js";

export const RESOURCES = [
  {
    uri: "tradewarden://portfolio",
    name: "portfolio",
    description: "The paper account as get_portfolio shows it: cash, holdings at reference prices, value, peak, drawdown, orders left this month.",
    mimeType: "application/json",
  },
  {
    uri: "tradewarden://runs",
    name: "runs",
    description: "The last runs with their outcomes, who decided each awaiting proposal, and the latest proposal's status.",
    mimeType: "application/json",
  },
  {
    uri: "tradewarden://killswitch",
    name: "killswitch",
    description: "The kill switch: trading state (NORMAL, HALTED, REDUCING), value, peak and drawdown against its limit.",
    mimeType: "application/json",
  },
  {
    uri: "tradewarden://tools",
    name: "tools",
    description: "The tool catalogue with its contract version and error codes.",
    mimeType: "application/json",
  },
] as const;

const LAST_RUNS = 20;

/** Told what a journal open repaired (the command's stderr). */
type Notice = (message: string) => void;

async function readJournal(home: string, notice: Notice) {
  const { config } = requireConfig(home);
  return openJournal(home, { timezone: config.account.timezone, readOnly: true, reducingRunsAfterReset: config.limits.reducing_runs_after_reset, notice });
}

async function portfolio(home: string, env: NodeJS.ProcessEnv, notice: Notice): Promise<unknown> {
  const { config } = requireConfig(home);
  const asOf = config.broker.kind === "sim" ? {} : { asOf: new Date().toISOString().slice(0, 10) };
  const report = await callTool({ home, tool: "get_portfolio", args: "{}", env, notice, ...asOf });
  return { as_of_trading_day: report.trading_day, ...JSON.parse(report.outcome.text) };
}

async function runs(home: string, notice: Notice): Promise<unknown> {
  const journal = await readJournal(home, notice);
  const last = journal.runs().slice(-LAST_RUNS).reverse();
  return {
    runs: last.map((r) => ({
      run_id: r.run_id,
      trading_day: r.trading_day,
      mode: r.mode,
      model: r.model.id,
      status: r.status,
      outcome: r.outcome,
      exit_code: r.exit_code,
      message: r.message,
      decided_by: decidedBy(journal, r.run_id),
    })),
    latest_proposal: proposalStatus(journal),
  };
}

async function killswitch(home: string, env: NodeJS.ProcessEnv, notice: Notice): Promise<unknown> {
  const svc = await createAccountServices(home, env, { readOnly: true, notice });
  if (!svc.journal.isInitialised()) return { trading_state: "NORMAL", message: "the journal is not initialised yet: the first run opens it" };
  return killSwitchFacts(svc);
}

/** A resource's content as JSON; an unknown URI is refused. */
export async function readResource(uri: string, home: string, env: NodeJS.ProcessEnv, notice: Notice): Promise<unknown> {
  switch (uri) {
    case "tradewarden://portfolio":
      return portfolio(home, env, notice);
    case "tradewarden://runs":
      return runs(home, notice);
    case "tradewarden://killswitch":
      return killswitch(home, env, notice);
    case "tradewarden://tools":
      return renderCatalogue();
    default:
      throw new TwError("unknown_resource", `no resource ${uri} (resources: ${RESOURCES.map((r) => r.uri).join(", ")})`);
  }
}
