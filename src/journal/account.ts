/** The account's opening and its deposits, as journal events (the only entries of the ledger's own making). */
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import { exactMinor, fromMinor } from "../core/money.js";
import type { State } from "./state.js";
import { iso } from "./time.js";
import type { JournalEventBody, LedgerEntry } from "./types.js";

/** An amount a person gave (a number or the decimal text they typed), in major units; core/money.ts `Money` is the exact amount. */
export type AmountInput = number | string;

export function usage(code: string, message: string): TwError {
  return new TwError(code, message, EXIT.USAGE_OR_CONFIG);
}

/** The `init` event: refused when the journal is already initialised or the capital is not positive. */
export function initEvents(s: State, args: { capital: AmountInput; currency: string; at: Date | string }): { events: JournalEventBody[]; result: undefined } {
  if (s.account) {
    throw usage(
      "already_initialised",
      `the journal is already initialised (${fromMinor(s.account.capital_minor, s.account.currency)} ${s.account.currency} on ${s.account.at}); add money with \`tradewarden deposit N\``,
    );
  }
  const currency = args.currency.toUpperCase();
  const capital_minor = exactMinor(args.capital, currency, "the capital");
  if (capital_minor <= 0) throw usage("invalid_amount", `capital must be positive (got ${String(args.capital)})`);
  return { events: [{ t: "init", currency, capital_minor, at: iso(args.at) }], result: undefined };
}

/** A `deposit` event and the ledger entry it will become (append-only; there are no withdrawals). */
export function depositEvents(
  s: State,
  currency: string,
  args: { amount: AmountInput; at: Date | string; note?: string },
): { events: JournalEventBody[]; result: LedgerEntry } {
  const amount_minor = exactMinor(args.amount, currency, "a deposit");
  if (amount_minor <= 0) throw usage("invalid_amount", `a deposit must be positive (got ${String(args.amount)})`);
  const ev: JournalEventBody = { t: "deposit", amount_minor, at: iso(args.at), ...(args.note ? { note: args.note } : {}) };
  return { events: [ev], result: { seq: s.ledger.length + 1, kind: "deposit" as const, amount_minor, at: ev.at, ...(args.note ? { note: args.note } : {}) } };
}
