/**
 * A run's artifacts under `runs/<run-id>/`: events.jsonl (streamed by the EventSink),
 * transcript.json, cassette.jsonl (written by the recording model client) and
 * research-cycle.json (validated before it is written). Writes are atomic (temp + rename).
 * A simulated day holds its artifacts in memory (`HeldArtifacts`) and writes them once, packed into
 * one compressed bundle (`artifacts.json.br`) at close; its research-cycle and TradeCat envelopes
 * are not written but derived when exported or audited, from the events and the facts the run kept
 * (`envelope-facts.json`). Readers go through `readArtifact`, which reads either form.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { writeFileAtomicSync } from "../util/atomic-write.js";
import { redact, redactValue } from "../core/redact.js";
import { READ_LIMITS, readRegularBytes, readRegularFile } from "../util/regular-file.js";
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from "node:zlib";

export const ARTIFACT_FILES = {
  events: "events.jsonl",
  transcript: "transcript.json",
  cassette: "cassette.jsonl",
  researchCycle: "research-cycle.json",
} as const;

/** Artifacts a run may lack (runs recorded before they existed): packed and read like the others. */
export const OPTIONAL_ARTIFACT_FILES = {
  tradecat: "tradecat-research-cycle.json",
  /** A simulated day's facts its envelopes are derived from (run/research-cycle.ts ResearchCycleFacts). */
  envelopeFacts: "envelope-facts.json",
} as const;

/** Every artifact's file name, required and optional. */
const ARTIFACT_FILE_NAMES: readonly string[] = [...Object.values(ARTIFACT_FILES), ...Object.values(OPTIONAL_ARTIFACT_FILES)];

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

/** Writes a run artifact (redacted) atomically; durably unless the run's journal is not (a simulation's day, packed afterwards). */
export function writeJsonAtomic(path: string, value: unknown, durable = true): void {
  writeFileAtomicSync(path, `${JSON.stringify(redactValue(value), null, 2)}\n`, { durable });
}

export function ensureRunDir(runDir: string): ArtifactPaths {
  mkdirSync(runDir, { recursive: true });
  return artifactPaths(runDir);
}

/**
 * The packed form of a finished run's artifacts, brotli-compressed: a JSON header line
 * `{"format", "files": [[name, bytes], …]}`, then the files' bytes one after another.
 */
export const PACKED_FILE = "artifacts.json.br";
const PACKED_FORMAT = "tradewarden-run-artifacts/1";

type ArtifactKey = keyof typeof ARTIFACT_FILES | keyof typeof OPTIONAL_ARTIFACT_FILES;
const fileOf = (key: ArtifactKey): string =>
  key in ARTIFACT_FILES ? ARTIFACT_FILES[key as keyof typeof ARTIFACT_FILES] : OPTIONAL_ARTIFACT_FILES[key as keyof typeof OPTIONAL_ARTIFACT_FILES];

function readPacked(runDir: string): Map<string, string> | null {
  const p = join(runDir, PACKED_FILE);
  // Only a regular file, within the artifact limit, and never unpacked past it (no decompression bomb).
  const read = readRegularBytes(p, READ_LIMITS.artifact);
  if (read.kind === "absent") return null;
  if (read.kind === "refused") throw new Error(read.reason);
  let raw: Buffer;
  try {
    raw = brotliDecompressSync(read.bytes, { maxOutputLength: READ_LIMITS.artifact.maxBytes });
  } catch (e) {
    throw new Error(`${p} cannot be unpacked: ${(e as Error).message}`);
  }
  const nl = raw.indexOf(10);
  const head = JSON.parse(raw.subarray(0, nl).toString("utf8")) as { format?: string; files?: [string, number][] };
  if (head.format !== PACKED_FORMAT || !Array.isArray(head.files)) throw new Error(`${p} is not a packed run (format ${String(head.format)})`);
  const files = new Map<string, string>();
  let at = nl + 1;
  for (const [name, bytes] of head.files) {
    files.set(name, raw.subarray(at, at + bytes).toString("utf8"));
    at += bytes;
  }
  if (at !== raw.length) throw new Error(`${p} is truncated or has trailing bytes`);
  return files;
}

