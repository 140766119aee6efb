/**
 * Opening the journal's files: the head document and the committed part of the event log, or a
 * migration of an older schema (the original kept as a backup). Pure of the Journal class.
 */
import { assertHead } from "./validate.js";
import { CONTRADICTIONS, checkpointMismatch, verifyState } from "./verify.js";
import { readFile } from "node:fs/promises";
import { CHAIN_ORIGIN, chainEvents, salvageLog } from "./chain.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { migrate } from "./migrate.js";
import { apply, emptyState, type State } from "./state.js";
import { checkpointOf } from "./checkpoint.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import { corrupt, makeHeadDb, parseStrict, readLog, readText } from "./store.js";
import { type HeadDoc, type JournalEvent, LOG_FILE, SCHEMA_VERSION } from "./types.js";

export interface LoadedJournal {
  head: HeadDoc;
  events: JournalEvent[];
  exists: boolean;
  state?: State;
  /** The first break of the log's hash chain (a read-only open only: a writable open refuses it). */
  chainIssue?: string | null;
}

export interface LoadOptions {
  readOnly?: boolean;
  fsync?: boolean;
  /** Told what an open repaired (a head rebuilt from the log, a torn line dropped); default: a line on stderr. */
  notice?: (message: string) => void;
}

/** A command's notice: what an open repaired, said as one line on the command's `write` (its io's stderr). */
export const noticeTo =
  (write: (text: string) => void) =>
  (message: string): void =>
    write(`tradewarden: ${message}\n`);

/** Without a command's writer (a library caller): the process's stderr. */
const toStderr = noticeTo((text) => process.stderr.write(text));

function newHead(now: string): HeadDoc {
  return {
    format: "tradewarden-journal",
    schema_version: SCHEMA_VERSION,
    created_at: now,
    updated_at: now,
    log: { file: LOG_FILE, committed_bytes: 0, last_seq: 0 },
    checkpoint: checkpointOf(emptyState()),
  };
}

