/**
 * Opening the journal's files: the head document and the committed part of the event log, or a
 * migration of an older schema (the original kept as a backup). Pure of the Journal class.
 */
import { headIssue } from "./validate.js";
import { checkpointMismatch } from "./verify.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { migrate } from "./migrate.js";
import { apply, checkpointOf, emptyState, type State } from "./state.js";
import { corrupt, makeHeadDb, parseStrict, readLog, readText, writeFileAtomic } from "./store.js";
import { type HeadDoc, type JournalEvent, LOG_FILE, SCHEMA_VERSION } from "./types.js";

export interface LoadedJournal {
  head: HeadDoc;
  events: JournalEvent[];
  exists: boolean;
  state?: State;
}

export function newHead(now: string): HeadDoc {
  return {
    format: "tradewarden-journal",
    schema_version: SCHEMA_VERSION,
    created_at: now,
    updated_at: now,
    log: { file: LOG_FILE, committed_bytes: 0, last_seq: 0 },
    checkpoint: checkpointOf(emptyState()),
  };
}

export async function loadJournalFiles(home: string, opts: { readOnly?: boolean; fsync?: boolean }): Promise<LoadedJournal> {
  const paths = homePaths(home);
  const logPath = `${home}/${LOG_FILE}`;
  const durable = opts.fsync ?? true;
  const text = await readText(paths.journal);
  if (text === null) {
    const log = await readText(logPath);
    if (log !== null && log.length > 0) throw corrupt(paths.journal, `the head document is missing while ${logPath} holds events`);
    const head = newHead(new Date().toISOString());
    return { head, events: [], exists: false };
  }
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
    const events = bodies.map((b, i) => ({ ...b, seq: i + 1 }) as JournalEvent);
    const state = fold(events);
    const head = newHead(new Date().toISOString());
    const logText = events.map((e) => JSON.stringify(e)).join("\n") + (events.length ? "\n" : "");
    head.log = { file: LOG_FILE, committed_bytes: Buffer.byteLength(logText), last_seq: events.length };
    head.checkpoint = checkpointOf(state);
    if (!opts.readOnly) {
      // keep the original, write the log, then switch the head: a crash before the switch leaves v1 in place
      await writeFileAtomic(`${paths.journal}.v${version}.bak`, text, durable);
      await writeFileAtomic(logPath, logText, durable);
      await makeHeadDb(paths.journal, head, durable).write();
    }
    return { head, events, exists: true, state };
  }
  const head = raw as HeadDoc;
  if (!head.log || typeof head.log.committed_bytes !== "number" || typeof head.log.last_seq !== "number") {
    throw corrupt(paths.journal, "the head has no valid commit mark");
  }
  const invalidHead = headIssue(head);
  if (invalidHead) throw corrupt(paths.journal, invalidHead);
  const events = await readLog(logPath, head.log.committed_bytes, head.log.last_seq);
  const state = fold(events);
  // A checkpoint that disagrees with the log is refused before any write (which would rewrite it);
  // a read-only open still shows the books, so `journal verify` can report the difference.
  if (!opts.readOnly) {
    const mismatch = checkpointMismatch(head.checkpoint, checkpointOf(state));
    if (mismatch) throw corrupt(paths.journal, `${mismatch} in ${logPath}; run \`tradewarden journal verify\``);
  }
  return { head, events, exists: true, state };
}

export function fold(events: JournalEvent[]): State {
  const s = emptyState();
  for (const e of events) apply(s, e);
  return s;
}
