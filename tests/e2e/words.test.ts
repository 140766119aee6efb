/**
 * Words that are true and exit codes that agree, through the real CLI: `config check` refuses
 * what `run` refuses; a proposal left awaiting approval says so (never "awaiting by none").
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, freshHome, text, twIn } from "./helpers.js";

afterAll(() => cleanupHomes());

describe("config check agrees with run", () => {
  it('model.script = "foo": both refuse with exit 2, naming the file and the key', async () => {
    const home = freshHome('[model]\nprovider = "scripted"\nscript = "foo"\n');
    const check = await twIn(home, ["config", "check"]);
    expect(check.exitCode).toBe(2);
    expect(text(check)).toMatch(/tradewarden\.toml: model\.script: must be a scripted policy: one of momentum, .*; got "foo"/);
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode).toBe(2);
    expect(text(run)).toMatch(/tradewarden\.toml: model\.script: must be a scripted policy: one of momentum, .*; got "foo"/);
  });
});

describe("a proposal awaiting approval", () => {
  it("exit 6, in words: awaiting approval, and how to decide it", async () => {
    const home = freshHome();
    const r = await twIn(home, ["run"]);
    expect(r.exitCode).toBe(6);
    expect(text(r)).toContain("decision: awaiting approval (no operator at a terminal)");
    expect(text(r)).not.toMatch(/by none/);
    expect(text(r)).toMatch(/decide it with `tradewarden approve` before the session of \d{4}-\d\d-\d\d ends/);
  });
});