export async function loadJournalFiles(home: string, opts: LoadOptions): Promise<LoadedJournal> {
  const paths = homePaths(home);
  const logPath = `${home}/${LOG_FILE}`;
  const durable = opts.fsync ?? true;
  const text = await readText(paths.journal);
  if (text === null) return rebuildHead(paths.journal, logPath, opts);
  const raw = parseStrict(paths.journal, text);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw corrupt(paths.journal, "not a JSON object");
  const version = (raw as { schema_version?: unknown }).schema_version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw corrupt(paths.journal, "no schema_version: not a tradewarden journal");
  }
  if (version > SCHEMA_VERSION) {
    throw new TwError(
      "journal_too_new",
      `the journal ${paths.journal} has schema version ${version}, newer than this tradewarden understands (${SCHEMA_VERSION}). Upgrade tradewarden; the journal was left untouched.`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  if (version < SCHEMA_VERSION) {
    const bodies = migrate(raw as Record<string, unknown>, version, paths.journal);
    const chained = chainEvents(
      bodies.map((b, i): JournalEvent => ({ ...b, seq: i + 1 })),
      CHAIN_ORIGIN,
    );
    const events = chained.events;
    const state = fold(events);
    const head = newHead(new Date().toISOString());
    head.log = { file: LOG_FILE, committed_bytes: Buffer.byteLength(chained.text), last_seq: events.length, last_hash: chained.hash };
    head.checkpoint = checkpointOf(state);
    if (!opts.readOnly) {
      // keep the original, write the log, then switch the head: a crash before the switch leaves v1 in place
      await writeFileAtomic(`${paths.journal}.v${version}.bak`, text, { durable, mode: 0o600 });
      await writeFileAtomic(logPath, chained.text, { durable, mode: 0o600 });
      await makeHeadDb(paths.journal, head, durable).write();
    }
    return { head, events, exists: true, state };
  }
  const mark = (raw as { log?: { committed_bytes?: unknown; last_seq?: unknown } }).log;
  if (!mark || typeof mark.committed_bytes !== "number" || typeof mark.last_seq !== "number") {
    throw corrupt(paths.journal, "the head has no valid commit mark");
  }
  assertHead(raw, (why) => {
    throw corrupt(paths.journal, why);
  });
  const head = raw;
  const { events, hash, chainIssue, uncommittedBytes } = await readLog(logPath, head.log.committed_bytes, head.log.last_seq, head.log.last_hash);
  const state = fold(events);
  // A broken chain, a checkpoint that disagrees with the log or a log that contradicts itself is
  // refused before any write (which would build on it); a read-only open still shows the books,
  // so `journal verify` can report the difference.
  if (!opts.readOnly) {
    if (chainIssue) throw corrupt(logPath, `${chainIssue}; run \`tradewarden journal verify\``);
    const mismatch = checkpointMismatch(head.checkpoint, checkpointOf(state));
    if (mismatch) throw corrupt(paths.journal, `${mismatch} in ${logPath}; run \`tradewarden journal verify\``);
    refuseContradictions(logPath, state);
  }
  if (!opts.readOnly && uncommittedBytes) {
    (opts.notice ?? toStderr)(
      `${logPath} holds ${uncommittedBytes} bytes past the last commit recorded in ${paths.journal} (a write a crash or a full disk cut off before it was committed): they are not part of the journal and are cut off with the next write`,
    );
  }
  // the chain continues from the log's last committed line (a head written before the chain had no last_hash)
  head.log = { ...head.log, last_hash: hash };
  return { head, events, exists: true, state, chainIssue };
}

/**
 * The head is missing (a crash or a full disk during the first commit of a fresh home): the log is
 * the record and the head is derived, so it is rebuilt from the log's whole lines (a torn last
 * line dropped) and, on a writable open, written before anything else; the user is told.
 */
async function rebuildHead(headPath: string, logPath: string, opts: LoadOptions): Promise<LoadedJournal> {
  const notice = opts.notice ?? toStderr;
  let buf: Buffer;
  try {
    buf = await readFile(logPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw corrupt(logPath, (e as Error).message);
    buf = Buffer.alloc(0);
  }
  const fresh: LoadedJournal = { head: newHead(new Date().toISOString()), events: [], exists: false };
  if (buf.length === 0) return fresh;
  const log = salvageLog(buf, (why) => {
    throw corrupt(logPath, `${why} (the head ${headPath} is missing, so it could not be rebuilt)`);
  });
  if (log.chainIssue && !opts.readOnly) throw corrupt(logPath, `${log.chainIssue} (the head ${headPath} is missing, so it was not rebuilt)`);
  const dropped = log.dropped ? `; a torn last line (line ${log.dropped.line}, ${log.dropped.bytes} bytes, a write cut short) was dropped` : "";
  const state = fold(log.events);
  if (log.events.length === 0) {
    notice(`${headPath} is missing and ${logPath} holds no whole event${dropped}: starting a fresh journal`);
    return fresh;
  }
  const head = newHead(new Date().toISOString());
  head.log = { file: LOG_FILE, committed_bytes: log.bytes, last_seq: log.events.length, last_hash: log.hash };
  head.checkpoint = checkpointOf(state);
  if (!opts.readOnly) {
    refuseContradictions(logPath, state);
    await makeHeadDb(headPath, head, opts.fsync ?? true).write();
  }
  const done = opts.readOnly ? "rebuilt in memory from" : "rebuilt from";
  notice(`${headPath} was missing (a crash or a full disk during a write): ${done} ${logPath} (${log.events.length} events)${dropped}`);
  return { head, events: log.events, exists: true, state, chainIssue: log.chainIssue };
}

/** What `journal verify` reports of a log that contradicts itself: a writable open refuses it (never builds on it). */
function refuseContradictions(logPath: string, state: State): void {
  const found = verifyState(state, checkpointOf(state), Number.MAX_SAFE_INTEGER).filter((f) => CONTRADICTIONS.has(f.code));
  const first = found[0];
  if (first) throw corrupt(logPath, `${first.message}${found.length > 1 ? ` (and ${found.length - 1} more)` : ""}; run \`tradewarden journal verify\``);
}

export function fold(events: JournalEvent[]): State {
  const s = emptyState();
  for (const e of events) apply(s, e);
  return s;
}
