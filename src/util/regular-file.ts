/**
 * The one way a data file is read (config, universe, market bars, scenarios, imports, state): a
 * path that does not exist at all is "absent"; a broken symbolic link, a folder, a FIFO, a socket
 * or a device is refused at once (naming the path and what it is) rather than read as "no file"
 * or blocking forever. The file is opened non-blocking and checked with fstat on the open
 * descriptor, so what is checked is what is read. Every read is bounded: each kind of file has a
 * size limit, and a file over it is refused with a sentence, never read whole into memory.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from "node:fs";

const MiB = 1024 * 1024;

/** The size limit of each kind of data file, in bytes (generous for real files, finite for all). */
export const READ_LIMITS = {
  config: { what: "config file", maxBytes: 1 * MiB },
  universe: { what: "universe file", maxBytes: 16 * MiB },
  bars: { what: "market data file", maxBytes: 256 * MiB },
  scenario: { what: "scenario", maxBytes: 16 * MiB },
  import: { what: "CSV file to import", maxBytes: 256 * MiB },
  state: { what: "state file", maxBytes: 512 * MiB },
  artifact: { what: "run artifact", maxBytes: 1024 * MiB },
} as const satisfies Record<string, ReadLimit>;

export interface ReadLimit {
  /** What the file is, for the refusal sentence ("market data file"). */
  what: string;
  maxBytes: number;
}

export type RegularFileRead = { kind: "absent" } | { kind: "ok"; text: string } | { kind: "refused"; reason: string };
export type RegularFileBytes = { kind: "absent" } | { kind: "ok"; bytes: Buffer } | { kind: "refused"; reason: string };

function whatIs(st: Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** Does anything (even a broken symbolic link) exist at `path`? */
function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return false;
    return true;
  }
}

function sizeText(n: number): string {
  return n >= MiB ? `${Math.round((n / MiB) * 10) / 10} MiB` : `${n} bytes`;
}

function tooBig(path: string, limit: ReadLimit): string {
  return `${path} is larger than ${sizeText(limit.maxBytes)}, the limit for a ${limit.what}; refusing to read it`;
}

/**
 * Reads at most `limit.maxBytes` bytes: the size from fstat is checked first, and the read itself
 * stops one byte past the limit (a file that grows, or reports size 0 like /proc's, stays bounded).
 */
function readBounded(fd: number, path: string, limit: ReadLimit, st: Stats): Buffer | string {
  if (st.size > limit.maxBytes) return tooBig(path, limit);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(Math.max(st.size - total, 64 * 1024), limit.maxBytes + 1 - total);
    if (want <= 0) return tooBig(path, limit);
    const buf = Buffer.allocUnsafe(want);
    const n = readSync(fd, buf, 0, want, null);
    if (n === 0) break;
    chunks.push(n === want ? buf : buf.subarray(0, n));
    total += n;
    if (total > limit.maxBytes) return tooBig(path, limit);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** Read `path`'s bytes if it is a regular file (symbolic links to one are followed) within `limit`. */
export function readRegularBytes(path: string, limit: ReadLimit): RegularFileBytes {
  if (!entryExists(path)) return { kind: "absent" };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "refused", reason: `${path} is a symbolic link to a file that does not exist` };
    if (code === "ENXIO") return { kind: "refused", reason: `${path} is a socket or device, not a regular file` };
    return { kind: "refused", reason: `cannot open ${path}: ${(e as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: "refused", reason: `${path} is ${whatIs(st)}, not a regular file` };
    const read = readBounded(fd, path, limit, st);
    return typeof read === "string" ? { kind: "refused", reason: read } : { kind: "ok", bytes: read };
  } catch (e) {
    return { kind: "refused", reason: `cannot read ${path}: ${(e as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

/** Read `path` as UTF-8 text if it is a regular file (symbolic links to one are followed) within `limit`. */
export function readRegularFile(path: string, limit: ReadLimit): RegularFileRead {
  const read = readRegularBytes(path, limit);
  return read.kind === "ok" ? { kind: "ok", text: read.bytes.toString("utf8") } : read;
}

/** Like `readRegularFile`, for a file that must exist: its text, or the sentence why it cannot be read. */
export function readRequiredFile(path: string, limit: ReadLimit): { ok: true; text: string } | { ok: false; reason: string } {
  const read = readRegularFile(path, limit);
  if (read.kind === "ok") return { ok: true, text: read.text };
  return { ok: false, reason: read.kind === "absent" ? `${path} does not exist` : read.reason };
}
