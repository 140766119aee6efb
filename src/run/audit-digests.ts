/**
 * A run's artifacts sealed at close: the SHA-256 of each artifact the run wrote (events.jsonl,
 * transcript.json, cassette.jsonl, research-cycle.json, the TradeCat record) is recorded in the
 * run's journal record (`run_finish.artifacts`; the journal is append-only), and audit checks them,
 * so any edit of any artifact — one character anywhere — is found, in plain files as in a
 * simulation's packed bundle (the digests are of the files' text, whichever form holds it).
 * Runs recorded before digests existed have none in their record: they audit as before. The record
 * is read as the journal's own open reads it (a missing head rebuilt from the log's whole lines), and
 * a journal that cannot vouch for it (a head or log unreadable, a log shorter than its commit mark, a
 * broken hash chain) is a finding: never an audit that passes because the record could not be read.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseLines } from "../journal/chain.js";
import { LOG_FILE, SCHEMA_VERSION } from "../journal/types.js";
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

/** Whether a run folder is in a home's runs/, whose journal records its artifacts' SHA-256s when it closes (a copy elsewhere has none to check against). */
export const inHomeRuns = (runDir: string): boolean => basename(dirname(resolve(runDir))) === "runs";

/** Where a run's digests were recorded, and what they are. */
interface Recorded {
  where: string;
  digests: Record<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A file's bytes; null when it does not exist; why it cannot be read (a folder, no permission) otherwise. */
function readIfPresent(path: string): Buffer | null | { error: string } {
  try {
    return readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    return { error: (e as Error).message };
  }
}

const isBytes = (r: Buffer | null | { error: string }): r is Buffer => Buffer.isBuffer(r);

/**
 * The lines of the home's journal log that hold its record, as its own open reads them: the
 * committed part the head marks, or, without a readable head, the log's whole lines (as the open
 * rebuilds a missing head). Every way the journal is damaged is a finding: a damaged journal cannot
 * vouch for a run, and its record of the digests is still checked where it can be read. Null when
 * the journal holds no digests at all (no journal files, or a journal older than the log).
 */
function journalLines(home: string, add: Add): { lines: string[]; lastHash?: string } | null {
  const headPath = join(home, "journal.json");
  const logPath = join(home, LOG_FILE);
  const headRead = readIfPresent(headPath);
  const logRead = readIfPresent(logPath);
  if (headRead === null && logRead === null) return null;
  let committed: number | undefined;
  let lastHash: string | undefined;
  if (headRead !== null) {
    let head: unknown;
    try {
      head = isBytes(headRead) ? JSON.parse(headRead.toString("utf8")) : undefined;
    } catch {
      head = undefined;
    }
    const version = isObject(head) ? head.schema_version : undefined;
    // A single-document journal (schema 1) predates the log and the digests: its runs audit as they did.
    if (typeof version === "number" && version < SCHEMA_VERSION) return null;
    const mark = isObject(head) && isObject(head.log) ? head.log.committed_bytes : undefined;
    if (typeof mark === "number" && Number.isInteger(mark) && mark >= 0) {
      committed = mark;
      const hash = isObject(head) && isObject(head.log) ? head.log.last_hash : undefined;
      if (typeof hash === "string") lastHash = hash;
    } else
      add(
        "digests",
        `the journal's head ${headPath} cannot be read (${isBytes(headRead) ? "not a journal head with a commit mark" : headRead.error}): this run was checked against the whole lines of ${LOG_FILE}; \`tradewarden journal verify\` says more`,
      );
  }
  if (!isBytes(logRead)) {
    const why = logRead === null ? "is missing" : `cannot be read (${logRead.error})`;
    if (committed !== 0) add("digests", `the journal's log ${logPath} ${why}: the SHA-256s recorded when the run closed cannot be checked`);
    return null;
  }
  const logBytes = logRead;
  if (committed !== undefined && logBytes.length < committed) {
    add(
      "digests",
      `the journal's log ${logPath} holds ${logBytes.length} bytes, fewer than the ${committed} its head records as committed: its end is lost, and with it perhaps this run's record (\`tradewarden journal verify\`)`,
    );
    committed = undefined;
    lastHash = undefined;
  }
  const text = logBytes.subarray(0, committed ?? logBytes.length).toString("utf8");
  // Only whole lines: a last line a crash cut off (past the mark, or with no head) is not part of the record.
  const whole = text.slice(0, text.lastIndexOf("\n") + 1);
  return { lines: whole === "" ? [] : whole.slice(0, -1).split("\n"), ...(lastHash === undefined ? {} : { lastHash }) };
}

/**
 * The digests the run's journal record holds (its `run_finish`), or null: the folder is not in a
 * home's runs/, or the journal recorded none for the run (a run recorded before digests existed, or
 * one that never closed). A journal whose hash chain is broken is a finding: its digests may be edited too.
 */
function recordedDigests(runDir: string, add: Add): Recorded | null {
  const dir = resolve(runDir);
  if (!inHomeRuns(dir)) return null;
  const journal = journalLines(dirname(dirname(dir)), add);
  if (!journal) return null;
  const runId = basename(dir);
  const id = JSON.stringify(runId);
  let found: Recorded | null = null;
  for (let i = 0; i < journal.lines.length; i++) {
    const line = journal.lines[i] as string;
    if (!line.includes('"run_finish"') || !line.includes(id)) continue;
    let ev: unknown;
    try {
      ev = JSON.parse(line);
    } catch {
      continue; // the chain check below names a line that is not JSON
    }
    if (!isObject(ev) || ev.t !== "run_finish" || ev.run_id !== runId) continue;
    const a = ev.artifacts;
    found = isObject(a) ? { where: `${LOG_FILE} line ${i + 1}`, digests: a as Record<string, string> } : null;
  }
  const issue = chainIssueOf(journal.lines, journal.lastHash);
  if (issue)
    add(
      "digests",
      `the journal's hash chain is broken (${issue}): its record of this run, the SHA-256s included, may have been edited (\`tradewarden journal verify\`)`,
    );
  return found;
}

/**
 * The first break of the log's hash chain (or a line that is not a record), or null; with the head's
 * `last_hash`, an edit of the last committed line too (no later line carries its hash).
 */
function chainIssueOf(lines: string[], lastHash: string | undefined): string | null {
  try {
    const parsed = parseLines(lines, (why) => {
      throw new Error(why);
    });
    if (parsed.chainIssue) return parsed.chainIssue;
    return lastHash !== undefined && lastHash !== parsed.hash
      ? `the last committed line (${lines.length}) does not match the head's last_hash: a line was edited`
      : null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Each artifact is byte for byte what the run wrote at close; no artifact was added or removed since. */
export function checkDigests(runDir: string, add: Add): void {
  const recorded = recordedDigests(runDir, add);
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
