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

interface Truncation {
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

/** Characters JSON.stringify escapes (or may: lone surrogates); strings without them encode as `"s"`. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function encodedStringLength(s: string): number {
  // A char-code scan beats a regex call on the short strings results are made of.
  if (s.length > 64) return NEEDS_ESCAPE.test(s) ? JSON.stringify(s).length : s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s).length;
  }
  return s.length + 2;
}

/** Encoded lengths of object keys, which repeat across the records of a result. */
const keyLengths = new Map<string, number>();

function encodedKeyLength(key: string): number {
  let n = keyLengths.get(key);
  if (n === undefined) {
    n = encodedStringLength(key);
    if (keyLengths.size >= 4096) keyLengths.clear();
    keyLengths.set(key, n);
  }
  return n;
}

/** Cut a string so that its JSON encoding stays short (escapes can multiply the length). */
function cutString(s: string, chars: number): string {
  if (s.length <= chars && encodedStringLength(s) <= chars * 2 + 24) {
    return s;
  }
  let keep = Math.min(chars, s.length);
  let out = `${s.slice(0, keep)}…[+${s.length - keep} chars]`;
  // Escaped characters can make the encoded form much longer; shrink until it fits 2× the target.
  while (keep > 0 && JSON.stringify(out).length > chars * 2 + 24) {
    keep = Math.floor(keep / 2);
    out = `${s.slice(0, keep)}…[+${s.length - keep} chars]`;
  }
  return out;
}

/** Assign without invoking the `__proto__` setter (a JSON key named "__proto__" must stay a key). */
function setKey(out: Record<string, unknown>, key: string, v: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  else out[key] = v;
}

function compactValue(value: unknown, level: Level, depth: number): unknown {
  if (typeof value === "string") {
    const cut = cutString(value, level.chars);
    return cut;
  }
  if (value === null || typeof value !== "object") return value;
  // Compact what JSON.stringify would write (a Date becomes its ISO string, not `{}`).
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return compactValue((value as { toJSON: () => unknown }).toJSON(), level, depth);
  }
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
    setKey(out, k, compactValue((value as Record<string, unknown>)[key], level, depth + 1));
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
  for (const key of Object.keys(value)) if (!Object.hasOwn(out, key)) setKey(out, key, value[key]);
  return out;
}

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** Digits of a non-negative integer below 1e15. */
function digitCount(a: number): number {
  let d = 1;
  while (d < 15 && a >= (POW10[d] as number)) d++;
  return d;
}

/**
 * Length of `JSON.stringify(n)` without formatting the number (double-to-shortest conversion is
 * what makes stringifying price data slow). Integers and decimals with up to 6 places and fewer
 * than 15 significant digits are measured arithmetically: for such a value `m / 10^k` (k minimal),
 * the shortest round-trip form is exactly that decimal. Anything else is formatted.
 */
function numberLength(n: number): number {
  if (!Number.isFinite(n)) return 4; // null
  const neg = n < 0 ? 1 : 0;
  const a = neg ? -n : n;
  if (a < 1e15) {
    if (Number.isInteger(a)) return neg + digitCount(a);
    if (a >= 1e-6) {
      for (let k = 1; k <= 6; k++) {
        const p = POW10[k] as number;
        const m = Math.round(a * p);
        if (m < 1e15 && m / p === a) return neg + Math.max(digitCount(m), k + 1) + 1;
      }
    }
  }
  return String(n).length;
}

/** Plain data JSON.stringify writes field by field; anything else is measured by stringifying it. */
function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The key list last measured by `jsonLength`, and the length of its keys part. */
let shapeKeys: string[] | null = null;
let shapeLength = 0;

/**
 * The exact length of `JSON.stringify(value)` (undefined where it writes nothing), computed without
 * building the string. Throws where JSON.stringify throws (BigInt, cycles).
 */
