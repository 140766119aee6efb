/**
 * Audit never passes because the journal could not vouch for a run: the SHA-256s recorded at a run's
 * close are read as the journal's own open reads them (a missing head rebuilt from the log's whole
 * lines), and a damaged journal — a head that is not one, a log cut short of its commit mark, a log
 * gone, a broken hash chain — is a finding of its own. Each case is a real home after real runs,
 * audited through the CLI (in-process), with exit 1 on any finding.
 */
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupHomes, copyOfHome, expectExit, freshHome, twIn } from "../e2e/helpers.js";

afterAll(cleanupHomes);

let template = "";
let first = "";
let last = "";
beforeAll(async () => {
  template = freshHome();
  for (let i = 0; i < 2; i++) expectExit(await twIn(template, ["run", "--yes"]), 0);
  const runs = readdirSync(join(template, "runs")).sort();
  first = runs[0] as string;
  last = runs.at(-1) as string;
}, 120_000);

/** A copy of the home after `damage`, audited: the exit code and the findings' lines. */
async function auditAfter(run: string, damage: (home: string) => void): Promise<{ code: number; out: string }> {
  const home = copyOfHome(template);
  damage(home);
  const r = await twIn(home, ["audit", run]);
  return { code: r.exitCode, out: r.stdout };
}

const editTranscript = (home: string, run: string) => appendFileSync(join(home, "runs", run, "transcript.json"), " ");

describe("audit with a damaged journal", () => {
  it("an untouched home audits clean", async () => {
    const r = await auditAfter(first, () => {});
    expect(r.out).toContain("audit ok");
    expect(r.code).toBe(0);
  });

  it("without the journal's head, the digests are read from the log's whole lines: an edit is still found", async () => {
    const r = await auditAfter(first, (home) => {
      rmSync(join(home, "journal.json"));
      editTranscript(home, first);
    });
    expect(r.out).toMatch(/\[digests\] transcript\.json was changed after the run closed/);
    expect(r.code).toBe(1);
  });

  it("a head that is not one is a finding, and the edit is still found against the log", async () => {
    const r = await auditAfter(first, (home) => {
      writeFileSync(join(home, "journal.json"), `X${readFileSync(join(home, "journal.json"), "utf8").slice(1)}`);
      editTranscript(home, first);
    });
    expect(r.out).toMatch(/\[digests\] the journal's head .*journal\.json cannot be read/);
    expect(r.out).toMatch(/\[digests\] transcript\.json was changed after the run closed/);
    expect(r.code).toBe(1);
  });

  it("a log cut short of its commit mark (the latest run's close lost with it) is a finding", async () => {
    const r = await auditAfter(last, (home) => {
      const log = join(home, "journal.log.jsonl");
      truncateSync(log, readFileSync(log).length - 100);
      editTranscript(home, last);
    });
    expect(r.out).toMatch(/\[digests\] the journal's log .* holds \d+ bytes, fewer than the \d+ its head records as committed/);
    expect(r.code).toBe(1);
  });

  it("a journal file that is a folder is a finding naming why, never a crash", async () => {
    const head = await auditAfter(first, (home) => {
      rmSync(join(home, "journal.json"));
      mkdirSync(join(home, "journal.json"));
      editTranscript(home, first);
    });
    expect(head.out).toMatch(/\[digests\] the journal's head .*journal\.json cannot be read \(EISDIR/);
    expect(head.out).toMatch(/\[digests\] transcript\.json was changed after the run closed/);
    expect(head.code).toBe(1);
    const log = await auditAfter(first, (home) => {
      rmSync(join(home, "journal.log.jsonl"));
      mkdirSync(join(home, "journal.log.jsonl"));
    });
    expect(log.out).toMatch(/\[digests\] the journal's log .*journal\.log\.jsonl cannot be read \(EISDIR/);
    expect(log.code).toBe(1);
  });

  it("a missing log is a finding", async () => {
    const r = await auditAfter(first, (home) => rmSync(join(home, "journal.log.jsonl")));
    expect(r.out).toMatch(/\[digests\] the journal's log .* is missing/);
    expect(r.code).toBe(1);
  });

  it("an edited journal line — the run's own digests rewritten to match an edited artifact — breaks the chain: a finding", async () => {
    const r = await auditAfter(first, (home) => {
      const file = join(home, "runs", first, "transcript.json");
      writeFileSync(file, `${readFileSync(file, "utf8")} `);
      const digest = createHash("sha256").update(readFileSync(file, "utf8"), "utf8").digest("hex");
      const log = join(home, "journal.log.jsonl");
      const lines = readFileSync(log, "utf8").split("\n");
      const at = lines.findIndex((l) => l.includes('"run_finish"') && l.includes(first));
      lines[at] = (lines[at] as string).replace(/"transcript\.json":"[0-9a-f]{64}"/, `"transcript.json":"${digest}"`);
      writeFileSync(log, lines.join("\n"));
    });
    expect(r.out).not.toMatch(/transcript\.json was changed/);
    expect(r.out).toMatch(/\[digests\] the journal's hash chain is broken/);
    expect(r.code).toBe(1);
  });

  it("an edit of the log's last line (no later line carries its hash) breaks the chain at the head", async () => {
    const r = await auditAfter(last, (home) => {
      const log = join(home, "journal.log.jsonl");
      const text = readFileSync(log, "utf8");
      const lastLine = text.slice(text.lastIndexOf("\n", text.length - 2) + 1);
      expect(lastLine).toMatch(/"at":"\d/);
      writeFileSync(log, text.slice(0, text.length - lastLine.length) + lastLine.replace(/"at":"(\d)/, (_m, d: string) => `"at":"${(Number(d) + 1) % 10}`));
    });
    expect(r.out).toMatch(/\[digests\] the journal's hash chain is broken \(the last committed line \(\d+\) does not match the head's last_hash/);
    expect(r.code).toBe(1);
  });
});

describe("audit names the artifact it cannot read", () => {
  it("an artifact that is a folder is named as that artifact (not as a packed file the run does not have), once", async () => {
    const r = await auditAfter(first, (home) => {
      const cassette = join(home, "runs", first, "cassette.jsonl");
      rmSync(cassette);
      mkdirSync(cassette);
    });
    expect(r.out).toMatch(/\[files\] cassette\.jsonl cannot be read: .*cassette\.jsonl is a folder/);
    expect(r.out).not.toContain("artifacts.json.br");
    expect(r.out).not.toContain("cassette.jsonl is missing");
    expect(r.code).toBe(1);
  });
});

describe("audit says what it could not check", () => {
  it("a run folder copied out of its home's runs/ audits against every contract but says its SHA-256s were not checked", async () => {
    const home = copyOfHome(template);
    const copy = join(home, "copied-run");
    cpSync(join(home, "runs", first), copy, { recursive: true });
    const [inside, outside] = [await twIn(home, ["audit", first]), await twIn(home, ["audit", copy])];
    expect(String(inside.stdout).trim()).toBe(`audit ok: ${join(home, "runs", first)}`);
    expect(String(outside.stdout).trim()).toBe(
      `audit ok: ${copy} (a folder outside a home's runs/: its artifacts were checked against every contract, but not against the SHA-256s a journal records when a run closes)`,
    );
    expect(outside.exitCode).toBe(0);
  });
});
