/**
 * The `data` command family's arguments (`data import`, `data import-alpaca`), registered on the
 * CLI's program. Both replace a symbol's bars, so both take the home's lock first, like every writer;
 * each command's module is loaded only when it runs.
 */
import { type Command, Option } from "commander";
import type { CliContext } from "./simulate-cli.js";

export function registerData(program: Command, { io, homeOf, setExit }: CliContext): void {
  const data = program.command("data").description("market data");
  data
    .command("import")
    .description("add your own daily bars (Date,Open,High,Low,Close,Volume) for a symbol")
    .requiredOption("--csv <file>", "CSV file")
    .requiredOption("--symbol <symbol>", "symbol the bars belong to")
    .option("--currency <code>", "the instrument's currency (default USD)")
    .action(async (opts: { csv: string; symbol: string; currency?: string }, cmd: Command) => {
      const home = homeOf(cmd);
      // A writer like every other: never replaces a symbol's bars while a run reads them.
      const { acquireLock } = await import("../journal/lock.js");
      const lock = await acquireLock(home, "sim");
      try {
        setExit(
          (await import("./data-import.js")).cmdDataImport(
            { home, csv: opts.csv, symbol: opts.symbol, ...(opts.currency ? { currency: opts.currency } : {}) },
            io,
          ),
        );
      } finally {
        await lock.release();
      }
    });

  data
    .command("import-alpaca")
    .description("daily bars of real symbols from Alpaca's market data API (keys from APCA_API_KEY_ID / APCA_API_SECRET_KEY)")
    .requiredOption("--symbols <list>", "comma-separated symbols, e.g. AAPL,MSFT")
    .requiredOption("--from <date>", "first date, YYYY-MM-DD")
    .requiredOption("--to <date>", "last date, YYYY-MM-DD")
    .addOption(new Option("--feed <feed>", "Alpaca data feed").choices(["iex", "sip", "delayed_sip"]).default("iex"))
    .action(async (opts: { symbols: string; from: string; to: string; feed: "iex" | "sip" | "delayed_sip" }, cmd: Command) => {
      const home = homeOf(cmd);
      // Replacing a symbol's bars while a run reads them would change its prices mid-run.
      const { acquireLock } = await import("../journal/lock.js");
      const lock = await acquireLock(home, "sim");
      try {
        setExit(
          await (await import("./data-import-alpaca.js")).cmdDataImportAlpaca(
            { home, symbols: [opts.symbols], from: opts.from, to: opts.to, env: io.env, feed: opts.feed },
            io,
          ),
        );
      } finally {
        await lock.release();
      }
    });
}
