/**
 * `tradewarden killswitch [reset|trip]` and `tradewarden standing [approve|reject]`: the operator's
 * commands on the account's halt and on the standing orders the model proposed. Each loads its
 * command module on demand, so `--help` and light commands start fast.
 */
import type { Command } from "commander";
import type { CliContext } from "./simulate-cli.js";

export function registerKillSwitchAndStanding(program: Command, ctx: CliContext): void {
  registerKillSwitch(program, ctx);
  registerStanding(program, ctx);
}

function registerKillSwitch(program: Command, { io, homeOf, setExit }: CliContext): void {
  const killswitch = program
    .command("killswitch")
    .description("why trading halted, and its reset (on a terminal: the reset screen); `killswitch trip` halts it")
    .option("--json", "print the facts as JSON", false)
    .action(async (opts: { json: boolean }, cmd: Command) => {
      const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
      setExit(await (await import("./killswitch.js")).cmdKillSwitchShow({ home: homeOf(cmd), json: opts.json, interactive }, io));
    });
  killswitch
    .command("reset")
    .description("reset a halt for scripts: the current value becomes the peak; REDUCING for the configured runs")
    .option("-y, --yes", "confirm the reset", false)
    .option("--reason <text>", "why trading may resume (recorded in the journal)")
    .option("--who <name>", "who resets (default: the current user)")
    .action(async (opts: { yes: boolean; reason?: string; who?: string }, cmd: Command) => {
      setExit(
        await (await import("./killswitch.js")).cmdKillSwitchReset(
          { home: homeOf(cmd), yes: opts.yes, ...(opts.reason !== undefined ? { reason: opts.reason } : {}), ...(opts.who ? { who: opts.who } : {}) },
          io,
        ),
      );
    });
  killswitch
    .command("trip")
    .description("halt trading now (the operator's trip, recorded in the journal); the next run that can trade sells what is held")
    .option("--reason <text>", "why (required; recorded in the journal)")
    .option("-y, --yes", "confirm without typing the confirmation word (only asked on a terminal)", false)
    .action(async (opts: { yes: boolean; reason?: string }, cmd: Command) => {
      const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
      setExit(
        await (await import("./killswitch.js")).cmdKillSwitchTrip(
          { home: homeOf(cmd), yes: opts.yes, interactive, ...(opts.reason !== undefined ? { reason: opts.reason } : {}) },
          io,
        ),
      );
    });
}

function registerStanding(program: Command, { io, homeOf, setExit }: CliContext): void {
  const standing = program
    .command("standing")
    .description("standing orders the model proposed: list them; approve (arm) or reject one")
    .option("--json", "as JSON", false)
    .action(async (opts: { json: boolean }, cmd: Command) => {
      setExit(await (await import("./standing.js")).cmdStandingList({ home: homeOf(cmd), json: opts.json }, io));
    });
  standing
    .command("approve")
    .description("arm a proposed standing order (the approval binds to its trigger and order; recorded in the journal)")
    .argument("<id>", "the standing order's id, e.g. so-1")
    .option("-y, --yes", "confirm", false)
    .option("--who <name>", "who approves (default: the current user)")
    .option("--reason <text>", "a note recorded with the approval")
    .action(async (id: string, opts: { yes: boolean; who?: string; reason?: string }, cmd: Command) => {
      setExit(
        await (await import("./standing.js")).cmdStandingDecide(
          {
            home: homeOf(cmd),
            id,
            decision: "approve",
            yes: opts.yes,
            ...(opts.who ? { who: opts.who } : {}),
            ...(opts.reason ? { reason: opts.reason } : {}),
          },
          io,
        ),
      );
    });
  standing
    .command("reject")
    .description("reject a proposed standing order")
    .argument("<id>", "the standing order's id")
    .option("--who <name>", "who rejects (default: the current user)")
    .option("--reason <text>", "why (recorded in the journal)")
    .action(async (id: string, opts: { who?: string; reason?: string }, cmd: Command) => {
      setExit(
        await (await import("./standing.js")).cmdStandingDecide(
          { home: homeOf(cmd), id, decision: "reject", yes: true, ...(opts.who ? { who: opts.who } : {}), ...(opts.reason ? { reason: opts.reason } : {}) },
          io,
        ),
      );
    });
}
