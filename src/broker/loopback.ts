/**
 * Loopback brokers are for tests only. The Alpaca client and the guard take an `allowLoopback`
 * constructor argument; the CLI never sets it from the environment or the config. The one way a
 * whole-CLI test reaches a loopback fake is code it preloads into the child process
 * (`node --import hook.mjs bin/tradewarden.js …`) that sets this registered symbol on globalThis —
 * something only code already running inside the process can do.
 */
export const LOOPBACK_BROKER_FOR_TESTS = Symbol.for("tradewarden.tests.allowLoopbackBroker");

export function loopbackAllowedForTests(): boolean {
  return (globalThis as Record<symbol, unknown>)[LOOPBACK_BROKER_FOR_TESTS] === true;
}
