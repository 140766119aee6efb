import type { Config } from "./types.js";

/** Instrument currency → base currency multiplier from the config's `[fx]` table (1 for the base itself). */
export function fxToBaseOf(config: Pick<Config, "fx" | "account">): (currency: string) => number | undefined {
  const base = config.account.base_currency.toUpperCase();
  return (currency) => {
    const c = currency.toUpperCase();
    return c === base ? 1 : config.fx[c];
  };
}
