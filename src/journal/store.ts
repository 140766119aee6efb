/**
 * Durable storage: the head document (`journal.json`, replaced by the one atomic writer of
 * src/util/atomic-write.ts: temp file → fsync → rename → fsync of the folder) and the append-only
 * event log (`journal.log.jsonl`). The head records how many log bytes are committed; bytes past that mark are a torn or uncommitted tail from a crash,
 * ignored on read and cut off before the next append. So a write is: append events (fsync), then
 * replace the head. A crash at any point leaves the previous commit or the new one, never a mix.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { writeFileAtomicSync } from "../util/atomic-write.js";
import { faultPoint } from "../util/test-fault.js";
import type { HeadDoc } from "./types.js";
import { CHAIN_ORIGIN, type ParsedLog, parseLines } from "./chain.js";

export async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    // EISDIR and friends carry no path of their own: name the file.
    throw corrupt(path, (e as Error).message);
  }
}

export function corrupt(path: string, why: string): TwError {
  return new TwError(
    "journal_corrupt",
    `the journal ${path} cannot be read (${why}); it was left untouched. Restore it from a backup or move it aside; tradewarden will not overwrite it.`,
    EXIT.INTERNAL_ERROR,
  );
}

export function parseStrict(path: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw corrupt(path, `not valid JSON: ${(e as Error).message}`);
  }
}

/** The head document in memory and its file: `write()` replaces the file atomically (durably unless turned off). */
export class HeadFile {
  constructor(
    private readonly path: string,
    public data: HeadDoc,
    private readonly durable: boolean,
  ) {}
  /**
   * Synchronous system calls, as the log's appends (LogAppender): a head write is a few small calls
   * the caller awaits anyway, and a round trip through the thread pool for each cost more than they
   * did. A durable write then yields one turn of the event loop, as the asynchronous write did: a
   * signal or a closed pipe that came during the fsyncs is handled between two commits.
   */
  async write(): Promise<void> {
    writeFileAtomicSync(this.path, JSON.stringify(this.data), { durable: this.durable, mode: 0o600 });
    if (this.durable) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export function makeHeadDb(path: string, head: HeadDoc, durable: boolean): HeadFile {
  return new HeadFile(path, head, durable);
}

/**
 * Reads the committed part of the log: exactly `committedBytes` bytes, every line a JSON event in
 * sequence, valid by its schema (else refused naming the line), and its hash chain checked (the
 * first break, including a head whose `last_hash` is not the log's, is returned in `chainIssue`).
 */
export async function readLog(path: string, committedBytes: number, lastSeq: number, lastHash?: string): Promise<ParsedLog> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      if (committedBytes === 0) return { events: [], hash: CHAIN_ORIGIN, chainIssue: null };
      throw corrupt(path, `the event log is missing but ${committedBytes} bytes are committed`);
    }
    throw corrupt(path, (e as Error).message);
  }
  if (buf.length < committedBytes) throw corrupt(path, `the event log has ${buf.length} bytes, ${committedBytes} are committed`);
  const text = buf.subarray(0, committedBytes).toString("utf8");
  if (committedBytes > 0 && !text.endsWith("\n")) throw corrupt(path, "the committed event log does not end on a record boundary");
  const lines = text.length === 0 ? [] : text.slice(0, -1).split("\n");
  const parsed = parseLines(lines, (why) => {
    throw corrupt(path, why);
  });
  if (parsed.events.length !== lastSeq) throw corrupt(path, `the event log holds ${parsed.events.length} committed events, the head says ${lastSeq}`);
  parsed.uncommittedBytes = buf.length - committedBytes;
  if (lastHash !== undefined && lastHash !== parsed.hash && !parsed.chainIssue) {
    parsed.chainIssue = `the last committed line (${lastSeq}) does not match the head's last_hash: a line was edited`;
  }
  return parsed;
}

/**
 * The event log's writer: `append` writes `text` at `at` (the committed mark), cutting off any
 * uncommitted tail first. Synchronous system calls: a commit is a handful of small writes that the
 * caller awaits anyway, and a round trip through the thread pool per call cost more than the
 * writes (about a second per simulated year). `keepOpen` holds one O_APPEND descriptor between
 * commits until `close()` (a simulation commits thousands of times in one process, and reopening
 * the file was most of a commit's cost); otherwise each append opens and closes the file.
 */
export class LogAppender {
  private fd: number | null = null;

  constructor(
    private readonly path: string,
    private readonly keepOpen: boolean,
  ) {}

  append(at: number, text: string, durable: boolean): number {
    if (this.fd === null) {
      mkdirSync(dirname(this.path), { recursive: true });
      // O_APPEND: after cutting the file back to the committed mark, every write lands at its end
      this.fd = openSync(this.path, "a+", 0o600);
    }
    const fd = this.fd;
    let ok = false;
    try {
      const data = Buffer.from(text, "utf8");
      const { size } = fstatSync(fd);
      if (size < at) throw corrupt(this.path, `the event log shrank below its committed size (${size} < ${at})`);
      if (size !== at) ftruncateSync(fd, at);
      let off = 0;
      while (off < data.length) off += writeSync(fd, data, off, data.length - off);
      faultPoint("journal.log_fsync");
      if (durable) fsyncSync(fd);
      ok = true;
      return at + data.length;
    } finally {
      // A failed write closes the descriptor too: the next append starts from a fresh open.
      if (!ok || !this.keepOpen) this.close();
    }
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}
