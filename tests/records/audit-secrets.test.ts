/**
 * audit's secret scan (src/records/audit-secrets.ts): any form of a key in any file of a run is found
 * — a key split across streamed `model.text` events, a key in a file below the run folder — and a
 * redaction mark is never taken for a key.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkSecrets, nestedRunFiles } from "../../src/records/audit-secrets.js";
import { echoForms } from "../fixtures/secret-forms.js";

const KEY = "sk-ant-canary+Q/7x9Zk2mWv4Rt8Lp3";
const ENV = { ANTHROPIC_API_KEY: KEY };

function scan(files: { name: string; text: string }[], events?: string): string[] {
  const out: string[] = [];
  checkSecrets(files, events, ENV, (check, message) => out.push(`${check}: ${message}`));
  return out;
}

const textEvents = (pieces: string[]) => pieces.map((delta, i) => JSON.stringify({ type: "model.text", turn: 1, delta, seq: i + 1 })).join("\n");

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("audit's secret scan", () => {
  for (const [form, text] of Object.entries(echoForms(KEY))) {
    it(`finds the key ${form} in a file`, () => {
      expect(scan([{ name: "transcript.json", text: JSON.stringify({ text: `echo ${text}` }) }]).join("\n")).toMatch(
        /transcript\.json contains the value of ANTHROPIC_API_KEY/,
      );
    });
  }

  it("finds a key split across model.text events (no one event holds it)", () => {
    const pieces = ["The key is sk-a", "nt-canary+Q/7x9", "Zk2mWv4Rt8Lp3, done."];
    const events = textEvents(pieces);
    expect(scan([{ name: "events.jsonl", text: events }])).toEqual([]);
    expect(scan([{ name: "events.jsonl", text: events }], events)).toEqual([
      "secrets: events.jsonl (the model's text of turn 1, assembled) contains the value of ANTHROPIC_API_KEY (in some form)",
    ]);
  });

  it("never trips on its own redaction marks (a header dump whose values were redacted)", () => {
    const redacted = JSON.stringify({
      error: JSON.stringify({
        headers: { "x-api-key": "[redacted ANTHROPIC_API_KEY]", "APCA-API-SECRET-KEY": "[redacted APCA_API_SECRET_KEY]", authorization: "Bearer [redacted]" },
      }),
    });
    expect(
      scan([
        { name: "events.jsonl", text: redacted },
        { name: "cassette.jsonl", text: '{"x-api-key": "[redacted]"}' },
      ]),
    ).toEqual([]);
    // The same dump with a value left in is found, escaped or not.
    expect(scan([{ name: "events.jsonl", text: JSON.stringify({ error: JSON.stringify({ "x-api-key": "abc123def" }) }) }])).toEqual([
      "secrets: events.jsonl contains what looks like a API key header",
    ]);
  });

  it("reads the files below the run folder's top level", () => {
    const dir = mkdtempSync(join(tmpdir(), "tw-audit-secrets-"));
    dirs.push(dir);
    writeFileSync(join(dir, "events.jsonl"), "{}\n");
    mkdirSync(join(dir, "extra", "deeper"), { recursive: true });
    writeFileSync(join(dir, "extra", "deeper", "dump.txt"), `hex ${Buffer.from(KEY).toString("hex")}`);
    const nested = nestedRunFiles(dir);
    expect(nested.map((f) => f.name)).toEqual(["extra/deeper/dump.txt"]);
    expect(scan(nested)).toEqual(["secrets: extra/deeper/dump.txt contains the value of ANTHROPIC_API_KEY (in some form)"]);
  });
});
