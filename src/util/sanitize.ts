/**
 * Model and tool text is untrusted: strip terminal escape sequences, control characters (keeping
 * newlines and tabs) and bidirectional overrides and isolates (which reorder what a line appears
 * to say) before anything draws it.
 */
// CSI, OSC (terminated by BEL or ST), and single-character escapes.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 (but \t and \n), DEL, C1; the Arabic letter mark, LRM/RLM, the bidi embeddings/overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export function sanitizeText(s: string): string {
  return UNSAFE.test(s) ? s.replace(ANSI, "").replace(CONTROL, "") : s;
}

/** One line, for tables and headers: newlines and tabs become spaces. */
export function sanitizeLine(s: string): string {
  return sanitizeText(s).replace(/[\n\t]+/g, " ");
}

/** Deeper than this, a value is not shown as it is (a display needs no more). */
const MAX_SHOWN_DEPTH = 64;

/**
 * Every string in `v` (object keys included) with `sanitizeText` applied; the same object back
 * when nothing needed it, so the common case allocates nothing.
 */
function sanitizeDeep<T>(v: T, depth = 0): T {
  if (typeof v === "string") return sanitizeText(v) as T;
  if (v === null || typeof v !== "object") return v;
  if (depth >= MAX_SHOWN_DEPTH) return "(nested too deep to show)" as T;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const s = sanitizeDeep(v[i], depth + 1);
      if (s !== v[i]) (out ??= v.slice())[i] = s;
    }
    return (out ?? v) as T;
  }
  let out: Record<string, unknown> | undefined;
  const entries = Object.entries(v as Record<string, unknown>);
  for (const [k, x] of entries) {
    const sk = sanitizeText(k);
    const sx = sanitizeDeep(x, depth + 1);
    if (sk !== k || sx !== x) {
      out ??= Object.fromEntries(entries);
      if (sk !== k) delete out[k];
      out[sk] = sx;
    }
  }
  return (out ?? v) as T;
}

/**
 * A run event as the console and the headless printer may show it: every string field sanitised
 * at the one boundary where events become display state or printed lines, so no field can skip it.
 * The streamed `model.text` delta is kept whole (an escape split across deltas is removed when
 * the text is drawn).
 */
export function displayEvent<E extends { type: string }>(e: E): E {
  if (e.type === "model.text") return e;
  return sanitizeDeep(e);
}

/** JSON text with the characters a terminal would act on (C1 controls, bidi marks) escaped: same value, nothing raw. */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
