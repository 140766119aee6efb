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
 * Every other folder (the real CLI's end-to-end runs, terminals, module mocks) keeps a fresh
 * process per file.
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
