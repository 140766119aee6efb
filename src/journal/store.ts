/**
 * Durable storage: the lowdb head document (`journal.json`, written temp-file → fsync → rename →
 * fsync of the folder) and the append-only event log (`journal.log.jsonl`). The head records how
 * many log bytes are committed; bytes past that mark are a torn or uncommitted tail from a crash,
 * ignored on read and cut off before the next append. So a write is: append events (fsync), then
 * replace the head. A crash at any point leaves the previous commit or the new one, never a mix.
 *
 * lowdb's own JSONFile (steno) renames a temp file but never fsyncs and uses one fixed temp name,
 * so the head goes through `DurableJsonFile`, a lowdb adapter with the same contract.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Adapter } from "lowdb";
import { Low } from "lowdb";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { faultPoint } from "../util/test-fault.js";
import type { HeadDoc } from "./types.js";
import { CHAIN_ORIGIN, type ParsedLog, parseLines } from "./chain.js";

export interface StoreOptions {
  /** fsync files and the folder on every commit (default true; tests and simulations may turn it off). */
  fsync: boolean;
}

async function fsyncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // some platforms cannot fsync a directory; the rename is still atomic
  }
}

/** Replace `path` atomically with `text` (unique temp file in the same folder, fsync, rename). */
export async function writeFileAtomic(path: string, text: string, durable = true): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  if (!durable) {
    // Without fsync the write is a few fast system calls: done synchronously, with no thread-pool
    // round trip per step (a simulation writes its head once per simulated day).
    try {
      writeFileSync(tmp, text, { encoding: "utf8", mode: 0o600 });
      renameSync(tmp, path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
    return;
  }
  const fh = await open(tmp, "w", 0o600);
  try {
    await fh.writeFile(text, "utf8");
    if (durable) await fh.sync();
  } catch (e) {
    await fh.close();
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  if (durable) await fsyncDir(dir);
}

/** A lowdb adapter that reads strictly and writes durably. */
export class DurableJsonFile<T> implements Adapter<T> {
  constructor(
    private readonly path: string,
    private readonly durable: boolean,
  ) {}
  async read(): Promise<T | null> {
    const text = await readText(this.path);
    if (text === null) return null;
    return parseStrict(this.path, text) as T;
  }
  async write(data: T): Promise<void> {
    await writeFileAtomic(this.path, JSON.stringify(data), this.durable);
  }
}

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

export function makeHeadDb(path: string, head: HeadDoc, durable: boolean): Low<HeadDoc> {
  return new Low<HeadDoc>(new DurableJsonFile<HeadDoc>(path, durable), head);
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
