import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EventSink } from "../../src/run/event-sink.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("event sink", () => {
  it("a listener that throws never throws into the emitter; the failure is reported once as a warning and other listeners still get every event", () => {
    const sink = new EventSink();
    const seen: string[] = [];
    sink.subscribe(() => {
      throw new Error("screen crashed");
    });
    sink.subscribe((e) => seen.push(e.type));
    expect(() => sink.emit({ type: "reconcile.ok", positions: 0 })).not.toThrow();
    expect(() => sink.emit({ type: "reconcile.ok", positions: 1 })).not.toThrow();
    const notes = sink.events.filter((e) => e.type === "run.note");
    expect(notes).toHaveLength(1); // reported once, not once per event
    expect(JSON.stringify(notes[0])).toContain("an event listener failed on reconcile.ok: screen crashed");
    expect(seen.filter((t) => t === "reconcile.ok")).toHaveLength(2);
    expect(sink.failures[0]).toBe("an event listener failed on reconcile.ok: screen crashed");
  });

  it("a failed artifact append (disk full) keeps the events in memory and is reported once, not thrown", () => {
    // /dev/full accepts the open and fails every write with ENOSPC: a real disk-full append.
    const sink = new EventSink();
    const seen: string[] = [];
    sink.subscribe((e) => seen.push(e.type));
    sink.attachFile("/dev/full");
    expect(() => sink.emit({ type: "reconcile.ok", positions: 0 })).not.toThrow();
    expect(() => sink.emit({ type: "reconcile.ok", positions: 1 })).not.toThrow();
    expect(sink.events.map((e) => e.type)).toEqual(["reconcile.ok", "run.note", "reconcile.ok"]);
    expect(seen).toEqual(["reconcile.ok", "run.note", "reconcile.ok"]); // the listener sees the event before the warning
    expect(sink.failures).toHaveLength(1);
    expect(sink.failures[0]).toMatch(/could not append to \/dev\/full \(ENOSPC/);
    sink.close();
  });

  it("an event file that cannot be opened (a directory in the way) is reported at attach; events stay in memory", () => {
    const dir = mkdtempSync(join(tmpdir(), "tw-sink-"));
    dirs.push(dir);
    const file = join(dir, "events.jsonl");
    mkdirSync(file);
    const sink = new EventSink();
    sink.emit({ type: "reconcile.ok", positions: 0 }); // buffered before the file is attached
    expect(() => sink.attachFile(file)).not.toThrow();
    expect(() => sink.emit({ type: "reconcile.ok", positions: 1 })).not.toThrow();
    expect(sink.events.map((e) => e.type)).toEqual(["reconcile.ok", "run.note", "reconcile.ok"]);
    expect(sink.failures[0]).toMatch(/could not append to .*events\.jsonl \(EISDIR/);
  });

  it("a simulation's sink (writeThrough false) writes the run's events in one append at close(), in order; later events are appended at once", () => {
    const dir = mkdtempSync(join(tmpdir(), "tw-sink-"));
    dirs.push(dir);
    const file = join(dir, "events.jsonl");
    const sink = new EventSink(undefined, { writeThrough: false });
    const seen: number[] = [];
    sink.subscribe((e) => seen.push(e.seq));
    sink.attachFile(file);
    for (let i = 0; i < 3; i++) sink.emit({ type: "reconcile.ok", positions: i });
    expect(readFileSync(file, "utf8")).toBe(""); // held until the run closes
    expect(seen).toEqual([1, 2, 3]); // listeners are not held back
    sink.close();
    const seqs = () =>
      readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(seqs()).toEqual([1, 2, 3]);
    sink.emit({ type: "reconcile.ok", positions: 9 });
    expect(seqs()).toEqual([1, 2, 3, 4]);
  });

  it("appends every event as it happens, and after close() a later event still reaches the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "tw-sink-"));
    dirs.push(dir);
    const file = join(dir, "runs", "r1", "events.jsonl");
    const sink = new EventSink();
    sink.emit({ type: "reconcile.ok", positions: 0 }); // before the file: flushed on attach
    sink.attachFile(file);
    sink.emit({ type: "reconcile.ok", positions: 1 });
    const lines = () =>
      readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { seq: number });
    expect(lines().map((e) => e.seq)).toEqual([1, 2]); // on disk before close: a crash now keeps both
    sink.close();
    sink.close();
    sink.emit({ type: "reconcile.ok", positions: 2 });
    expect(lines().map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(sink.failures).toEqual([]);
  });
});
