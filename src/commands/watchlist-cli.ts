/** `tradewarden watchlist [--json]`: registered here, its module loaded on demand. */
import type { Command } from "commander";
import type { CliContext } from "./simulate-cli.js";

export function registerWatchlist(program: Command, { io, homeOf, setExit }: CliContext, timezoneOf: (home: string) => Promise<string>): void {
  program
    .command("watchlist")
    .description("the live watchlist the agent keeps (read only, from the journal)")
    .option("--json", "as JSON: { as_of_trading_day, items }", false)
    .action(async (opts: { json: boolean }, cmd: Command) => {
      const home = homeOf(cmd);
      const timezone = await timezoneOf(home);
      setExit(await (await import("./watchlist.js")).cmdWatchlist({ home, json: opts.json, timezone }, io));
    });
}
