/** `tradewarden tick` and `tradewarden schedule install|status|remove`: registered here, their modules loaded on demand. */
import type { Command } from "commander";
import type { CliContext } from "./simulate-cli.js";

export function registerSchedule(program: Command, { io, homeOf, setExit }: CliContext): void {
  program
    .command("tick")
    .description("what the installed timer runs every 15 minutes: starts the daily run when a schedule slot is due (cheap otherwise)")
    .action(async (_o: unknown, cmd: Command) => setExit(await (await import("./tick.js")).cmdTick({ home: homeOf(cmd) }, io)));
  const schedule = program.command("schedule").description("run the daily run by itself in the [schedule] slots: install, status, remove");
  schedule
    .command("install")
    .description("a systemd user timer (or a crontab entry where systemd does not run) calling `tradewarden tick` every 15 minutes")
    .action(async (_o: unknown, cmd: Command) => setExit((await import("./schedule.js")).cmdScheduleInstall({ home: homeOf(cmd) }, io)));
  schedule
    .command("status")
    .description("the slots, the next one (market and account time), the heartbeat, the last attempts, scheduled and manual runs")
    .option("--json", "as JSON", false)
    .action(async (opts: { json: boolean }, cmd: Command) =>
      setExit(await (await import("./schedule.js")).cmdScheduleStatus({ home: homeOf(cmd), json: opts.json }, io)),
    );
  schedule
    .command("remove")
    .description("undo exactly what `schedule install` did")
    .action(async (_o: unknown, cmd: Command) => setExit((await import("./schedule.js")).cmdScheduleRemove({ home: homeOf(cmd) }, io)));
}
