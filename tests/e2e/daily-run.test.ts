/**
 * The daily run end to end (issue 7, "What it must show"): the CLI's commands (in-process; on a
 * terminal, the real CLI in a pseudo-terminal) on the embedded defaults (scripted model, simulated
 * paper broker over the bundled data, local journal), no terminal.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it } from "vitest";
import {
  ANY_ESCAPE,
  CURSOR_CODES,
  ROOT,
  cleanupHomes,
  expectExit,
  freshHome,
  journalJson,
  ofType,
  quantities,
  recordedEvents,
  runIds,
  runOutput,
  tradingDays,
  twIn,
} from "./helpers.js";

afterAll(cleanupHomes);

function envelopeValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its default export may arrive as the module object.
  type Plugin = (ajv: Ajv2020) => unknown;
  const mod = addFormats as unknown as Plugin & { default?: Plugin };
  (mod.default ?? mod)(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(ROOT, "data/schemas/research-cycle.schema.json"), "utf8")));
}

describe("tradewarden run on a fresh home", () => {
  it("run --yes --json exits 0 with JSONL events then the envelope; journal and broker reconcile; artifacts audit and replay", async () => {
    const home = freshHome();
    // In-process: what the run answers is under test; nothing is written past its io (stray).
    const r = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(r, 0);
    expect(r.stderr).toBe("");
    expect(r.stray).toBe("");

    // Every line is JSON: RunEvents (type, seq 1..n, one run id), the research-cycle envelope last.
    const { events, envelope } = runOutput(String(r.stdout));
    const runId = String(envelope.run_id);
    expect(events[0]?.type).not.toBe("run.finished");
    expect(events.at(-1)?.type).toBe("run.finished");
    const started = ofType(events, "run.started")[0];
    expect(started?.mode).toBe("paper");
    expect(started?.model).toEqual({ provider: "scripted", id: "scripted:momentum" });
    expect(started?.broker.kind).toBe("sim");
    // The first day of momentum on a fresh account buys: the run really traded.
    const placed = ofType(events, "order.placed");
    expect(placed.length).toBeGreaterThan(0);
    expect(ofType(events, "run.finished")[0]).toMatchObject({ outcome: "executed", exit_code: 0 });

    // The envelope validates against the repo's JSON Schema and is the file written to the run folder.
    const validate = envelopeValidator();
    expect(validate(envelope), JSON.stringify(validate.errors)).toBe(true);
    expect(envelope).toMatchObject({ mode: "paper", outcome: "executed", exit_code: 0, trading_day: started?.trading_day });
    expect(envelope.safety).toMatchObject({ broker_endpoint_kind: "simulated" });
    const dir = join(home, "runs", runId);
    for (const f of ["events.jsonl", "transcript.json", "cassette.jsonl", "research-cycle.json"]) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "research-cycle.json"), "utf8"))).toEqual(envelope);
    expect(recordedEvents(home, runId)).toEqual(events);

    // Read-only checks afterwards, in parallel.
    const [verify, status, journal, audit, replay] = await Promise.all([
      twIn(home, ["journal", "verify"]),
      twIn(home, ["sim", "status", "--json"]),
      journalJson(home),
      twIn(home, ["audit", runId]),
      twIn(home, ["replay", runId]),
    ]);
    expectExit(verify, 0);
    expectExit(status, 0);
    expectExit(audit, 0);
    expectExit(replay, 0);
    expect(String(audit.stdout)).toContain("audit ok");
    expect(String(replay.stdout)).toMatch(/model call\(s\) replayed with identical requests; outcome submitted \(recorded submitted\)/);

    // The journal and the simulated broker reconcile: same positions, same cash.
    const sim = JSON.parse(String(status.stdout)) as { positions: Record<string, { quantity: number }>; cash: number; current_day: string };
    expect(Object.keys(quantities(journal.state.holdings)).length).toBeGreaterThan(0);
    expect(quantities(sim.positions)).toEqual(quantities(journal.state.holdings));
    expect(sim.cash).toBeCloseTo(journal.state.cash, 2);
    expect(sim.current_day).toBe(started?.trading_day);
    expect(journal.runs).toHaveLength(1);
    expect(journal.runs[0]).toMatchObject({ run_id: runId, status: "completed", outcome: "executed", exit_code: 0 });
  }, 60_000);

  it("ten consecutive daily runs: one trading day per run, and the peak follows the two-run rule", async () => {
    const home = freshHome();
    const days = tradingDays();
    const separate: string[] = [];
    const runOnce = async () => {
      const r = await twIn(home, ["run", "--yes", "--json"]);
      expectExit(r, 0);
      const started = ofType(runOutput(String(r.stdout)).events, "run.started")[0];
      separate.push(String(started?.trading_day));
    };
    // Ten separate command runs, each reading the home afresh (a `simulate` in between trades in a folder of its own, not here).
    for (let i = 0; i < 5; i++) await runOnce();
    expectExit(await twIn(home, ["simulate", "--from", "2007-02-01", "--to", "2007-02-05", "--name", "aside"]), 0);
    for (let i = 0; i < 5; i++) await runOnce();

    const journal = await journalJson(home);
    const runs = journal.runs;
    expect(runs).toHaveLength(10);
    // The simulated calendar advances exactly one trading day per run.
    const first = days.indexOf(runs[0]?.trading_day ?? "");
    expect(first).toBeGreaterThanOrEqual(0);
    expect(runs.map((r) => r.trading_day)).toEqual(days.slice(first, first + 10));
    expect(separate).toEqual(days.slice(first, first + 10));
    for (const r of runs) expect(r).toMatchObject({ status: "completed", exit_code: 0 });

    // The peak only rises to a value seen on two consecutive runs' first valuations.
    let peak: number | null = null;
    let prevFirst: number | null = null;
    let spikeIgnored = false;
    for (const r of runs) {
      const fv = r.first_value;
      expect(fv).not.toBeNull();
      const expected: number = peak === null ? (fv as number) : Math.max(peak, Math.min(fv as number, prevFirst ?? peak));
      expect(r.peak_after, `run on ${r.trading_day}`).toBeCloseTo(expected, 2);
      expect(r.previous_value).toBe(prevFirst);
      if (peak !== null && (fv as number) > peak && (r.peak_after as number) < (fv as number)) spikeIgnored = true;
      peak = r.peak_after;
      prevFirst = fv;
    }
    // The rule was exercised: the peak moved, and a one-run high did not move it to itself.
    expect(peak).toBeGreaterThan(runs[0]?.first_value ?? 0);
    expect(spikeIgnored).toBe(true);
    expect(journal.state.peak).toBeCloseTo(peak as number, 2);
  }, 180_000);

  it("no terminal and no --yes: exit 6, nothing placed, the proposal recorded as awaiting approval", async () => {
    const home = freshHome();
    const r = await twIn(home, ["run", "--json"]);
    expectExit(r, 6);
    const { events, envelope } = runOutput(String(r.stdout));
    expect(ofType(events, "order.placed")).toHaveLength(0);
    expect(ofType(events, "proposal")[0]?.orders.length).toBeGreaterThan(0);
    expect(ofType(events, "approval.decided")[0]).toMatchObject({ decision: "awaiting", by: "none" });
    expect(envelope).toMatchObject({ outcome: "awaiting_approval", exit_code: 6 });

    const [journal, status] = await Promise.all([journalJson(home), twIn(home, ["sim", "status", "--json"])]);
    const run = journal.runs[0];
    expect(run).toMatchObject({ outcome: "awaiting_approval", exit_code: 6, status: "completed" });
    expect(run?.proposals).toHaveLength(1);
    expect(run?.proposals[0]?.orders.length).toBeGreaterThan(0);
    expect(run?.approvals.map((a) => a.decision)).toEqual(["awaiting"]);
    expect(journal.orders).toHaveLength(0);
    expect(journal.state.holdings).toEqual({});
    const sim = JSON.parse(String(status.stdout)) as { positions: Record<string, unknown>; orders: number };
    expect(sim.positions).toEqual({});
    expect(sim.orders).toBe(0);
  }, 60_000);
});

describe("modes and headless output", () => {
  it("--mode observe runs up to the decision, places nothing and exits 0 (no --yes needed); plain output has no escape codes", async () => {
    const home = freshHome();
    const r = await twIn(home, ["run", "--mode", "observe"]);
    expectExit(r, 0);
    const out = String(r.stdout);
    expect(out).toMatch(/mode observe/);
    expect(out).not.toMatch(ANY_ESCAPE); // not a terminal: no colour, no cursor codes

    const [runId] = runIds(home);
    const events = recordedEvents(home, String(runId));
    expect(ofType(events, "proposal")[0]?.orders.length).toBeGreaterThan(0); // there was something to place
    expect(ofType(events, "order.placed")).toHaveLength(0);
    expect(ofType(events, "approval.decided")[0]).toMatchObject({ decision: "none" });
    expect(ofType(events, "run.finished")[0]).toMatchObject({ outcome: "observed", exit_code: 0 });
    const journal = await journalJson(home);
    expect(journal.orders).toHaveLength(0);
    expect(journal.runs[0]).toMatchObject({ mode: "observe", outcome: "observed" });
  }, 60_000);

  it("default (not a TTY) output of a trading run is plain lines: no colour, no cursor codes", async () => {
    const home = freshHome();
    const r = await twIn(home, ["run", "--yes"]);
    expectExit(r, 0);
    const out = String(r.stdout);
    expect(out).toMatch(/^run \S+ started: mode paper/m);
    expect(out).toMatch(/reconciled: journal and broker agree/);
    expect(out).not.toMatch(ANY_ESCAPE);
    expect(out).not.toMatch(/\r/);
  }, 60_000);

  it("on a terminal (pty): NO_COLOR=1 output has no escape codes; without it only colour (SGR), never cursor codes", async () => {
    let pty: typeof import("node-pty");
    try {
      pty = await import("node-pty");
    } catch {
      return; // node-pty is a dev dependency with a native part; without it the non-TTY tests above stand
    }
    const { BIN, childEnv } = await import("./helpers.js");
    const home = freshHome('[model]\nscript = "hold"\n');
    const onPty = (env: Record<string, string>) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        const p = pty.spawn(process.execPath, [BIN, "--home", home, "run", "--yes"], { cols: 120, rows: 40, cwd: ROOT, env: childEnv(env) });
        let out = "";
        p.onData((d) => {
          out += d;
        });
        p.onExit(({ exitCode }) => resolve({ code: exitCode, out }));
      });
    const plain = await onPty({ NO_COLOR: "1" });
    expect(plain.code, plain.out).toBe(0);
    expect(plain.out).toMatch(/started: mode paper/);
    expect(plain.out).not.toMatch(ANY_ESCAPE);

    const coloured = await onPty({});
    expect(coloured.code, coloured.out).toBe(0);
    expect(coloured.out).toMatch(/\u001b\[\d+m/); // colour on a terminal, so the NO_COLOR check above means something
    expect(coloured.out).not.toMatch(CURSOR_CODES);
  }, 60_000);
});
