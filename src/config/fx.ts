import type { Config } from "./types.js";

/** Instrument currency → base currency multiplier from the config's `[fx]` table (1 for the base itself). */
export function fxToBaseOf(config: Pick<Config, "fx" | "account">): (currency: string) => number | undefined {
  const base = config.account.base_currency.toUpperCase();
  return (currency) => {
    const c = currency.toUpperCase();
    return c === base ? 1 : config.fx[c];
  };
}

/**
 * The currencies of `universe` with no rate to the base currency in the config's `[fx]` table, each
 * with its instruments (sorted): an instrument priced in one can be neither valued nor traded.
 */
export function currenciesWithoutRate(
  config: Pick<Config, "fx" | "account">,
  universe: readonly { symbol: string; currency: string }[],
): Map<string, string[]> {
  const fx = fxToBaseOf(config);
  const out = new Map<string, string[]>();
  for (const i of universe) {
    const c = i.currency.toUpperCase();
    if (fx(c) === undefined) out.set(c, [...(out.get(c) ?? []), i.symbol.toUpperCase()].sort());
  }
  return out;
}
