/** `tradewarden deposit N`: adds money to the virtual budget (append-only). */
import { acquireLock } from "../journal/lock.js";
import { openJournal } from "../journal/journal.js";
import { noticeTo } from "../journal/load.js";
import { fromMinor } from "../core/money.js";
import { EXIT } from "../core/exit-codes.js";
import type { CommandIO } from "./io.js";
import { reportError } from "./init.js";

export async function cmdDeposit(args: { home: string; amount: number | string; note?: string; timezone?: string }, io: CommandIO): Promise<number> {
  let lock: { release(): Promise<void> } | undefined;
  try {
    lock = await acquireLock(args.home, "deposit");
    const journal = await openJournal(args.home, { timezone: args.timezone ?? "UTC", notice: noticeTo(io.stderr) });
    const entry = await journal.deposit({ amount: args.amount, at: new Date(), ...(args.note ? { note: args.note } : {}) });
    const cur = journal.baseCurrency();
    io.stdout(`deposited ${fromMinor(entry.amount_minor, cur)} ${cur}; cash is now ${journal.cash()} ${cur}\n`);
    return EXIT.OK;
  } catch (e) {
    return reportError(e, io);
  } finally {
    await lock?.release();
  }
}
