/**
 * A run's artifacts sealed at close: the SHA-256 of each artifact the run wrote (events.jsonl,
 * transcript.json, cassette.jsonl, research-cycle.json, the TradeCat record) is recorded in the
 * run's journal record (`run_finish.artifacts`; the journal is append-only), and audit checks them,
 * so any edit of any artifact — one character anywhere — is found, in plain files as in a
 * simulation's packed bundle (the digests are of the files' text, whichever form holds it).
 * Runs recorded before digests existed have none in their record: they audit as before.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { LOG_FILE } from "../journal/types.js";
import { ARTIFACT_FILES, OPTIONAL_ARTIFACT_FILES, readArtifact } from "./artifacts.js";

type Add = (check: string, message: string) => void;

const KEYS = [...Object.keys(ARTIFACT_FILES), ...Object.keys(OPTIONAL_ARTIFACT_FILES)] as Parameters<typeof readArtifact>[1][];
const FILE_NAMES: Record<(typeof KEYS)[number], string> = { ...ARTIFACT_FILES, ...OPTIONAL_ARTIFACT_FILES };
const fileName = (key: (typeof KEYS)[number]): string => FILE_NAMES[key];

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The SHA-256 of each artifact held in memory (a run writing its artifacts once), by file name. */
export function digestsOf(texts: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of KEYS) {
    const text = texts.get(fileName(key));
    if (text !== undefined) out[fileName(key)] = sha256(text);
  }
  return out;
}

/** The SHA-256 of each artifact of the run folder, by file name (an unreadable one is left out: audit names it). */
export function artifactDigests(runDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of KEYS) {
    let text: string | null = null;
    try {
      text = readArtifact(runDir, key);
    } catch {
      text = null;
    }
    if (text !== null) out[fileName(key)] = sha256(text);
  }
  return out;
}

/** The digests the run's journal record holds, with where: null when the folder is not in a home's runs/ or the record has none. */
function recordedDigests(runDir: string): { where: string; digests: Record<string, string> } | null {
  const dir = resolve(runDir);
  if (basename(dirname(dir)) !== "runs") return null;
  const home = dirname(dirname(dir));
  const runId = basename(dir);
  const logPath = join(home, LOG_FILE);
  if (!existsSync(logPath)) return null;
  // Only the committed part of the log is the journal (the head says how far it goes).
  let committed: number | undefined;
  try {
    const head = JSON.parse(readFileSync(join(home, "journal.json"), "utf8")) as { log?: { committed_bytes?: unknown } };
    if (typeof head.log?.committed_bytes === "number") committed = head.log.committed_bytes;
  } catch {
    return null; // an unreadable journal: `journal verify` and every command that opens it say so
  }
  if (committed === undefined) return null;
  const lines = readFileSync(logPath).subarray(0, committed).toString("utf8").split("\n");
  const id = JSON.stringify(runId);
  let found: { where: string; digests: Record<string, string> } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!line.includes('"run_finish"') || !line.includes(id)) continue;
    let ev: { t?: unknown; run_id?: unknown; artifacts?: unknown };
    try {
      ev = JSON.parse(line) as typeof ev;
    } catch {
      continue;
    }
    if (ev.t !== "run_finish" || ev.run_id !== runId) continue;
    const a = ev.artifacts;
    found = a !== null && typeof a === "object" && !Array.isArray(a) ? { where: `${LOG_FILE} line ${i + 1}`, digests: a as Record<string, string> } : null;
  }
  return found;
}

/** Each artifact is byte for byte what the run wrote at close; no artifact was added or removed since. */
export function checkDigests(runDir: string, add: Add): void {
  const recorded = recordedDigests(runDir);
  if (!recorded) return;
  const now = artifactDigests(runDir);
  for (const [file, digest] of Object.entries(recorded.digests)) {
    const d = now[file];
    if (d === undefined) add("digests", `${file} is gone: the run wrote it at close (its SHA-256 is recorded in ${recorded.where})`);
    else if (d !== digest) add("digests", `${file} was changed after the run closed: its SHA-256 is not the one recorded in ${recorded.where}`);
  }
  for (const file of Object.keys(now)) {
    if (!(file in recorded.digests)) add("digests", `${file} was not written by the run: it is not among the artifacts recorded in ${recorded.where}`);
  }
}
