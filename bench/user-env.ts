/**
 * The environment a benchmarked CLI process gets: the bench's own, less what a user's run would not
 * have. The test set-up (tests/global-setup.ts) also runs for `vitest bench`, and its variables are
 * not a user's: TRADEWARDEN_CHECK_TOOL_RESULTS arms the test-only output-schema check of every tool
 * result (~0.25 s of CPU a `run --yes`), NODE_OPTIONS preloads the spawn counter. Keys, a home and
 * colour settings from the developer's shell are dropped too, so every run starts alike.
 */
const DROPPED = new Set(["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "TAVILY_API_KEY", "NO_COLOR", "FORCE_COLOR", "NODE_OPTIONS"]);

export function userEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !DROPPED.has(k) && !k.startsWith("TRADEWARDEN_") && !k.startsWith("TW_TEST_")) env[k] = v;
  return env;
}
