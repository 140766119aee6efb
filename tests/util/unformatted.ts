/**
 * Finds numbers and times a person reads that did not go through the one formatter (src/core/format.ts):
 * a decimal with more places than a currency's or tick's (LLM spend in USD, `$0.0123`, excepted),
 * a 4+-digit number without thousands separators, an amount (n,nnn.nn) on a line naming no currency,
 * an ISO timestamp (T…Z), a wall-clock time glued to a date with no time zone. Years, dates, run ids,
 * order ids, paths and ports are not numbers a person reads as amounts and are skipped.
 */

export interface Finding {
  line: string;
  token: string;
  rule: string;
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const CURRENCY = /\b(USD|EUR|GBP|JPY|CHF|CAD|AUD|KWD)\b/;

/** Words before a price (an instrument's quote, not an amount of the account's money). */
const PRICE_BEFORE = /(close|SMA\d*|@|high|low|price|cost|at|limit|trigger|reference)\s*$/i;

/** A table's header: the nearest line above with no digit in it (it may name the currency of its columns). */
type Ctx = { line: string; at: number; header: string };

const RULES: ReadonlyArray<{ rule: string; re: RegExp; ok?: (token: string, c: Ctx) => boolean }> = [
  { rule: "ISO timestamp shown to a person", re: /\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z?/g },
  { rule: "wall-clock time glued to a date with no time zone", re: /\d{4}-\d\d-\d\d[ ·]+\d\d:\d\d(?::\d\d)?(?![:\d])(?! ?(UTC|[A-Z]{2,4}\b|[+-]\d\d))/g },
  {
    rule: "more decimals than a currency or tick has",
    re: /(?<![\w.$\-/])\$?\d[\d,]*\.\d{3,}(?![\d.\w])/g,
    ok: (t) => /^\$\d[\d,]*\.\d{4}$/.test(t),
  },
  {
    rule: "4+ digits without thousands separators",
    re: /(?<![\w.:\-/#,@])\d{4,}(?:\.\d+)?(?![\w\-:/,]|\.\d)/g,
    ok: (t) => /^(19|20)\d\d$/.test(t),
  },
  {
    rule: "amount without its currency",
    re: /(?<![\w.])\d{1,3}(?:,\d{3})+\.\d\d(?!\d)/g,
    ok: (_t, c) => CURRENCY.test(c.line) || CURRENCY.test(c.header) || PRICE_BEFORE.test(c.line.slice(0, c.at)),
  },
];

/** Every unformatted number or time in `text` (ANSI colour codes removed first). */
export function unformatted(text: string): Finding[] {
  const out: Finding[] = [];
  let header = "";
  for (const raw of text.split("\n")) {
    const line = raw.replace(ANSI, "");
    for (const { rule, re, ok } of RULES) {
      for (const m of line.matchAll(re)) if (!ok?.(m[0], { line, at: m.index, header })) out.push({ line: line.trim(), token: m[0], rule });
    }
    if (line.trim() && !/\d/.test(line)) header = line;
  }
  return out;
}

/** A readable list of findings for an assertion message ("" when there are none). */
export function findingsText(what: string, text: string): string {
  return unformatted(text)
    .map((f) => `${what}: ${f.rule}: "${f.token}" in: ${f.line.slice(0, 200)}`)
    .join("\n");
}
