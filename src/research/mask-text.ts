/**
 * Text rewriting for entity masking: one pass of one regular expression per direction, so a
 * replacement is never rewritten again. Tokens (instrument symbols, names, real-world terms) map
 * one to one onto neutral labels; calendar dates shift by a constant number of days (a multiple of
 * 7, so weekdays survive), whatever their year; bare years and "Month YYYY" shift by the matching
 * number of years.
 * Real years are 1980–2029; shifted years land beyond 2030, so the two ranges never meet and
 * unmasking inverts masking exactly. Pure.
 */
import { escapeRegExp } from "../util/regex.js";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const MONTH_RE = MONTHS.join("|");
export const REAL_YEAR_MIN = 1980;
export const REAL_YEAR_MAX = 2029;

function shiftIso(day: string, days: number): string | null {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== day) return null;
  d.setUTCDate(d.getUTCDate() + days);
  const out = d.toISOString().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(out) ? out : null;
}

function shiftLong(month: string, day: string, year: string, days: number): string | null {
  const m = MONTHS.indexOf(month) + 1;
  const iso = `${year}-${String(m).padStart(2, "0")}-${day.padStart(2, "0")}`;
  const shifted = shiftIso(iso, days);
  if (!shifted) return null;
  const [y, mm, dd] = shifted.split("-");
  return `${MONTHS[Number(mm) - 1]} ${Number(dd)}, ${y}`;
}

export type TextRewriter = (text: string) => string;

/**
 * A rewriter for one direction. `tokens` maps source tokens to target tokens (matched as whole
 * words, longest first); dates move by `days` and years by `years`; bare years are rewritten only
 * inside [yearMin, yearMax].
 */
export function makeRewriter(tokens: ReadonlyMap<string, string>, days: number, years: number, yearMin: number, yearMax: number): TextRewriter {
  const words = [...tokens.keys()].sort((a, b) => b.length - a.length || a.localeCompare(b));
  const tokenAlt = words.length > 0 ? words.map(escapeRegExp).join("|") : "(?!)";
  const re = new RegExp(
    [
      "(?<![0-9])(\\d{4}-\\d{2}-\\d{2})(?![0-9])",
      `\\b(${MONTH_RE}) (\\d{1,2}), (\\d{4})(?![0-9])`,
      `\\b(${MONTH_RE}) (\\d{4})(?![0-9])`,
      `(?<![A-Za-z0-9])(${tokenAlt})(?![A-Za-z0-9])`,
      "(?<![0-9])(\\d{4})(?![0-9])",
    ].join("|"),
    "g",
  );
  const inRange = (y: number) => y >= yearMin && y <= yearMax;
  return (text: string) =>
    text.replace(re, (whole, iso?: string, lm?: string, ld?: string, ly?: string, mm?: string, my?: string, tok?: string, year?: string) => {
      if (iso !== undefined) return shiftIso(iso, days) ?? whole;
      if (lm !== undefined && ld !== undefined && ly !== undefined) return shiftLong(lm, ld, ly, days) ?? whole;
      if (mm !== undefined && my !== undefined) return inRange(Number(my)) ? `${mm} ${Number(my) + years}` : whole;
      if (tok !== undefined) return tokens.get(tok) ?? whole;
      if (year !== undefined) return inRange(Number(year)) ? String(Number(year) + years) : whole;
      return whole;
    });
}

/** Real-looking dates in a text (ISO dates and bare years in the real range): what a leak scan looks for. */
export function realDatesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![0-9])(\d{4})-\d{2}-\d{2}(?![0-9])/g)) if (Number(m[1]) >= REAL_YEAR_MIN && Number(m[1]) <= REAL_YEAR_MAX) out.push(m[0]);
  for (const m of text.matchAll(new RegExp(`\\b(?:${MONTH_RE}) (?:\\d{1,2}, )?(\\d{4})(?![0-9])`, "g"))) {
    if (Number(m[1]) >= REAL_YEAR_MIN && Number(m[1]) <= REAL_YEAR_MAX) out.push(m[0]);
  }
  return out;
}
