import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Two workers even on two cores (vitest's default would be one): most suites wait on child
    // processes (the real CLI, a pseudo-terminal, loopback servers), so a second worker keeps both
    // cores busy. Timing-sensitive tests wait for events, not for fixed sleeps.
    maxWorkers: 2,
    globalSetup: ["tests/global-setup.ts"],
    // Every tool result a test produces is checked against its output schema.
    setupFiles: ["tests/setup/tool-results.ts"],
    // The console tests draw Ink into fake terminals as a person would see it. Ink reads CI at
    // import time and would draw only a final frame on CI machines; the product itself drops these
    // variables before loading Ink on a real terminal (src/util/terminal-env.ts).
    env: { CI: "false", CONTINUOUS_INTEGRATION: "false" },
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
});
