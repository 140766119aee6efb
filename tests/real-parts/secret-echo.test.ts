/**
 * A model API (a loopback fake of the Messages API, driven by the real SDK) that echoes the key in
 * its error bodies — as a proxy or gateway may, in every form (tests/fixtures/secret-forms.ts:
 * exact, case-changed, base64 alone and in a basic-auth pair or a header line, URL- and
 * `\u`-escaped, JSON in JSON, hex, a `Bearer` header). The canary appears in no file under the home and
 * in no output; the run ends non-zero (exit 4: the model is unavailable) and its events say so;
 * `audit` finds no secret. The CLI's main once (its printed output included, and what it wrote past
 * its io); the other statuses through the run's pipeline.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { Redactor } from "../../src/core/redact.js";
import { auditRunDir } from "../../src/records/audit.js";
import { type FakeAnthropic, startFakeAnthropic } from "../agent/fake-anthropic-server.js";
import { cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";
import { echoAll, leaksOf } from "../fixtures/secret-forms.js";
import { cleanupTempHomes, ofType, runIn, tempHome } from "../recovery/harness.js";

const CANARY = "sk-ant-canary+Q/7x9Zk2mWv4Rt8Lp3";
const FORMS = [CANARY, CANARY.toUpperCase(), CANARY.toLowerCase(), Buffer.from(CANARY).toString("base64"), encodeURIComponent(CANARY), `Bearer ${CANARY}`];
const ECHO = `invalid x-api-key ${echoAll(CANARY)}`;
const ENV = { ANTHROPIC_API_KEY: CANARY, NO_COLOR: "1" };

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
  cleanupHomes();
  cleanupTempHomes();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Every form of the canary a text holds (the same redactor logic, used here only to look). */
function leaks(text: string): string[] {
  const r = new Redactor();
  r.register("CANARY", CANARY);
  return [...r.find(text), ...FORMS.filter((f) => text.includes(f)), ...leaksOf(text, CANARY)];
}

async function echoingModel(status: number): Promise<string> {
  fake = await startFakeAnthropic();
  fake.setResponder(() => ({ kind: "status", status, errorType: status === 401 ? "authentication_error" : "api_error", message: ECHO }));
  return `[model]\nprovider = "anthropic"\nid = "claude-sonnet-5"\nbase_url = "${fake.url}"\nmax_retries = 0\n`;
}

/** No file under the home holds the key; audit (with the key in its environment) finds no secret in the run or the journal. */
function expectNoLeakOnDisk(home: string): void {
  for (const f of filesUnder(home))
    expect(leaks(f.endsWith(".br") ? brotliDecompressSync(readFileSync(f)).toString("utf8") : readFileSync(f, "utf8")), f).toEqual([]);
  const runId = readdirSync(join(home, "runs"))[0] as string;
  expect(auditRunDir(join(home, "runs", runId), ENV).filter((f) => f.check === "secrets")).toEqual([]);
}

describe("a model API that echoes the key in its error bodies", () => {
  // The CLI's main in this process (src/cli.tsx): its output as the command wrote it, and whatever it
  // wrote past its io (the process's own stdout and stderr, the console, warnings: `stray`, raw).
  it("HTTP 401 through the CLI's main: no output and no file holds the key in any form; exit 4, model_unavailable", async () => {
    const home = freshHome(await echoingModel(401));
    const r = await twIn(home, ["run", "--yes"], { env: ENV });
    // The fake did see the key (it echoed it) — so the redaction is what kept it out.
    expect(JSON.stringify(fake?.requests[0]?.headers)).toContain(CANARY);
    expectExit(r, 4);
    expect(leaks(`${r.stdout}\n${r.stderr}\n${r.stray}`)).toEqual([]);
    expect(String(r.stdout)).toMatch(/run finished: model_unavailable \(exit 4\): the model was unavailable: .*\[redacted ANTHROPIC_API_KEY\]/);
    expectNoLeakOnDisk(home);
  }, 60_000);

  for (const status of [400, 500]) {
    it(`HTTP ${status}: the events, the journal and every artifact are free of the key; exit 4 and the events say the model was unavailable`, async () => {
      const home = tempHome(await echoingModel(status));
      const { summary, events } = await runIn(home, { env: ENV });
      expect(summary).toMatchObject({ outcome: "model_unavailable", exitCode: 4 });
      expect(ofType(events, "agent.finished")[0]).toMatchObject({ outcome: "model_error" });
      expect(ofType(events, "run.finished")[0]).toMatchObject({ outcome: "model_unavailable", exit_code: 4 });
      expect(leaks(JSON.stringify(events))).toEqual([]);
      expect(JSON.stringify(events)).toMatch(/\[redacted ANTHROPIC_API_KEY\]/);
      expectNoLeakOnDisk(home);
    });
  }
});
