import { defineConfig } from "vitest/config";

/** What every test file gets, whichever project runs it. */
const common = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: "forks" as const,
  // Every tool result a test produces is checked against its output schema.
  setupFiles: ["tests/setup/tool-results.ts"],
  // The console tests draw Ink into fake terminals as a person would see it. Ink reads CI at
  // import time and would draw only a final frame on CI machines; the product itself drops these
  // variables before loading Ink on a real terminal (src/util/terminal-env.ts).
  env: { CI: "false", CONTINUOUS_INTEGRATION: "false" },
};

const ALL = ["tests/**/*.test.ts", "tests/**/*.test.tsx"];

/**
 * Folders of in-process tests that leave no state behind them (no module mocks, no environment or
 * working-directory changes, no signal handlers): their files share one module graph per worker
 * (`isolate: false`) instead of each loading the product afresh, which cost ~1 s a file. Every
 * other folder (the real CLI, terminals, loopback servers, locks, module mocks) keeps a fresh
 * process per file.
 */
const SHARED = [
  "tests/*.test.ts",
  ...["agent", "broker", "config", "core", "docs", "executor", "gate", "market", "notify", "screens", "simulation", "tools", "types"].flatMap((d) => [
    `tests/${d}/**/*.test.ts`,
    `tests/${d}/**/*.test.tsx`,
  ]),
];

export default defineConfig({
  test: {
    // Two workers even on two cores (vitest's default would be one): most suites wait on child
    // processes (the real CLI, a pseudo-terminal, loopback servers), so a second worker keeps both
    // cores busy. Timing-sensitive tests wait for events, not for fixed sleeps.
    maxWorkers: 2,
    // Run once for the whole run (not per project): it builds the CLI and counts its processes.
    globalSetup: ["tests/global-setup.ts"],
    projects: [
      // `npm run bench` runs the benches once, in the isolated project.
      { test: { ...common, name: "shared", include: SHARED, isolate: false, benchmark: { include: [] } } },
      { test: { ...common, name: "isolated", include: ALL, exclude: SHARED, benchmark: { include: ["bench/**/*.bench.ts"] } } },
    ],
  },
});
