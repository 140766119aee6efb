/**
 * tradewarden's entry: parses arguments with commander, builds the services, and hands each
 * command to its module. Commands return exit codes; only this file calls process.exit.
 */
import { Command, CommanderError, Option } from "commander";
import { runProcess } from "./commands/process-run.js";
import { type CommandIO, processIO, redactedIO } from "./commands/io.js";
import { registerData } from "./commands/data-cli.js";
import { registerSimulate } from "./commands/simulate-cli.js";
import { registerKillSwitchAndStanding } from "./commands/killswitch-standing-cli.js";
import { registerWatchlist } from "./commands/watchlist-cli.js";
import { registerMcp } from "./commands/mcp-cli.js";
import { registerSchedule } from "./commands/schedule-cli.js";
import type { RunMode } from "./core/domain.js";
import { TOOL_FORMATS } from "./tools/formats.js";
import { prepareInkForTerminal } from "./util/terminal-env.js";
import { EXIT, EXIT_TABLE } from "./core/exit-codes.js";
import { TwError } from "./core/errors.js";
import { homeProblem } from "./util/home-check.js";
import { packageVersion, resolveHome } from "./util/paths.js";
import { registerSecretEnv } from "./core/redact.js";
import { beginCommandInterrupts, interruptReceived } from "./commands/interrupts.js";

/** The io of the command `main` is running: the process's (bin/tradewarden.js), or a caller's (tests run commands in-process). */
let current: CommandIO | undefined;
const io: CommandIO = {
  stdout: (t) => (current ?? processIO()).stdout(t),
  stderr: (t) => (current ?? processIO()).stderr(t),
  get env() {
    return (current ?? processIO()).env;
  },
  get channel() {
    return current?.channel;
  },
};

// Commands load their modules on demand, so `--help`, `--version` and light commands start fast.
const load = {
  tools: () => import("./commands/tools.js"),
  toolsCall: () => import("./commands/tools-call.js"),
  gateCheck: () => import("./commands/gate-check.js"),
  sim: () => import("./commands/simulated-broker.js"),
  init: () => import("./commands/init.js"),
  deposit: () => import("./commands/deposit.js"),
  journal: () => import("./commands/journal.js"),
  run: () => import("./commands/run.js"),
  config: () => import("./config/require.js"),
  audit: () => import("./commands/audit.js"),
  replay: () => import("./commands/replay.js"),
  export: () => import("./commands/export.js"),
  doctor: () => import("./commands/doctor.js"),
  research: () => import("./commands/research.js"),
  reconcile: () => import("./commands/reconcile.js"),
};
async function configOf(home: string) {
  return (await load.config()).requireConfig(home);
}

function homeOf(cmd: Command): string {
  const opts = cmd.optsWithGlobals() as { home?: string };
  const home = resolveHome(opts.home, io.env);
  // A home must be a writable folder (or a place one can be created): anything else is a usage error, exit 2.
  const problem = homeProblem(home);
  if (problem !== undefined) {
    const from = opts.home ? "--home" : io.env.TRADEWARDEN_HOME ? "TRADEWARDEN_HOME" : "the default home";
    throw new TwError("home_not_a_folder", `${from} ${home} ${problem}; point it at a folder you can write (it is created if missing)`, EXIT.USAGE_OR_CONFIG);
  }
  return home;
}

/** The operator console for `run` and `approve` (loaded only on a terminal). */
const makeConsole = async () => {
  prepareInkForTerminal();
  return (await import("./commands/run-console.js")).createRunConsole(io.env);
};

let exitCode: number = EXIT.OK;
const setExit = (code: number) => {
  exitCode = code;
};

const program = new Command("tradewarden")
  .description("An operator console in which an LLM trades a paper account only through strict tool contracts, a deterministic risk gate and a human.")
  .version(packageVersion(), "-V, --version")
  .option("--home <dir>", "folder holding your config, journal, simulated broker and run artifacts (default: $TRADEWARDEN_HOME or ~/.tradewarden)")
  .showHelpAfterError()
  .addHelpText("after", `\nExit codes:\n${EXIT_TABLE.map((e) => `  ${String(e.code).padStart(3)}  ${e.meaning}`).join("\n")}\n`);
program.exitOverride();
program.configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });

const tools = program
  .command("tools")
  .description("the tools the model sees: a table (name, kind, purpose); the catalogue itself with --json or --format")
  .addOption(new Option("--format <format>", "the catalogue in this format").choices([...TOOL_FORMATS]))
  .option("--json", "the catalogue as JSON (as --format json)", false)
  .option("--tool <name>", "only this tool")
  .action(async (opts: { format?: string; json: boolean; tool?: string }) =>
    setExit((await load.tools()).cmdTools({ ...opts, ...(process.stdout.isTTY && process.stdout.columns ? { columns: process.stdout.columns } : {}) }, io)),
  );
