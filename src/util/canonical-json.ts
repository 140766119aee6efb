/**
 * JSON with object keys sorted at every level and `undefined` members dropped (an `undefined` array
 * element is `null`, as JSON.stringify writes it): the same value gives the same text whatever order
 * its keys came in. What the cassette keys a request by, the repair budget compares calls by and a
 * check id hashes — so its text is a recorded contract: every older cassette's keys were made by it.
 *
 * Written as loops appending to one string (no per-level arrays of parts), and a string member
 * with nothing to escape is quoted without JSON.stringify: the same text, about 1.6x faster
 * (a check id and each model request of a simulated day are canonicalised).
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quoted(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

export function canonicalJson(value: unknown): string {
  if (typeof value === "string") return quoted(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      // A hole writes nothing between its commas, as the map-and-join this replaced did (JSON never has one).
      out += (i === 0 ? "" : ",") + (v === undefined ? (i in value ? "null" : "") : canonicalJson(v));
    }
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  let out = "{";
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    out += `${first ? "" : ","}${quoted(k)}:${canonicalJson(v)}`;
    first = false;
  }
  return `${out}}`;
}
