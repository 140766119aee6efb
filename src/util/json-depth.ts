/**
 * How deep a parsed JSON value nests, measured without recursion (a value nested 100,000 deep
 * must not overflow the stack of the code that checks it). Inputs from outside — scenario files,
 * model tool arguments — are refused past MAX_JSON_DEPTH before any recursive code sees them.
 */

/** Far deeper than any legitimate scenario or tool call (theirs is under 6). */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests objects/arrays deeper than `max` levels. */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The key of the shallow stand-in that replaces a model's too-deeply nested tool arguments. */
const TOO_DEEP_KEY = "$tradewarden_arguments_too_deep";

/** What replaces arguments nested past MAX_JSON_DEPTH (kept in the transcript, events and cassette). */
export function tooDeepStandIn(): Record<string, number> {
  return { [TOO_DEEP_KEY]: MAX_JSON_DEPTH };
}

/** True for the stand-in (also after a JSON round trip, as when a cassette is replayed). */
export function isTooDeepStandIn(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === TOO_DEEP_KEY;
}
