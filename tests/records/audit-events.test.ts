/**
 * The audit checks every events.jsonl line against its event type's schema (core/events.ts): a
 * line whose event is not the shape its type says is a finding naming the line. Runs recorded
 * before gate decisions carried their input index still audit clean.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_EVENT_TYPES } from "../../src/core/events.js";
import { auditRunDir } from "../../src/records/audit.js";
import { eventShapeIssues } from "../../src/records/audit-events.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function copyOf(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-audit-events-"));
  made.push(dir);
  cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  return dir;
}

const eventLines = (dir: string) =>
  readFileSync(join(dir, "events.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.length > 0);

describe("audit: each event line against its schema", () => {
  for (const fixture of ["cassette-tw-tools-1", "cassette-tw-tools-2"]) {
    it(`every event of the recorded run ${fixture} fits its type (decisions without an index included)`, () => {
      for (const line of eventLines(copyOf(fixture))) {
        const event = JSON.parse(line) as { type: string };
        expect(eventShapeIssues(event.type, event), line.slice(0, 80)).toEqual([]);
      }
    });
  }

  it("names a line whose event breaks its type's shape, and nothing else in the events check", () => {
    const dir = copyOf("cassette-tw-tools-2");
    const lines = eventLines(dir);
    const at = lines.findIndex((l) => l.includes('"type":"model.turn_started"'));
    const event = JSON.parse(lines[at] as string) as Record<string, unknown>;
    lines[at] = JSON.stringify({ ...event, turn: "one", max_turns: undefined });
    writeFileSync(join(dir, "events.jsonl"), `${lines.join("\n")}\n`);
    const findings = auditRunDir(dir, {}).filter((f) => f.check === "events");
    expect(findings).toEqual([
      {
        check: "events",
        message: `events.jsonl line ${at + 1} is not a valid model.turn_started event: max_turns: missing required key; turn: must be a number, got "one"`,
      },
    ]);
  });

  it("compiles every event type's schema (ajv, strict) and finds the stamp missing from a bare body", () => {
    for (const type of RUN_EVENT_TYPES) expect(eventShapeIssues(type, { type })).toContain("seq: missing required key");
  });

  it("checks field types, not the order intent's bounds: a kill-switch liquidation (no evidence) fits", () => {
    const stamp = { seq: 1, at: "2026-01-02T00:00:00.000Z", run_id: "r" };
    const sell = { symbol: "ACME", side: "SELL", quantity: 3, limit_price: 9.5, reason: "kill switch", evidence_ids: [] };
    const tripped = { type: "killswitch.tripped", value: 90, peak: 100, drawdown_pct: 10, limit_pct: 10, reason: "drawdown", liquidation: [sell], ...stamp };
    expect(eventShapeIssues("killswitch.tripped", tripped)).toEqual([]);
    expect(eventShapeIssues("killswitch.tripped", { ...tripped, liquidation: [{ ...sell, quantity: "3" }] })).toEqual([
      'liquidation[0].quantity: must be a number, got "3"',
    ]);
  });

  it("leaves an unknown type to the type check (one finding, as before)", () => {
    expect(eventShapeIssues("model.daydream", { type: "model.daydream" })).toEqual([]);
  });
});
