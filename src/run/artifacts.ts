/**
 * A run's artifacts under `runs/<run-id>/`: events.jsonl (streamed by the EventSink),
 * transcript.json, cassette.jsonl (written by the recording model client) and
 * research-cycle.json (validated before it is written). Writes are atomic (temp + rename).
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const ARTIFACT_FILES = {
  events: "events.jsonl",
  transcript: "transcript.json",
  cassette: "cassette.jsonl",
  researchCycle: "research-cycle.json",
} as const;

export function artifactPaths(runDir: string) {
  return {
    dir: runDir,
    events: join(runDir, ARTIFACT_FILES.events),
    transcript: join(runDir, ARTIFACT_FILES.transcript),
    cassette: join(runDir, ARTIFACT_FILES.cassette),
    researchCycle: join(runDir, ARTIFACT_FILES.researchCycle),
  };
}
export type ArtifactPaths = ReturnType<typeof artifactPaths>;

export function writeJsonAtomic(path: string, value: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, path);
}

export function ensureRunDir(runDir: string): ArtifactPaths {
  mkdirSync(runDir, { recursive: true });
  return artifactPaths(runDir);
}