tools
  .command("call")
  .description("call one tool exactly as a run on that trading day would; state-changing tools run on a throwaway copy of the state")
  .argument("<name>", "the tool's name")
  .argument("[json-args]", "the arguments as one JSON object", "{}")
  .option("--as-of <day>", "the run's trading day (default: the day the next run would trade)")
  .option("--json", "one JSON object: the day, the contract version, the stage and the result", false)
  .action(async (name: string, args: string, opts: { asOf?: string; json: boolean }, cmd: Command) => {
    // commander hands a --json after `call` to `tools`' own --json
    const json = opts.json || cmd.parent?.opts<{ json?: boolean }>().json === true;
    setExit(await (await load.toolsCall()).cmdToolsCall({ home: homeOf(cmd), tool: name, args, ...(opts.asOf ? { asOf: opts.asOf } : {}), json }, io));
  });

program
  .command("run")
  .description("the daily run: the agent researches and proposes, the gate and you decide, the executor trades the paper account")
  .option("-y, --yes", "unattended: approve exactly the orders the final gate approves (no console)", false)
  .option("--json", "print one JSON object per event, then the run's research-cycle envelope", false)
  .addOption(
    new Option("--mode <mode>", "paper executes on the paper broker; observe places nothing; watch researches and manages the watchlist only")
      .choices(["paper", "observe", "watch"])
      .default("paper"),
  )
  .action(async (opts: { yes: boolean; json: boolean; mode: RunMode }, cmd: Command) => {
    const { cmdRun, terminalOf } = await load.run();
    setExit(await cmdRun({ home: homeOf(cmd), yes: opts.yes, json: opts.json, mode: opts.mode }, io, terminalOf(io.env), makeConsole));
  });

program
  .command("approve")
  .description("decide a proposal recorded as awaiting approval (a run without a terminal exits 6), within its trading session")
  .argument("[run]", "the run whose proposal to decide (default: the latest run)")
  .option("-y, --yes", "unattended: approve exactly the orders the final gate approves (no console)", false)
  .option("--json", "print one JSON object per event, then the run's research-cycle envelope", false)
  .action(async (runId: string | undefined, opts: { yes: boolean; json: boolean }, cmd: Command) => {
    const { cmdRun, terminalOf } = await load.run();
    setExit(
      await cmdRun({ home: homeOf(cmd), yes: opts.yes, json: opts.json, mode: "paper", approve: runId ? { runId } : {} }, io, terminalOf(io.env), makeConsole),
    );
  });

program
  .command("init")
  .description("open the journal's virtual account with its starting capital (once)")
  .requiredOption("--capital <amount>", "starting capital in the base currency")
  .option("--currency <code>", "base currency (ISO 4217); default: the config's account.base_currency")
  .action(async (opts: { capital: string; currency?: string }, cmd: Command) => {
    const home = homeOf(cmd);
    const { config } = await configOf(home);
    setExit(
      await (await load.init()).cmdInit(
        { home, capital: opts.capital, currency: opts.currency ?? config.account.base_currency, timezone: config.account.timezone },
        io,
      ),
    );
  });

program
  .command("deposit")
  .description("add money to the virtual account (append-only)")
  .argument("<amount>", "amount in the base currency")
  .option("--note <text>", "a note recorded with the deposit")
  .action(async (amount: string, opts: { note?: string }, cmd: Command) => {
    const home = homeOf(cmd);
    const { config } = await configOf(home);
    setExit(await (await load.deposit()).cmdDeposit({ home, amount, timezone: config.account.timezone, ...(opts.note ? { note: opts.note } : {}) }, io));
  });

const journalCmd = program
  .command("journal")
  .description("browse the journal: runs, proposals, verdicts, orders, fills, costs (--json for scripts)")
  .option("--json", "print runs, orders, fills and state as JSON (without it: the browser on a terminal, a runs table otherwise)", false)
  .option("--run <id>", "only this run: its id, a unique prefix of it, or latest")
  .option("--from <date>", "runs whose trading day is on or after this day (YYYY-MM-DD)")
  .option("--to <date>", "runs whose trading day is on or before this day (YYYY-MM-DD)")
  .action(async (opts: { json: boolean; run?: string; from?: string; to?: string }, cmd: Command) => {
    const home = homeOf(cmd);
    (await load.journal()).checkDayRange(opts);
    const { config } = await configOf(home);
    if (!opts.json) {
      const { cmdJournalBrowse } = await import("./commands/journal-browser.js");
      const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
      setExit(
        await cmdJournalBrowse(
          {
            home,
            timezone: config.account.timezone,
            maxDrawdownPct: config.limits.max_drawdown_pct,
            interactive,
            env: io.env,
            ...(opts.run ? { run: opts.run } : {}),
            ...(opts.from ? { from: opts.from } : {}),
            ...(opts.to ? { to: opts.to } : {}),
          },
          io,
        ),
      );
      return;
    }
    setExit(
      await (await load.journal()).cmdJournalJson(
        {
          home,
          timezone: config.account.timezone,
          ...(opts.run ? { run: opts.run } : {}),
          ...(opts.from ? { from: opts.from } : {}),
          ...(opts.to ? { to: opts.to } : {}),
        },
        io,
      ),
    );
  });
