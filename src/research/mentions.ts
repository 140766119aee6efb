/**
 * Which instruments a text names: the symbol as a whole upper-case word, or the instrument's name
 * (its part before any parenthesis, without a trailing "index"), case-insensitively. Grounding uses
 * it to decide whether a news item is about an order's instrument. Pure.
 */
import type { Instrument } from "../core/domain.js";
import { escapeRegExp } from "../util/regex.js";

export function nameCore(name: string | undefined): string | null {
  if (!name) return null;
  const core = name
    .replace(/\s*\(.*$/, "")
    .replace(/\s+index$/i, "")
    .trim();
  return core.length >= 3 ? core : null;
}

export function mentionsOf(universe: readonly Pick<Instrument, "symbol" | "name">[]): (text: string) => string[] {
  const rules = universe.map((i) => {
    const sym = new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(i.symbol.toUpperCase())}(?![A-Za-z0-9])`);
    const core = nameCore(i.name);
    const name = core ? new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(core)}(?![A-Za-z0-9])`, "i") : null;
    return { symbol: i.symbol.toUpperCase(), sym, name };
  });
  return (text) => rules.filter((r) => r.sym.test(text) || r.name?.test(text) === true).map((r) => r.symbol);
}
