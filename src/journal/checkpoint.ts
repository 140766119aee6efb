/** The head's checkpoint: the books the log folds to, written with each head so an open can check the log against it. */
import type { State } from "./state.js";
import type { Checkpoint } from "./types.js";

export function checkpointOf(s: State): Checkpoint {
  const holdings: Checkpoint["holdings"] = {};
  for (const [sym, h] of s.holdings) holdings[sym] = { quantity: h.qty.toString(), cost_basis_minor: h.basis.toString(), currency: h.currency };
  return {
    initialised: s.account !== null,
    base_currency: s.account?.currency ?? null,
    cash_minor: s.cash_minor,
    holdings,
    peak_minor: s.peak_minor,
    trading_state: s.trading_state,
    ledger_entries: s.ledger.length,
    fills: s.fillList.length,
  };
}
