/**
 * The journal's files checked in full on open, before anything reads a balance or writes: the head
 * document (`journal.json`) and every committed line of the event log (`journal.log.jsonl`) against
 * the TypeBox schemas of schemas.ts (ajv's validators generated at build time), one per event type. An unknown event type, a wrong-typed or
 * non-finite field is refused naming the file, the line and the key — never skipped, never found
 * only after a run has appended to the journal.
 */
import { generatedChecker } from "../config/ajv.js";
import * as generated from "../config/validators.generated.js";
import { type Static, Type } from "@sinclair/typebox";
import type { HeadDoc as Head, JournalEvent } from "./types.js";
import { EVENT_BODIES, HeadDoc, ResetRecord, TripRecord } from "./schemas.js";

const checkers = new Map(Object.entries(EVENT_BODIES).map(([t, schema]) => [t, generatedChecker(schema, generated.journalEvents[t], `journal event ${t}`)]));

const checkHead = generatedChecker(HeadDoc, generated.journalHead, "the journal head");

const listed = (issues: { path: string; rule: string }[]) =>
  issues
    .slice(0, 3)
    .map((i) => `${i.path || "(root)"}: ${i.rule}`)
    .join("; ") + (issues.length > 3 ? `; and ${issues.length - 3} more` : "");

/** Why the head document is not valid, or null when it is. */
function headIssue(head: unknown): string | null {
  const issues = checkHead(head);
  return issues.length > 0 ? `the head document is not valid: ${listed(issues)}` : null;
}

/** The head document, refused by `fail` with `headIssue`'s words when it is not valid. */
export function assertHead(head: unknown, fail: (why: string) => never): asserts head is Head {
  const invalid = headIssue(head);
  if (invalid) fail(invalid);
}

/** Why a log line's event is not valid (unknown type, wrong fields), or null when it is. */
function eventIssue(line: number, ev: Record<string, unknown>): string | null {
  const t = ev.t;
  const check = typeof t === "string" ? checkers.get(t) : undefined;
  if (!check) return `event log line ${line}: unknown event type ${JSON.stringify(t ?? null)}`;
  const issues = check(ev);
  return issues.length > 0 ? `event log line ${line} (${t}): ${listed(issues)}` : null;
}

/** A log line's event, refused by `fail` with `eventIssue`'s words when it is not valid. */
export function assertEvent(line: number, ev: Record<string, unknown>, fail: (why: string) => never): asserts ev is Record<string, unknown> & JournalEvent {
  const invalid = eventIssue(line, ev);
  if (invalid) fail(invalid);
}

const checkTrips = generatedChecker(Type.Array(TripRecord), generated.journalTrips, "schema 1 trips");
const checkResets = generatedChecker(Type.Array(ResetRecord), generated.journalResets, "schema 1 resets");

/** A schema 1 journal's trips, imported as they are, must be what the log's `import_state` holds. */
export function assertImportedTrips(trips: unknown, fail: (why: string) => never): asserts trips is Static<typeof TripRecord>[] {
  const issues = checkTrips(trips);
  if (issues.length > 0) fail(`schema 1 trips are not valid: ${listed(issues)}`);
}

/** A schema 1 journal's resets, imported as they are, must be what the log's `import_state` holds. */
export function assertImportedResets(resets: unknown, fail: (why: string) => never): asserts resets is Static<typeof ResetRecord>[] {
  const issues = checkResets(resets);
  if (issues.length > 0) fail(`schema 1 resets are not valid: ${listed(issues)}`);
}
