import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { twIn } from "../e2e/helpers.js";

test("run --json refused before it starts (bad config) still answers with one JSON line, exit 2, and runs nothing", async () => {
  const home = mkdtempSync(join(tmpdir(), "tw-refused-"));
  try {
    writeFileSync(join(home, "tradewarden.toml"), "[limits]\nmax_position_pct = 150\n");
    // In-process (the refusal is what the command answers; no process of its own is under test).
    const r = await twIn(home, ["run", "--yes", "--json"]);
    expect(r.exitCode).toBe(2);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const refusal = JSON.parse(lines[0] as string) as { type: string; code: string; message: string; exit_code: number };
    expect(refusal).toMatchObject({ type: "run.refused", code: "config_invalid", exit_code: 2 });
    expect(refusal.message).toContain("limits.max_position_pct");
    expect(r.stderr).toContain("limits.max_position_pct");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
