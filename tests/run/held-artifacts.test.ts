/**
 * A simulated day's held artifacts, packed once into `artifacts.json.br`, read back as they were
 * held: every file, in any script (multi-byte characters, an emoji, a lone surrogate as UTF-8 has it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ARTIFACT_FILES, HeldArtifacts, OPTIONAL_ARTIFACT_FILES, readArtifact, writeHeld } from "../../src/run/artifacts.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("held artifacts", () => {
  it("read back from the bundle as they were held, file by file", () => {
    const dir = mkdtempSync(join(tmpdir(), "tw-held-"));
    dirs.push(dir);
    const held = new HeldArtifacts();
    held.appendLine(ARTIFACT_FILES.events, '{"type":"run.started","note":"café ✓"}');
    held.appendLine(ARTIFACT_FILES.events, '{"type":"run.finished","note":"🙂"}');
    held.setJson(ARTIFACT_FILES.transcript, { text: "naïve \ud800 end", n: 1 });
    held.set(ARTIFACT_FILES.cassette, "");
    held.set(OPTIONAL_ARTIFACT_FILES.envelopeFacts, "x".repeat(70_000));
    const size = writeHeld(dir, held);
    expect(size).toBeGreaterThan(0);
    expect(readArtifact(dir, "events")).toBe('{"type":"run.started","note":"café ✓"}\n{"type":"run.finished","note":"🙂"}\n');
    expect(readArtifact(dir, "transcript")).toBe(Buffer.from(`${JSON.stringify({ text: "naïve \ud800 end", n: 1 })}\n`).toString("utf8"));
    expect(readArtifact(dir, "cassette")).toBe("");
    expect(readArtifact(dir, "envelopeFacts")).toBe("x".repeat(70_000));
    expect(readArtifact(dir, "researchCycle")).toBeNull();
  });
});