journalCmd
  .command("verify")
  .description("recompute cash and holdings from the ledger and fills; report any inconsistency")
  .action(async (_opts: unknown, cmd: Command) => {
    const home = homeOf(cmd);
    const { config } = await configOf(home);
    setExit(await (await load.journal()).cmdJournalVerify({ home, timezone: config.account.timezone }, io));
  });

const gate = program.command("gate").description("the risk gate");
gate
  .command("check")
  .description("evaluate a JSON scenario with the real gate and print the decisions")
  .requiredOption("--scenario <file>", "scenario JSON file")
  .option("--json", "print the decisions as JSON (the public contract)", false)
  .action(async (opts: { scenario: string; json: boolean }) => setExit(await (await load.gateCheck()).cmdGateCheck(opts, io)));

const sim = program.command("sim").description("the simulated paper broker");
sim
  .command("status")
  .description("the simulated broker's clock, cash, positions and recent orders")
  .option("--json", "as JSON", false)
  .action(async (opts: { json: boolean }, cmd: Command) => {
    const home = homeOf(cmd);
    const { config } = await configOf(home);
    setExit((await load.sim()).cmdSimStatus({ home, config: config.broker.sim, json: opts.json }, io));
  });
sim
  .command("reset")
  .description("start the simulated broker afresh (its book only; the journal is not touched)")
  .option("--start <date>", "first trading day (YYYY-MM-DD)")
  .action(async (opts: { start?: string }, cmd: Command) => {
    const home = homeOf(cmd);
    const { config } = await configOf(home);
    // A reset rewrites the simulated broker's book: never while a run (or another reset) holds the home.
    const { acquireLock } = await import("./journal/lock.js");
    const lock = await acquireLock(home, "sim");
    try {
      setExit(
        (await load.sim()).cmdSimReset(
          { home, config: config.broker.sim, start: opts.start ?? config.broker.sim.start_date, cash: config.account.capital },
          io,
        ),
      );
    } finally {
      await lock.release();
    }
  });

registerData(program, { io, homeOf, setExit });

registerKillSwitchAndStanding(program, { io, homeOf, setExit });

program
  .command("reconcile")
  .description("recover orders by client order id, show every journal/broker difference and what it proves; adopt the broker's side only by an operator")
  .option("--adopt-broker", "adopt the broker's side of the adoptable differences (append-only adjustments; needs --yes and --reason)", false)
  .option("-y, --yes", "confirm the adoption", false)
  .option("--reason <text>", "why the broker's side is adopted (recorded with each adjustment)")
  .option("--who <name>", "who adopts (default: the current user)")
  .option("--json", "the recovery, the differences and any adjustments as JSON", false)
  .action(async (opts: { adoptBroker: boolean; yes: boolean; reason?: string; who?: string; json: boolean }, cmd: Command) => {
    const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
    setExit(
      await (await load.reconcile()).cmdReconcile(
        {
          home: homeOf(cmd),
          adoptBroker: opts.adoptBroker,
          yes: opts.yes,
          json: opts.json,
          interactive,
          ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
          ...(opts.who ? { who: opts.who } : {}),
        },
        io,
      ),
    );
  });

program
  .command("audit")
  .description("verify a run's artifacts against every contract; exit 1 on any finding")
  .argument("<run>", "run id (under the home's runs/) or a run folder")
  .option("--json", "findings as JSON", false)
  .action(async (target: string, opts: { json: boolean }, cmd: Command) => {
    setExit(await (await load.audit()).cmdAudit({ home: homeOf(cmd), target, json: opts.json }, io));
  });

