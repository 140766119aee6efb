/**
 * `main(argv, io)` passes every text a command writes through the redactor, whatever io its caller
 * gives (the process's, a test's): a key from the command's environment echoed back in a usage error
 * reaches the io masked.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, freshHome, twIn } from "../e2e/helpers.js";

afterAll(cleanupHomes);

describe("main's io", () => {
  it("masks a key from the environment that a command echoes back (an unknown command named by it)", async () => {
    const key = "sk-ant-api03-echoedInAUsageError0123456789abcdef";
    const r = await twIn(freshHome(), [key], { env: { ANTHROPIC_API_KEY: key } });
    expect(r.exitCode).toBe(2);
    expect(`${r.stdout}\n${r.stderr}`).not.toContain(key);
    expect(r.stderr).toMatch(/unknown command/);
    expect(r.stray).toBe("");
  });
});
