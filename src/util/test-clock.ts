/**
 * TEST-ONLY clock hook: the wall-clock "now" of the scheduler (`tradewarden tick`, `schedule status`,
 * doctor's schedule check). Like the fault hooks (src/util/test-fault.ts), no environment variable
 * or config sets it by itself: only code already running inside the process can, by setting the
 * registered symbol below on globalThis to an ISO 8601 instant — a test preloads
 * tests/fixtures/test-fault.mjs into the child (`node --import …`), which copies its
 * `TRADEWARDEN_TEST_NOW` into it. Without the symbol (or with an empty or unparsable value) this is
 * the wall clock.
 */
const TEST_NOW = Symbol.for("tradewarden.tests.now");

export function schedulerNow(): Date {
  const spec = (globalThis as Record<symbol, unknown>)[TEST_NOW];
  if (typeof spec === "string" && spec !== "") {
    const ms = Date.parse(spec);
    if (Number.isFinite(ms)) return new Date(ms);
  }
  return new Date();
}