program
  .command("replay")
  .description("re-run a run's agent loop from its recorded model traffic; fails closed on any request drift")
  .argument("<run>", "run id (under the home's runs/) or a run folder")
  .option("--json", "the result as JSON", false)
  .option("--mask", "require the run to have been masked (a masked run always replays masked: the model sees what it saw)", false)
  .action(async (target: string, opts: { json: boolean; mask: boolean }, cmd: Command) => {
    setExit(await (await load.replay()).cmdReplay({ home: homeOf(cmd), target, json: opts.json, mask: opts.mask }, io));
  });

program
  .command("export")
  .description("print a run's record: its research-cycle envelope (json) or TradeCat's research-cycle shape (tradecat)")
  .argument("<run>", "run id (under the home's runs/) or a run folder")
  .addOption(
    new Option("--format <format>", "json: tradewarden's envelope; tradecat: TradeCat's agent_research_cycle.v1").choices(["json", "tradecat"]).default("json"),
  )
  .action(async (target: string, opts: { format: string }, cmd: Command) => {
    setExit(await (await load.export()).cmdExport({ home: homeOf(cmd), target, format: opts.format }, io));
  });

program
  .command("doctor")
  .description("check the home, config, broker, model, market data, research provider and notification channels; each problem with its fix")
  .option("--json", "the checks as JSON", false)
  .option("--ping", "also send the model a one-token request (costs a fraction of a cent) and each notification channel a test message", false)
  .action(async (opts: { json: boolean; ping: boolean }, cmd: Command) => {
    setExit(await (await load.doctor()).cmdDoctor({ home: homeOf(cmd), json: opts.json, ping: opts.ping }, io));
  });

registerSimulate(program, { io, homeOf, setExit });
registerSchedule(program, { io, homeOf, setExit });
registerWatchlist(program, { io, homeOf, setExit }, async (home) => (await configOf(home)).config.account.timezone);
registerMcp(program, { io, homeOf, setExit });

const research = program.command("research").description("point-in-time news research");
research
  .command("search")
  .description("what search_news would return to a run on a trading day: results, undated ones apart, and what each filter removed")
  .argument("<query>", "what to search for (not blank; at most 300 characters)")
  .requiredOption("--as-of <day>", "the trading day (YYYY-MM-DD): only news published before it")
  .option("--json", "print { as_of, results, undated, removed } (the public contract)", false)
  .option("--max <n>", "most results (1-10, default 5)")
  .action(async (query: string, opts: { asOf: string; json: boolean; max?: string }, cmd: Command) => {
    setExit(
      await (await load.research()).cmdResearchSearch(
        { home: homeOf(cmd), query, asOf: opts.asOf, json: opts.json, ...(opts.max !== undefined ? { max: opts.max } : {}) },
        io,
      ),
    );
  });

const configCmd = program.command("config").description("the configuration file (<home>/tradewarden.toml)");
configCmd
  .command("check")
  .description("load and validate the configuration and its universe, and what `run` checks before it starts; exit 2 naming every problem")
  .action(async (_o: unknown, cmd: Command) => {
    setExit((await import("./commands/config-check.js")).cmdConfigCheck({ home: homeOf(cmd) }, io));
  });
configCmd
  .command("show")
  .description("print the effective configuration (defaults applied) as JSON")
  .action(async (_o: unknown, cmd: Command) => {
    const { config, universe } = await configOf(homeOf(cmd));
    io.stdout(`${JSON.stringify({ ...config, universe }, null, 2)}\n`);
  });

/**
 * Runs one command line (`argv` as process.argv: node, script, then the arguments) with `callerIo`
 * and answers its exit code. Nothing here touches the process: bin/tradewarden.js runs it through
 * `runAsProcess`, tests call it in-process with an io that collects the output.
 */
export async function main(argv: readonly string[], callerIo: CommandIO): Promise<number> {
  // Whatever io the caller gave (the process's, or a test's), the command's text passes the redactor.
  current = redactedIO(callerIo);
  exitCode = EXIT.OK;
  beginCommandInterrupts();
  // Every secret in the environment is known to the redactor before anything is printed or written.
  registerSecretEnv(callerIo.env);
  try {
    await program.parseAsync([...argv]);
    // Every interrupted command answers 130, whenever its signal came (as its process exits).
    return interruptReceived() ? EXIT.INTERRUPTED : exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return EXIT.OK;
      return EXIT.USAGE_OR_CONFIG;
    }
    if (e instanceof TwError) {
      io.stderr(`tradewarden: ${e.message}\n`);
      return e.exitCode;
    }
    io.stderr(`tradewarden: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (io.env.TRADEWARDEN_DEBUG && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return EXIT.INTERNAL_ERROR;
  }
}

/** The CLI as a process (bin/tradewarden.js): `main` with the process's io, signals and exit code (src/commands/process-run.ts). */
export const runAsProcess = (): Promise<void> => runProcess(main);
