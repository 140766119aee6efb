/**
 * JSON with object keys sorted at every level and `undefined` members dropped (an `undefined` array
 * element is `null`, as JSON.stringify writes it): the same value gives the same text whatever order
 * its keys came in. What the cassette keys a request by, the repair budget compares calls by and a
 * check id hashes.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
}
