import { defineConfig } from "vitest/config";

/** What every test file gets, whichever project runs it. */
const common = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: "forks" as const,
  // Every tool result a test produces is checked against its output schema.
  setupFiles: ["tests/setup/tool-results.ts", "tests/setup/fresh-redactor.ts"],
  // The console tests draw Ink into fake terminals as a person would see it. Ink reads CI at
  // import time and would draw only a final frame on CI machines; the product itself drops these
  // variables before loading Ink on a real terminal (src/util/terminal-env.ts).
  env: { CI: "false", CONTINUOUS_INTEGRATION: "false" },
};

const ALL = ["tests/**/*.test.ts", "tests/**/*.test.tsx"];

/**
 * Folders whose tests leave no state behind them (no module mocks, no environment or
 * working-directory changes, no signal handlers or timers left, children and loopback servers they
 * start are stopped by the file's own hooks; an environment a test needs is a child's or is set with
 * vi.stubEnv): their files share one module graph per worker (`isolate: false`) instead of each
 * loading the product afresh, which cost ~1 s a file. What a fresh process would forget is reset
 * before every file by the setup files (the redactor's secrets: tests/setup/fresh-redactor.ts).
 * A helper module's own hooks would hold for the first file that loads it only: helpers clean up
 * from inside the test instead (onTestFinished, tests/pty/helpers.ts). Every other folder (the real
 * CLI's end-to-end runs, module mocks, process-wide test hooks) keeps a fresh process per file.
 */
const SHARED = [
  "tests/*.test.ts",
  ...[
    "agent",
    "broker",
    "commands",
    "config",
    "core",
    "docs",
    "executor",
    "gate",
    "journal",
    "market",
    "mcp",
    "notify",
    "pty",
    "records",
    "recovery",
    "reliability",
    "research",
    "run",
    "schedule",
    "screens",
    "simulation",
    "tools",
    "types",
  ].flatMap((d) => [
    `tests/${d}/**/*.test.ts`,
    `tests/${d}/**/*.test.tsx`,
  ]),
  // End-to-end files whose commands all run in-process (`twIn`: src/cli.tsx main) and start no CLI
  // process of their own. A file that comes to need `tw` (a real process) leaves this list.
  ...[
    "account-truth.test.tsx",
    "approve-decided.test.ts",
    "artifacts.test.ts",
    "bad-input-config.test.ts",
    "bad-input-lifecycle.test.ts",
    "bad-input-shapes.test.ts",
    "bad-input-sim-book.test.ts",
    "bad-input-state.test.ts",
    "config-check-guard.test.ts",
    "export.test.ts",
    "formatted-numbers.test.ts",
    "killswitch-trip.test.ts",
    "market-tools.test.ts",
    "reconcile.test.ts",
    "research.test.ts",
    "run-ids.test.ts",
    "simulate-report-marks.test.ts",
    "simulate.test.ts",
    "standing-orders.test.ts",
    "tools-and-watch.test.ts",
    "watchlist.test.ts",
    "words.test.ts",
  ].map((f) => `tests/e2e/${f}`),
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
