/**
 * Audit finds any one-character edit of any artifact (issue #23). A real run (the CLI's entry, in-process) and a
 * real simulation (its days' artifacts packed); then each artifact is edited at many single
 * positions spread over the file — and at the places that used to go unnoticed: the transcript's
 * system prompt and task, a cassette response's `"input"` key, an event's `summary`, `at` and
 * `reason` — and the real audit must report each edit, naming the file. Runs recorded before the
 * digests (no `artifacts` in their journal record) still audit clean, and the records' cross-checks
 * still find an edited system prompt, task or tool input in them.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACT_FILES, OPTIONAL_ARTIFACT_FILES, packRunDir, readArtifact } from "../../src/run/artifacts.js";
import { auditRunDir } from "../../src/records/audit.js";
import { CHAIN_ORIGIN, chainEvents } from "../../src/journal/chain.js";
import type { JournalEvent } from "../../src/journal/types.js";
import { cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";

afterAll(cleanupHomes);

const KEYS = { ...ARTIFACT_FILES, ...OPTIONAL_ARTIFACT_FILES };
type Key = keyof typeof KEYS;

let home = "";
let runDir = "";
let simDir = "";
beforeAll(async () => {
  home = freshHome();
  expectExit(await twIn(home, ["run", "--yes"]), 0);
  runDir = join(home, "runs", readdirSync(join(home, "runs"))[0] as string);
  expectExit(await twIn(home, ["simulate", "--from", "2007-01-03", "--to", "2007-01-05", "--name", "s"]), 0);
  const simRuns = join(home, "simulations", "s", "runs");
  simDir = join(simRuns, readdirSync(simRuns).sort()[1] as string);
}, 180_000);

/** The character put in place of `c`: a letter or digit of the same kind (the file stays well-formed), else another character. */
function replacement(c: string): string {
  if (/[0-8]/.test(c)) return String(Number(c) + 1);
  if (c === "9") return "0";
  if (/[a-yA-Y]/.test(c)) return String.fromCharCode(c.charCodeAt(0) + 1);
  if (c === "z" || c === "Z") return String.fromCharCode(c.charCodeAt(0) - 25);
  return c === "x" ? "y" : "x";
}
const editAt = (text: string, at: number) => text.slice(0, at) + replacement(text[at] as string) + text.slice(at + 1);

/** Positions spread over the text, and the named places (the first character inside each match). */
function positions(text: string, spread: number, places: RegExp[]): { at: number; what: string }[] {
  const out: { at: number; what: string }[] = [];
  for (let i = 0; i < spread; i++)
    out.push({ at: Math.floor(((i + 0.5) * text.length) / spread), what: `position ${Math.floor(((i + 0.5) * text.length) / spread)}` });
  for (const re of places) {
    const m = new RegExp(re.source, `${re.flags}d`).exec(text);
    if (!m) throw new Error(`no ${re} in the artifact`);
    out.push({ at: m.indices?.[1]?.[0] ?? m.index, what: `${re}` });
  }
  return out;
}

