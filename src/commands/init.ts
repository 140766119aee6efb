/** `tradewarden init --capital N --currency C`: opens the virtual budget (once). */
import { acquireLock } from "../journal/lock.js";
import { openJournal } from "../journal/journal.js";
import { noticeTo } from "../journal/load.js";
import { exactMinor, fromMinor } from "../core/money.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";

export function reportError(e: unknown, io: CommandIO): number {
  if (e instanceof TwError) {
    io.stderr(`tradewarden: ${e.message}\n`);
    return e.exitCode;
  }
  io.stderr(`tradewarden: ${e instanceof Error ? e.message : String(e)}\n`);
  return EXIT.INTERNAL_ERROR;
}

export async function cmdInit(args: { home: string; capital: number | string; currency: string; timezone?: string }, io: CommandIO): Promise<number> {
  let lock: { release(): Promise<void> } | undefined;
  try {
    const currency = args.currency.toUpperCase();
    const minor = exactMinor(args.capital, currency, "--capital");
    if (minor <= 0) throw new TwError("invalid_amount", `--capital must be positive (got ${String(args.capital)})`, EXIT.USAGE_OR_CONFIG);
    lock = await acquireLock(args.home, "init");
    const journal = await openJournal(args.home, { timezone: args.timezone ?? "UTC", notice: noticeTo(io.stderr) });
    await journal.init({ capital: args.capital, currency, at: new Date() });
    io.stdout(`journal initialised in ${args.home}: ${fromMinor(minor, currency)} ${currency}\n`);
    return EXIT.OK;
  } catch (e) {
    return reportError(e, io);
  } finally {
    await lock?.release();
  }
}
