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

type Named = Pick<Instrument, "symbol" | "name">;

function matcherOf(universe: readonly Named[]): (text: string) => string[] {
  const rules = universe.map((i) => {
    const sym = new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(i.symbol.toUpperCase())}(?![A-Za-z0-9])`);
    const core = nameCore(i.name);
    const name = core ? new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(core)}(?![A-Za-z0-9])`, "i") : null;
    return { symbol: i.symbol.toUpperCase(), sym, name };
  });
  return (text) => rules.filter((r) => r.sym.test(text) || r.name?.test(text) === true).map((r) => r.symbol);
}

/**
 * Matchers by universe: every day of a simulation builds its tools over the same universe, and two
 * regular expressions per instrument per day were ~1% of a day. The matcher keeps no state (no `g`
 * flag); it is used again only while the universe still names the same symbols and names, in order
 * (a universe is not frozen: one changed in place gets a new matcher).
 */
const matchers = new WeakMap<readonly Named[], { names: (string | undefined)[]; match: (text: string) => string[] }>();

const namesOf = (universe: readonly Named[]): (string | undefined)[] => universe.flatMap((i) => [i.symbol, i.name]);

export function mentionsOf(universe: readonly Named[]): (text: string) => string[] {
  const names = namesOf(universe);
  const hit = matchers.get(universe);
  if (hit && hit.names.length === names.length && hit.names.every((n, i) => n === names[i])) return hit.match;
  const match = matcherOf(universe);
  matchers.set(universe, { names, match });
  return match;
}