/** The places that went unnoticed before, per artifact (the capture group is the character edited). */
const PLACES: Partial<Record<Key, RegExp[]>> = {
  transcript: [/"system": "You (m)anage/, /"text": "Trading (d)ay: /, /"text": "Trading day: \d{4}-\d{2}-\d{2}\. Market data ends the trading day (b)efore/],
  cassette: [/"response":\{"content":\[[^\n]*?"(i)nput":/],
  events: [/"summary":"(.)/, /"at":"\d{4}-\d{2}-\d(\d)T/, /"reason":"(.)/],
};

function findingsFor(dir: string): string[] {
  return auditRunDir(dir, {}).map((f) => `[${f.check}] ${f.message}`);
}

describe("audit finds any one-character edit of any artifact", () => {
  it("the untouched run and simulated day audit clean", () => {
    expect(findingsFor(runDir)).toEqual([]);
    expect(findingsFor(simDir)).toEqual([]);
  });

  it("a run's plain files: every edit at 40 spread positions of each artifact, and at the named places, is reported naming the file", () => {
    const missed: string[] = [];
    let cases = 0;
    // envelope-facts.json is a simulated day's only (a daily run writes its envelopes instead).
    for (const key of (Object.keys(KEYS) as Key[]).filter((k) => k !== "envelopeFacts")) {
      const file = join(runDir, KEYS[key]);
      const original = readFileSync(file, "utf8");
      for (const p of positions(original, 40, PLACES[key] ?? [])) {
        writeFileSync(file, editAt(original, p.at));
        const found = findingsFor(runDir);
        if (!found.some((f) => f.includes(KEYS[key])))
          missed.push(`${KEYS[key]} ${p.what} (${JSON.stringify(original.slice(p.at - 10, p.at + 10))}): ${found.join(" | ") || "no finding"}`);
        cases++;
      }
      writeFileSync(file, original);
    }
    expect(missed).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(5 * 40 + 7);
    expect(findingsFor(runDir)).toEqual([]);
  }, 120_000);

  it("a simulated day's packed artifacts: edits at spread positions and the named places are reported", () => {
    const originals = new Map<Key, string>();
    for (const key of Object.keys(KEYS) as Key[]) {
      const text = readArtifact(simDir, key);
      if (text !== null) originals.set(key, text);
    }
    // events, transcript, cassette and the envelopes' facts (its envelopes are derived, not written)
    expect([...originals.keys()].sort()).toEqual(["cassette", "envelopeFacts", "events", "transcript"]);
    const pack = (edited?: { key: Key; text: string }) => {
      for (const [key, text] of originals) writeFileSync(join(simDir, KEYS[key]), edited?.key === key ? edited.text : text);
      packRunDir(simDir);
    };
    const missed: string[] = [];
    for (const [key, original] of originals) {
      const places = key === "events" ? (PLACES.events ?? []) : [];
      for (const p of positions(original, 8, places)) {
        pack({ key, text: editAt(original, p.at) });
        const found = findingsFor(simDir);
        if (!found.some((f) => f.includes(KEYS[key]))) missed.push(`${KEYS[key]} ${p.what}: ${found.join(" | ") || "no finding"}`);
      }
    }
    pack();
    expect(missed).toEqual([]);
    expect(findingsFor(simDir)).toEqual([]);
  }, 120_000);

  it("a run recorded before the digests (none in its journal record) audits clean; its records' cross-checks still find an edited system prompt, task or tool input", () => {
    const old = freshHome();
    cpSync(home, old, { recursive: true });
    // The same journal as one written before the digests: no `artifacts` in any record, its hash chain whole.
    const log = join(old, "journal.log.jsonl");
    const events = readFileSync(log, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => {
        const { prev: _prev, artifacts: _artifacts, ...ev } = JSON.parse(line) as JournalEvent & { artifacts?: unknown };
        return ev as JournalEvent;
      });
    const { text, hash } = chainEvents(events, CHAIN_ORIGIN);
    writeFileSync(log, text);
    const head = JSON.parse(readFileSync(join(old, "journal.json"), "utf8")) as { log: { committed_bytes: number; last_hash: string } };
    head.log.committed_bytes = Buffer.byteLength(text);
    head.log.last_hash = hash;
    writeFileSync(join(old, "journal.json"), JSON.stringify(head));
    expect(text).not.toContain('"artifacts"');
    const dir = join(old, "runs", readdirSync(join(old, "runs"))[0] as string);
    expect(findingsFor(dir)).toEqual([]);

    const transcript = join(dir, "transcript.json");
    const original = readFileSync(transcript, "utf8");
    for (const re of [...(PLACES.transcript ?? []), /"input": \{\s*"(f)ilters"/]) {
      const [p] = positions(original, 0, [re]);
      writeFileSync(transcript, editAt(original, p?.at ?? 0));
      expect(
        findingsFor(dir).filter((f) => f.startsWith("[agreement]") && f.includes("transcript.json")),
        `${re}`,
      ).not.toEqual([]);
    }
    writeFileSync(transcript, original);
    const cassette = join(dir, "cassette.jsonl");
    const recorded = readFileSync(cassette, "utf8");
    const [p] = positions(recorded, 0, PLACES.cassette ?? []);
    writeFileSync(cassette, editAt(recorded, p?.at ?? 0));
    expect(findingsFor(dir).some((f) => f.startsWith("[agreement]") && f.includes("cassette line"))).toBe(true);
  });
});
