/**
 * The `simulate` command family's arguments (`simulate`, `simulate report|list|compare`), registered
 * on the CLI's program; each command's module is loaded only when it runs.
 */
import type { Command } from "commander";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";

export interface CliContext {
  io: CommandIO;
  homeOf: (cmd: Command) => string;
  setExit: (code: number) => void;
}

/** `simulate list --json`: commander hands a --json after the subcommand to `simulate`'s own --json. */
function jsonOf(opts: { json: boolean }, cmd: Command): boolean {
  return opts.json || cmd.parent?.opts<{ json?: boolean }>().json === true;
}

export function registerSimulate(program: Command, { io, homeOf, setExit }: CliContext): void {
  const collect = (v: string, prev: string[]) => [...prev, v];
  const simulateCmd = program
    .command("simulate")
    .description("the daily run over historical days in a simulation of its own (<home>/simulations/<name>/), ending with report.json and report.html")
    .option("--from <date>", "first trading day, exactly (YYYY-MM-DD; needs 20 trading days of data before it)")
    .option("--to <date>", "last day (YYYY-MM-DD; default: the market data's last day)")
    .option("--name <name>", "the simulation's folder name (default: generated from the dates)")
    .option("--config <file>", "a config file used instead of the home's tradewarden.toml")
    .option(
      "--set <key=value>",
      "override one config key for this simulation, typed by the config schema (repeatable), e.g. --set limits.max_drawdown_pct=10",
      collect,
      [],
    )
    .option("--model <choice>", "scripted[:POLICY] | anthropic[:MODEL_ID] | openai[:MODEL_ID] | config (the config's own model section)", "scripted")
    .option("--reset-after <days>", "reset a kill-switch halt automatically after this many halted trading days (default: stay halted)")
    .option("--json", "JSONL: a header, one object per day, then a summary", false)
    .option("--mask", "mask entities: the model sees opaque aliases, neutral names and shifted dates, never the real ones", false)
    .addHelpText(
      "after",
      `
  Also: simulate report NAME | simulate list | simulate compare A B ...

  Exit codes: 0 every day ran (kill-switch trips are results, shown in the summary and the report);
  1, 3 or 4 a day failed (internal error, reconciliation, data or broker); 2 bad input (a --from that
  is not a trading day with enough history, an invalid --set, an existing --name); 130 interrupted
  (Ctrl+C stops after the day in progress; the report covers the days done).`,
    )
    .action(
      async (
        opts: { from?: string; to?: string; name?: string; config?: string; set: string[]; model: string; resetAfter?: string; json: boolean; mask: boolean },
        cmd: Command,
      ) => {
        if (!opts.from) throw new TwError("usage", "simulate needs --from YYYY-MM-DD (or a subcommand: report, list, compare)", EXIT.USAGE_OR_CONFIG);
        const resetAfter = opts.resetAfter === undefined ? null : Number(opts.resetAfter);
        if (resetAfter !== null && (!Number.isInteger(resetAfter) || resetAfter < 0))
          throw new TwError("usage", `--reset-after ${opts.resetAfter}: a whole number of trading days`, EXIT.USAGE_OR_CONFIG);
        const live = process.stdout.isTTY === true && !opts.json;
        setExit(
          await (await import("./simulate.js")).cmdSimulate(
            {
              home: homeOf(cmd),
              from: opts.from,
              ...(opts.to ? { to: opts.to } : {}),
              ...(opts.name ? { name: opts.name } : {}),
              ...(opts.config ? { configFile: opts.config } : {}),
              model: opts.model,
              sets: opts.set,
              resetAfter,
              json: opts.json,
              mask: opts.mask,
              live,
              ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
            },
            io,
          ),
        );
      },
    );
  registerSimulateSubcommands(simulateCmd, { io, homeOf, setExit });
}

/** `simulate report NAME`, `simulate list`, `simulate compare A B ...`. */
function registerSimulateSubcommands(simulateCmd: Command, { io, homeOf, setExit }: Pick<CliContext, "io" | "homeOf" | "setExit">): void {
  simulateCmd
    .command("report")
    .description("rebuild a simulation's report.json and report.html from its day records")
    .argument("<name>", "the simulation's name")
    .option("--json", "print the report as JSON", false)
    .action(async (name: string, opts: { json: boolean }, cmd: Command) => {
      setExit((await import("./simulate-report.js")).cmdSimulateReport({ home: homeOf(cmd), name, json: jsonOf(opts, cmd) }, io));
    });
  simulateCmd
    .command("list")
    .description("every simulation of the home in a table")
    .option("--json", "as JSON", false)
    .action(async (opts: { json: boolean }, cmd: Command) => {
      setExit((await import("./simulate-report.js")).cmdSimulateList({ home: homeOf(cmd), json: jsonOf(opts, cmd) }, io));
    });
  simulateCmd
    .command("compare")
    .description("simulations' figures side by side")
    .argument("<names...>", "two or more simulation names")
    .option("--json", "as JSON", false)
    .action(async (names: string[], opts: { json: boolean }, cmd: Command) => {
      setExit((await import("./simulate-report.js")).cmdSimulateCompare({ home: homeOf(cmd), names, json: jsonOf(opts, cmd) }, io));
    });
}
