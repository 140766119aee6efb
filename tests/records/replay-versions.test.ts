/**
 * Contract versions in replay: cassettes recorded under tw-tools/1 (by main's code before the
 * catalogue became tw-tools/2; tests/fixtures/cassette-tw-tools-1) and under tw-tools/2 (a scripted
 * `run --yes` on a fresh home by the code before the catalogue became tw-tools/3;
 * tests/fixtures/cassette-tw-tools-2) still replay request-identically, because the runtime serves
 * the frozen descriptions, schemas and serialisation of each version.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCassette } from "../../src/agent/cassette.js";
import { defaultConfig } from "../../src/config/load.js";
import { auditRunDir } from "../../src/records/audit.js";
import { replayRun } from "../../src/records/replay.js";
import { CONTRACT_VERSION } from "../../src/tools/catalogue.js";
import { contractSet } from "../../src/tools/versions.js";

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "cassette-tw-tools-1");

function copyFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-replay-v1-"));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

describe("replay of a tw-tools/1 cassette", () => {
  it("the catalogue has moved on to tw-tools/3", () => {
    expect(CONTRACT_VERSION).toBe("tw-tools/3");
    expect(JSON.parse(readFileSync(join(FIXTURE, "cassette.jsonl"), "utf8").split("\n")[0] as string).contract_version).toBe("tw-tools/1");
  });

  it("replays request-identically with the frozen v1 contracts", async () => {
    const report = await replayRun(copyFixture(), defaultConfig());
    expect(report.contractVersion).toBe("tw-tools/1");
    expect(report.calls).toBe(5);
    expect(report.outcome).toBe("submitted");
    expect(report.recordedOutcome).toBe("submitted");
  });

  it("its cassette audits cleanly: the format 1 cassette (tools inline in every call) reads, and every key matches its request", () => {
    const text = readFileSync(join(FIXTURE, "cassette.jsonl"), "utf8");
    expect(JSON.parse(text.split("\n")[0] as string).format).toBe(1);
    expect(parseCassette(text).calls).toHaveLength(5);
    // (The fixture predates later research-cycle fields: only the cassette and the records' agreement are asked here.)
    expect(auditRunDir(copyFixture(), {}).filter((f) => f.check === "cassette" || f.check === "agreement")).toEqual([]);
  });

  it("fails closed when the recorded tools differ from what v1 serves (the check can fail)", async () => {
    const dir = copyFixture();
    const path = join(dir, "cassette.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    const meta = JSON.parse(lines[0] as string);
    meta.contract_version = CONTRACT_VERSION; // pretend it was recorded with the current version: its tools differ
    lines[0] = JSON.stringify(meta);
    writeFileSync(path, lines.join("\n"));
    await expect(replayRun(dir, defaultConfig())).rejects.toThrow(/request 1 differs from the record\w* (request )?at \$\.tools/);
  });

  it("refuses a cassette of an unknown contract version", async () => {
    const dir = copyFixture();
    const path = join(dir, "cassette.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0] as string), contract_version: "tw-tools/99" });
    writeFileSync(path, lines.join("\n"));
    await expect(replayRun(dir, defaultConfig())).rejects.toThrow(/tw-tools\/99/);
  });

  it("serves v1's seven tools with their recorded descriptions, and the current version is a superset of names", () => {
    const v1 = contractSet("tw-tools/1");
    const recorded = parseCassette(readFileSync(join(FIXTURE, "cassette.jsonl"), "utf8")).calls[0]?.request.tools;
    expect(v1.contracts.map((t) => v1.anthropic(t))).toEqual(recorded);
    const v2 = contractSet().contracts.map((t) => t.name);
    for (const t of v1.contracts) expect(v2).toContain(t.name);
  });
});

const FIXTURE_V2 = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "cassette-tw-tools-2");

function copyFixtureV2(): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-replay-v2-"));
  cpSync(FIXTURE_V2, dir, { recursive: true });
  return dir;
}

describe("replay of a tw-tools/2 cassette", () => {
  const text = readFileSync(join(FIXTURE_V2, "cassette.jsonl"), "utf8");

  it("was recorded under tw-tools/2 (format 2: the tool list once, by id)", () => {
    const meta = JSON.parse(text.split("\n")[0] as string);
    expect(meta.contract_version).toBe("tw-tools/2");
    expect(meta.format).toBe(2);
  });

  it("replays request-identically with the frozen v2 contracts", async () => {
    const report = await replayRun(copyFixtureV2(), defaultConfig());
    expect(report.contractVersion).toBe("tw-tools/2");
    expect(report.calls).toBe(parseCassette(text).calls.length);
    expect(report.outcome).toBe("submitted");
    expect(report.recordedOutcome).toBe("submitted");
  });

  it("serves v2's tools exactly as recorded (kinds as v2 printed them), while the current catalogue calls the account's own writes `write`", () => {
    const v2 = contractSet("tw-tools/2");
    expect(v2.contracts.map((t) => v2.anthropic(t))).toEqual(parseCassette(text).calls[0]?.request.tools);
    const kinds = (set: ReturnType<typeof contractSet>) => Object.fromEntries(set.contracts.map((t) => [t.name, t.kind]));
    expect(kinds(v2).add_watchlist).toBe("read");
    expect(kinds(contractSet())).toMatchObject({
      add_watchlist: "write",
      remove_watchlist: "write",
      remember: "write",
      place_standing_order: "write",
      cancel_standing_order: "write",
      check_orders: "dry_run",
      submit_orders: "final",
      get_portfolio: "read",
    });
    // tw-tools/3 adds the market tools of issue #29 and get_proposal_status (#27); every v2 tool is still there, in its order.
    const added = ["get_position", "get_market_overview", "get_sector_summary", "get_proposal_status"];
    expect(contractSet().contracts.map((t) => t.name)).toEqual(expect.arrayContaining(added));
    expect(
      contractSet()
        .contracts.map((t) => t.name)
        .filter((n) => !added.includes(n)),
    ).toEqual(v2.contracts.map((t) => t.name));
    expect(v2.contracts.map((t) => t.name)).not.toContain("get_market_overview");
  });

  it("its records audit cleanly", () => {
    expect(auditRunDir(copyFixtureV2(), {})).toEqual([]);
  });

  it("offers the version's whole catalogue when the meta line names no tools (it predates subsets), exactly the named ones when it does", async () => {
    expect(JSON.parse(text.split("\n")[0] as string).tools).toBeUndefined();
    const dir = copyFixtureV2();
    const path = join(dir, "cassette.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    const meta = JSON.parse(lines[0] as string);
    const all = contractSet("tw-tools/2").contracts.map((t) => t.name);
    // Naming all of them changes nothing; naming fewer than the run offered fails closed on the tool list.
    writeFileSync(path, [JSON.stringify({ ...meta, tools: all }), ...lines.slice(1)].join("\n"));
    expect(await replayRun(dir, defaultConfig())).toMatchObject({ outcome: "submitted" });
    writeFileSync(path, [JSON.stringify({ ...meta, tools: all.filter((n) => n !== "place_standing_order") }), ...lines.slice(1)].join("\n"));
    await expect(replayRun(dir, defaultConfig())).rejects.toThrow(/request 1 differs from the recorded request at \$\.tools/);
  });
});