export function jsonLength(value: unknown, depth = 0): number | undefined {
  switch (typeof value) {
    case "string":
      return encodedStringLength(value);
    case "number":
      return numberLength(value);
    case "boolean":
      return value ? 4 : 5;
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "bigint":
      return JSON.stringify(value).length; // throws the same TypeError
  }
  if (value === null) return 4;
  const obj = value as object;
  if (depth > 64 || typeof (obj as { toJSON?: unknown }).toJSON === "function") {
    const text = JSON.stringify(obj);
    return text === undefined ? undefined : text.length;
  }
  if (Array.isArray(obj)) {
    if (Object.getPrototypeOf(obj) !== Array.prototype) return JSON.stringify(obj).length;
    let n = obj.length + 1; // brackets and commas
    if (obj.length === 0) return 2;
    for (let i = 0; i < obj.length; i++) {
      const v = obj[i];
      n += typeof v === "number" ? numberLength(v) : typeof v === "string" ? encodedStringLength(v) : (jsonLength(v, depth + 1) ?? 4);
    }
    return n;
  }
  if (!isPlainObject(obj)) return JSON.stringify(obj).length;
  const rec = obj as Record<string, unknown>;
  const keys = Object.keys(rec);
  // The records of one result usually share their keys: measure the keys (with braces, colons and
  // commas) once per shape. Valid while every value is written; otherwise fall through.
  if (keys.length > 0) {
    let same = shapeKeys !== null && shapeKeys.length === keys.length;
    for (let i = 0; same && i < keys.length; i++) same = keys[i] === (shapeKeys as string[])[i];
    if (!same) {
      let k = 2 + keys.length - 1;
      for (const key of keys) k += encodedKeyLength(key) + 1;
      shapeKeys = keys;
      shapeLength = k;
    }
    let n = shapeLength;
    let written = true;
    for (let i = 0; i < keys.length; i++) {
      const v = rec[keys[i] as string];
      const len = typeof v === "number" ? numberLength(v) : typeof v === "string" ? encodedStringLength(v) : jsonLength(v, depth + 1);
      if (len === undefined) {
        written = false;
        break;
      }
      n += len;
    }
    if (written) return n;
  }
  let n = 2;
  let fields = 0;
  for (const key of keys) {
    const v = rec[key];
    // Inline the common leaves; recurse for the rest.
    const len = typeof v === "number" ? numberLength(v) : typeof v === "string" ? encodedStringLength(v) : jsonLength(v, depth + 1);
    if (len === undefined) continue;
    n += encodedKeyLength(key) + 1 + len;
    fields++;
  }
  return fields > 1 ? n + fields - 1 : n;
}

/**
 * Serialise a tool result within `budgetChars`. A result that fits is returned exactly as
 * JSON.stringify writes it; one that does not is compacted (a non-object result is wrapped as
 * `{value}` first, so `_truncation` has a home). The size is measured with `jsonLength`, so a big
 * result is never formatted in full — only its compacted form is.
 */
export function compactResult(result: unknown, budgetChars: number = DEFAULT_BUDGET_CHARS): Compacted {
  const budget = Number.isFinite(budgetChars) ? Math.max(MIN_BUDGET_CHARS, Math.floor(budgetChars)) : DEFAULT_BUDGET_CHARS;
  // Measure before stringifying: a 100 KB result is never formatted in full, only its compacted form.
  const size = jsonLength(result);
  if (size !== undefined && size <= budget) {
    const text = JSON.stringify(result);
    return { text, truncated: false, originalChars: text.length };
  }
  // A non-object result (or one too big) is wrapped as `{value}` so `_truncation` has a home.
  const value: Record<string, unknown> =
    result !== null && typeof result === "object" && !Array.isArray(result) && typeof (result as { toJSON?: unknown }).toJSON !== "function"
      ? (result as Record<string, unknown>)
      : { value: result };
  const original = size ?? 0;
  if (size === undefined) {
    // undefined (or a function): JSON.stringify writes nothing; say so in valid JSON.
    const text = JSON.stringify(value);
    return { text, truncated: false, originalChars: text.length };
  }
  const ordered = envelopeFirst(value);
  for (const level of LEVELS) {
    const c = compactValue(ordered, level, 0) as Record<string, unknown>;
    // Envelope fields are always present at the top level (compaction keeps every key it reaches).
    c._truncation = truncationInfo(original, level);
    const text = JSON.stringify(c);
    if (text.length <= budget) return { text, truncated: true, originalChars: original };
  }
  for (const tight of [false, true]) {
    const text = JSON.stringify(envelopeOnly(value, original, tight));
    if (text.length <= budget) return { text, truncated: true, originalChars: original };
  }
  // The floor: every envelope field still present (booleans, numbers and short codes as they are).
  const small = (v: unknown): unknown =>
    typeof v === "boolean" || v === null || (typeof v === "number" && String(v).length <= 24)
      ? v
      : typeof v === "string" && v.length <= 60 && encodedStringLength(v) <= 62
        ? v
        : "[cut]";
  const minimal: Record<string, unknown> = {};
  for (const key of ENVELOPE_KEYS) {
    if (!Object.hasOwn(value, key)) continue;
    const v = value[key];
    const tool = key === "correction" && v !== null && typeof v === "object" ? (v as Record<string, unknown>).tool : undefined;
    minimal[key] = tool !== undefined ? { tool: small(tool) } : small(v);
  }
  minimal._truncation = { truncated: true, original_characters: original };
  return { text: JSON.stringify(minimal), truncated: true, originalChars: original };
}
