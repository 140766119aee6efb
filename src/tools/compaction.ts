/**
 * Result compaction (pure). A result above the size budget is compacted progressively — items
 * kept per array and characters kept per string, level by level — so the output is always valid
 * JSON within the budget, keeps every envelope field, and carries `_truncation` saying what was
 * cut and how to narrow the query. Unlike the anchor, the last resort keeps the error envelope.
 */

export const DEFAULT_BUDGET_CHARS = 6000;
/** Budgets below this are raised to it: the envelope's own fields need some room. */
export const MIN_BUDGET_CHARS = 512;

const ENVELOPE_KEYS = ["success", "error", "error_code", "retryable", "correction"] as const;
const MAX_DEPTH = 6;

interface Level {
  items: number;
  chars: number;
  keys: number;
}
const LEVELS: Level[] = [
  { items: 8, chars: 240, keys: 64 },
  { items: 5, chars: 160, keys: 32 },
  { items: 3, chars: 100, keys: 16 },
  { items: 1, chars: 60, keys: 8 },
];

const NARROW =
  "The result was compacted to fit the context budget. Narrow the query (filters, fewer symbols, a shorter lookback) instead of guessing what was cut.";

export interface Truncation {
  truncated: true;
  original_characters: number;
  list_items_kept_per_array: number;
  string_characters_kept: number;
  instruction: string;
}

export interface Compacted {
  text: string;
  truncated: boolean;
  originalChars: number;
}

/** Cut a string so that its JSON encoding stays short (escapes can multiply the length). */
function cutString(s: string, chars: number): string {
  if (s.length <= chars) {
    return s;
  }
  let keep = chars;
  let out = `${s.slice(0, keep)}…[+${s.length - keep} chars]`;
  // Escaped characters can make the encoded form much longer; shrink until it fits 2× the target.
  while (keep > 0 && JSON.stringify(out).length > chars * 2 + 24) {
    keep = Math.floor(keep / 2);
    out = `${s.slice(0, keep)}…[+${s.length - keep} chars]`;
  }
  return out;
}

function compactValue(value: unknown, level: Level, depth: number): unknown {
  if (typeof value === "string") {
    const cut = cutString(value, level.chars);
    return cut;
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return `[array of ${value.length} items]`;
    const kept = value.slice(0, level.items).map((v) => compactValue(v, level, depth + 1));
    if (value.length > level.items) kept.push(`…[+${value.length - level.items} more items]`);
    return kept;
  }
  const keys = Object.keys(value);
  if (depth >= MAX_DEPTH) return `[object with ${keys.length} keys]`;
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const key of keys) {
    if (n >= level.keys) {
      out._omitted_keys = keys.length - level.keys;
      break;
    }
    const k = key.length > level.chars ? `${cutString(key, level.chars)}#${n}` : key;
    out[k] = compactValue((value as Record<string, unknown>)[key], level, depth + 1);
    n++;
  }
  return out;
}

function truncationInfo(original: number, level: Level | null): Truncation {
  return {
    truncated: true,
    original_characters: original,
    list_items_kept_per_array: level ? level.items : 0,
    string_characters_kept: level ? level.chars : 0,
    instruction: NARROW,
  };
}

/** The last resort: only the envelope fields, each reduced to a bounded size. */
function envelopeOnly(value: Record<string, unknown>, original: number, tight: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const chars = tight ? 40 : 120;
  for (const key of ENVELOPE_KEYS) {
    if (!Object.hasOwn(value, key)) continue;
    const v = value[key];
    if (key === "correction" && v !== null && typeof v === "object" && !Array.isArray(v)) {
      const c = v as Record<string, unknown>;
      const small: Record<string, unknown> = {};
      if (typeof c.tool === "string") small.tool = cutString(c.tool, 40);
      if (typeof c.instruction === "string") small.instruction = cutString(c.instruction, tight ? 60 : 200);
      if (!tight && c.valid_arguments_example !== undefined) {
        small.valid_arguments_example = compactValue(c.valid_arguments_example, { items: 1, chars: 30, keys: 6 }, 4);
      }
      small._summary = `correction compacted from ${Object.keys(c).length} fields`;
      out[key] = small;
    } else if (v !== null && typeof v === "object") {
      out[key] = Array.isArray(v) ? `[array of ${v.length} items]` : `[object with ${Object.keys(v).length} keys]`;
    } else if (typeof v === "string") {
      out[key] = cutString(v, chars);
    } else {
      out[key] = v;
    }
  }
  out._truncation = { ...truncationInfo(original, null), instruction: tight ? "Compacted: narrow the query." : NARROW };
  return out;
}

/** The same object with the envelope fields first, so no key cap can drop them. */
function envelopeFirst(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ENVELOPE_KEYS) if (Object.hasOwn(value, key)) out[key] = value[key];
  for (const key of Object.keys(value)) if (!Object.hasOwn(out, key)) out[key] = value[key];
  return out;
}

/**
 * Serialise a tool result within `budgetChars`. Non-object values are wrapped as `{value}` first.
 */
export function compactResult(result: unknown, budgetChars: number = DEFAULT_BUDGET_CHARS): Compacted {
  const budget = Math.max(MIN_BUDGET_CHARS, Math.floor(budgetChars));
  const value: Record<string, unknown> =
    result !== null && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : { value: result };
  const full = JSON.stringify(value);
  if (full.length <= budget) return { text: full, truncated: false, originalChars: full.length };
  const ordered = envelopeFirst(value);
  for (const level of LEVELS) {
    const c = compactValue(ordered, level, 0) as Record<string, unknown>;
    // Envelope fields are always present at the top level (compaction keeps every key it reaches).
    c._truncation = truncationInfo(full.length, level);
    const text = JSON.stringify(c);
    if (text.length <= budget) return { text, truncated: true, originalChars: full.length };
  }
  for (const tight of [false, true]) {
    const text = JSON.stringify(envelopeOnly(value, full.length, tight));
    if (text.length <= budget) return { text, truncated: true, originalChars: full.length };
  }
  // Unreachable for budgets ≥ MIN_BUDGET_CHARS; kept so the function can never exceed the budget.
  const minimal: Record<string, unknown> = { _truncation: { truncated: true, original_characters: full.length } };
  for (const key of ENVELOPE_KEYS) if (Object.hasOwn(value, key)) minimal[key] = typeof value[key] === "boolean" ? value[key] : "[cut]";
  return { text: JSON.stringify(minimal), truncated: true, originalChars: full.length };
}
