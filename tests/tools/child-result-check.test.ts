/**
 * Tool results produced inside a spawned CLI child are checked too: tests/global-setup.ts sets
 * TRADEWARDEN_CHECK_TOOL_RESULTS=1 for the suite, the CLI then arms the same output-schema check as
 * the test process, and a violation fails the child (exit 1, the tool named on stderr).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, childEnv, cleanupHomes, freshHome, ROOT } from "../e2e/helpers.js";

afterAll(cleanupHomes);

const CORRUPT = pathToFileURL(join(ROOT, "tests/setup/corrupt-tool-results.mjs")).href;
const call = (home: string, preload: string[]) =>
  execa(process.execPath, [...preload, BIN, "--home", home, "tools", "call", "list_universe", '{"limit": 2}', "--json"], {
    cwd: ROOT,
    reject: false,
    extendEnv: false,
    env: childEnv(),
    timeout: 45_000,
  });

describe("the tool result check in CLI children", () => {
  it("is armed for the suite's children", () => {
    expect(childEnv().TRADEWARDEN_CHECK_TOOL_RESULTS).toBe("1");
  });

  it("passes a child whose results conform, and fails one whose result is outside its schema, naming the tool", async () => {
    const home = freshHome();
    const good = await call(home, []);
    expect(good.exitCode, String(good.stderr)).toBe(0);
    expect(JSON.parse(String(good.stdout))).toMatchObject({ tool: "list_universe", success: true });

    const bad = await call(home, ["--import", CORRUPT]);
    expect(bad.exitCode).toBe(1);
    expect(String(bad.stderr)).toMatch(/list_universe answered outside its output schema: \/ must NOT have additional properties \(injected_by_test\)/);
  }, 60_000);
});
