/**
 * The one atomic writer: a file is replaced whole (old or new, never a mix, no temporary file left),
 * and every writer of durable state flushes the new file and its folder to the disk before it
 * returns. fsync cannot be seen from outside the process, so node:fs is wrapped to record which
 * paths were fsynced (every other call goes to the real file system).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

const synced: string[] = [];
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const opened = new Map<number, string>();
  const openSync = (...args: Parameters<typeof real.openSync>): number => {
    const fd = real.openSync(...args);
    opened.set(fd, String(args[0]));
    return fd;
  };
  const fsyncSync = (fd: number): void => {
    real.fsyncSync(fd);
    synced.push(opened.get(fd) ?? `fd ${fd}`);
  };
  return { ...real, default: { ...real, openSync, fsyncSync }, openSync, fsyncSync };
});

const { writeFileAtomicSync, writeFileAtomic } = await import("../../src/util/atomic-write.js");
const { writeJsonAtomic } = await import("../../src/run/artifacts.js");
const { writeSimState, newSimState } = await import("../../src/broker/simulated-store.js");
const { writeImportedBarFiles, importMeta } = await import("../../src/commands/data-import.js");
const { MarketData } = await import("../../src/market/data.js");

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "tw-atomic-"));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
beforeEach(() => {
  synced.length = 0;
});

/** The new file (a temporary name beside `dest`, renamed over it) and the folder were both fsynced. */
function expectFlushed(dest: string): void {
  const dir = path.dirname(dest);
  expect(synced.some((p) => path.dirname(p) === dir && path.basename(p).startsWith(`.${path.basename(dest)}.`) && p.endsWith(".tmp"))).toBe(true);
  expect(synced).toContain(dir);
}

describe("the atomic writer", () => {
  it("replaces a file whole, leaves no temporary file, and flushes the file and its folder", async () => {
    const dir = tmp();
    const file = path.join(dir, "state.json");
    fs.writeFileSync(file, "old");
    writeFileAtomicSync(file, "new");
    expect(fs.readFileSync(file, "utf8")).toBe("new");
    expectFlushed(file);
    synced.length = 0;
    await writeFileAtomic(file, "newer", { mode: 0o600 });
    expect(fs.readFileSync(file, "utf8")).toBe("newer");
    expect(fs.readdirSync(dir)).toEqual(["state.json"]);
  });

  it("leaves the old file as it was, and no temporary file, when the rename fails", async () => {
    const dir = tmp();
    const target = path.join(dir, "taken");
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, "inside"), "kept");
    expect(() => writeFileAtomicSync(target, "x")).toThrow();
    await expect(writeFileAtomic(target, "x")).rejects.toThrow();
    expect(() => writeJsonAtomic(target, { run_id: "r1" })).toThrow(); // a run artifact's writer
    expect(fs.readdirSync(dir)).toEqual(["taken"]);
    expect(fs.readFileSync(path.join(target, "inside"), "utf8")).toBe("kept");
  });

  it("does not fsync when asked not to (a simulation's throwaway journal head and run artifacts)", () => {
    const dir = tmp();
    writeFileAtomicSync(path.join(dir, "head.json"), "{}", { durable: false });
    writeJsonAtomic(path.join(dir, "transcript.json"), { run_id: "r1" }, false); // a simulated day's artifact, packed afterwards
    expect(synced).toEqual([]);
    expect(fs.readdirSync(dir).sort()).toEqual(["head.json", "transcript.json"]);
  });

  it("run artifacts, the simulated broker's book and imported bars are flushed to the disk", () => {
    const dir = tmp();
    const artifact = path.join(dir, "transcript.json");
    writeJsonAtomic(artifact, { run_id: "r1", messages: [] });
    expectFlushed(artifact);

    synced.length = 0;
    const book = path.join(dir, "sim-broker.json");
    writeSimState(book, newSimState(MarketData.load({ home: dir })));
    expectFlushed(book);

    // A simulation's book follows its non-durable journal: still replaced whole, not flushed.
    synced.length = 0;
    const state = newSimState(MarketData.load({ home: dir }));
    writeSimState(book, state, { durable: false });
    expect(synced).toEqual([]);
    expect(JSON.parse(fs.readFileSync(book, "utf8")).gen).toBe(state.gen);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    synced.length = 0;
    const bars = [{ date: "2020-01-02", open: 1, high: 2, low: 1, close: 2, volume: 10 }];
    const [dest] = writeImportedBarFiles(dir, [{ symbol: "ABC", bars, meta: importMeta("ABC", "USD", "test", 1) }]);
    expect(synced.some((p) => p.startsWith(`${dest}.tmp`))).toBe(true);
    expect(synced).toContain(path.dirname(dest!));
  });
});