/** One artifact's text, from its file or the run's packed bundle; null when it is in neither. */
export function readArtifact(runDir: string, key: ArtifactKey): string | null {
  const file = join(runDir, fileOf(key));
  const plain = readRegularFile(file, READ_LIMITS.artifact);
  if (plain.kind === "ok") return plain.text;
  if (plain.kind === "refused") throw new TwError("artifact_unreadable", plain.reason, EXIT.USAGE_OR_CONFIG);
  return readPacked(runDir)?.get(fileOf(key)) ?? null;
}

/** Packs files (bytes or texts, by file name) into `artifacts.json.br` (written in place). Returns the bundle's size in bytes. */
function writePacked(runDir: string, files: readonly [string, Buffer | string][]): number {
  const sizes = files.map(([, b]) => (typeof b === "string" ? Buffer.byteLength(b, "utf8") : b.length));
  const head = `${JSON.stringify({ format: PACKED_FORMAT, files: files.map(([n], i) => [n, sizes[i]]) })}\n`;
  // One buffer, each file written into it in place (a held run's texts are not copied twice).
  const headBytes = Buffer.byteLength(head, "utf8");
  const raw = Buffer.allocUnsafe(headBytes + sizes.reduce((a, b) => a + (b as number), 0));
  let at = raw.write(head, 0, "utf8");
  for (const [, b] of files) at += typeof b === "string" ? raw.write(b, at, "utf8") : b.copy(raw, at);
  // Quality 0: a simulated day packs in under half the time of quality 2 for some 15% more bytes
  // (a bundle ~16 → ~19 KB); any brotli stream reads the same, so older bundles and readers are unaffected.
  const packed = brotliCompressSync(raw, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 0, [zlib.BROTLI_PARAM_LGWIN]: 22, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  writeFileSync(join(runDir, PACKED_FILE), packed);
  return packed.length;
}

/** Packs a finished run's artifact files into `artifacts.json.br`, then removes the files. Returns the bundle's size in bytes. */
export function packRunDir(runDir: string): number {
  const files: [string, Buffer][] = [];
  for (const name of ARTIFACT_FILE_NAMES) {
    const p = join(runDir, name);
    if (existsSync(p)) files.push([name, readFileSync(p)]);
  }
  // Written in place (no temp file): until the plain files are removed, readers prefer them.
  const size = writePacked(runDir, files);
  for (const [name] of files) rmSync(join(runDir, name), { force: true });
  return size;
}

/**
 * A run's artifacts held in memory by file name (a simulated day): nothing is written, renamed,
 * read back or removed per artifact; `writeHeld` packs them once when the run closes.
 */
export class HeldArtifacts {
  readonly texts = new Map<string, string>();

  set(name: string, text: string): void {
    this.texts.set(name, text);
  }

  has(name: string): boolean {
    return this.texts.has(name);
  }

  /** A JSON artifact, redacted like writeJsonAtomic's (compact: nobody reads the bundle by eye). */
  setJson(name: string, value: unknown): void {
    this.texts.set(name, `${JSON.stringify(redactValue(value))}\n`);
  }

  /** Appends one line (redacted, like `fileSink`'s) to an artifact. */
  appendLine(name: string, line: string): void {
    this.texts.set(name, `${this.texts.get(name) ?? ""}${redact(line)}\n`);
  }
}

/** Writes a run's held artifacts, packed, into its folder. Returns the bundle's size in bytes. */
export function writeHeld(runDir: string, held: HeldArtifacts): number {
  const files: [string, string][] = [];
  for (const name of ARTIFACT_FILE_NAMES) {
    const text = held.texts.get(name);
    if (text !== undefined) files.push([name, text]);
  }
  return writePacked(runDir, files);
}

/** Writes a JSON artifact: into the held ones when the run holds its artifacts, else its file (atomically). */
export function putJsonArtifact(held: HeldArtifacts | undefined, path: string, value: unknown, durable: boolean): void {
  if (held) held.setJson(basename(path), value);
  else writeJsonAtomic(path, value, durable);
}
