/**
 * execute_code's sandbox: the real worker (dist/sandbox-worker.js, rebuilt by the global setup)
 * running WebAssembly QuickJS, through the tool handler over the bundled market data.
 */
import type { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import type { Instrument } from "../../src/core/domain.js";
import { MarketData } from "../../src/market/data.js";
import { makeExecuteCodeHandler } from "../../src/tools/handlers/execute-code.js";
import { Masker } from "../../src/research/masking.js";
import { DEFAULT_SANDBOX_LIMITS, runSandbox } from "../../src/research/sandbox.js";
import { CATALOGUE } from "../../src/tools/catalogue.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { HandlerResult, ToolCallContext } from "../../src/tools/types.js";
import { checked } from "../tools/checked.js";

const DAY = "2008-03-17";
const bars = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(2008, 0, 1 + from + i)).toISOString().slice(0, 10);
    return { date: d, open: 100 + i, high: 101 + i, low: 99 + i, close: 100 + i, volume: 1000 };
  });
const market = MarketData.fromBars({ ALFA: bars(0, 120), BETA: bars(0, 120) });
const universe: Instrument[] = [
  { symbol: "ALFA", currency: "USD" },
  { symbol: "BETA", currency: "USD" },
];
const ctx = { runId: "r", tradingDay: DAY, seenEvidence: new Set<string>(), pending: [] } as ToolCallContext;
const handler = () => checked("execute_code", makeExecuteCodeHandler({ view: market.asOf(DAY, { universe }), universe, tradingDay: DAY }));
const call = async (h: ReturnType<typeof handler>, code: string) => (await h({ code }, ctx)) as HandlerResult;

describe("execute_code", () => {
  it("evaluates code over the point-in-time data API", async () => {
    const r = await call(handler(), "console.log(tw.symbols().join(',')); const b = tw.bars('ALFA'); ({ n: b.length, last: b[b.length - 1].date })");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.output).toBe("ALFA,BETA\n");
    expect(r.data.result).toEqual({ n: 76, last: "2008-03-16" });
    expect(String(r.data.evidence_id)).toMatch(/^code:2008-03-17:/);
  });

  it("an infinite loop returns sandbox_timeout within its deadline, and the worker is gone", async () => {
    let worker: Worker | undefined;
    const limits = { ...DEFAULT_SANDBOX_LIMITS, timeoutMs: 300 };
    const run = await runSandbox({ code: "while (true) {}", cutoff: DAY, series: {} }, limits, { onWorker: (w) => (worker = w) });
    expect(run.reply).toMatchObject({ ok: false, kind: "timeout" });
    // The host's clock starts when the worker's "started" message arrives, a little after the
    // worker's own deadline clock: it can read up to that message's delay short of 300 ms.
    expect(run.answeredMs).toBeGreaterThanOrEqual(300 - 50);
    expect(run.answeredMs).toBeLessThan(300 + 250 + 250); // the deadline, the host's grace, timer slack on a loaded machine
    expect(run.elapsedMs).toBeLessThan(10_000); // and the thread has exited (below) when the answer is returned
    expect(worker?.threadId).toBe(-1); // a thread that has exited has no id
    const r = await call(
      checked("execute_code", makeExecuteCodeHandler({ view: market.asOf(DAY, { universe }), universe, tradingDay: DAY, limits })),
      "for (;;) {}",
    );
    expect(r).toMatchObject({ ok: false, code: "sandbox_timeout" });
  });

  it("a loop that never yields to the interrupt handler is still killed by the host", async () => {
    // A single huge regex backtrack runs inside one QuickJS op; the host terminates the thread.
    let worker: Worker | undefined;
    const limits = { ...DEFAULT_SANDBOX_LIMITS, timeoutMs: 200 };
    const run = await runSandbox({ code: "/(a+)+$/.test('a'.repeat(40) + 'b')", cutoff: DAY, series: {} }, limits, { onWorker: (w) => (worker = w) });
    expect(run.reply).toMatchObject({ ok: false, kind: "timeout" });
    expect(worker?.threadId).toBe(-1);
  });

  it.each([
    ["process", "process.exit(1)"],
    ["require", "require('fs')"],
    ["fetch", "fetch('http://127.0.0.1/')"],
    ["the file system via import", "import('fs')"],
    ["std/os modules", "std.open('/etc/passwd')"],
  ])("cannot reach %s", async (_what, code) => {
    const r = await call(handler(), code);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe("sandbox_error");
    expect(r.message).toMatch(/not defined|could not load|not a function|ReferenceError|TypeError/);
  });

  it("has no Node or host globals at all", async () => {
    const r = await call(
      handler(),
      "['process','require','fetch','module','Buffer','globalThis.process','XMLHttpRequest','WebSocket','std','os'].map((n) => { try { return typeof eval(n); } catch { return 'undefined'; } })",
    );
    expect(r).toMatchObject({ ok: true });
    if (r.ok) expect(new Set(r.data.result as string[])).toEqual(new Set(["undefined"]));
  });

  it("a look-ahead through the data API returns nothing on or after the cutoff", async () => {
    const r = await call(
      handler(),
      "const b = tw.bars('ALFA', { from: '2008-03-17', to: '2099-01-01' }); const all = tw.bars('ALFA'); [b.length, all.every((x) => x.date < tw.tradingDay), tw.tradingDay]",
    );
    expect(r).toMatchObject({ ok: true, data: { result: [0, true, DAY] } });
  });

  it("returns a traceback as the error envelope", async () => {
    const r = await call(handler(), "function f(x) { return x.y.z; }\nf({});");
    expect(r).toMatchObject({ ok: false, code: "sandbox_error" });
    if (r.ok) return;
    expect(r.message).toMatch(/TypeError/);
    const tb = (r.details as { traceback: string[] }).traceback;
    expect(tb[0]).toMatch(/at f \(analysis\.js:1/);
  });

  it("caps memory and output", async () => {
    // One allocation past the 32 MB cap fails at once. (Runaway small allocations end at the deadline:
    // QuickJS's collector thrashes near the cap, and the host terminates the thread.)
    for (const code of ["new ArrayBuffer(64 << 20).byteLength", "'x'.repeat(1 << 26).length"]) {
      expect(await call(handler(), code)).toMatchObject({ ok: false, code: "sandbox_memory_exceeded" });
    }
    const out = await call(handler(), "for (let i = 0; i < 10000; i++) console.log('line ' + i); 1");
    expect(out).toMatchObject({ ok: true, data: { output_truncated: true } });
    if (out.ok) expect(String(out.data.output).length).toBe(DEFAULT_SANDBOX_LIMITS.maxOutputChars);
  });

  it("refuses further code once the run's failure budget is spent", async () => {
    const h = handler();
    for (let i = 0; i < 4; i++) expect(await call(h, "throw new Error('no')")).toMatchObject({ ok: false, code: "sandbox_error" });
    expect(await call(h, "1 + 1")).toMatchObject({ ok: false, code: "sandbox_retry_budget_exhausted" });
  });
});

describe("execute_code in a masked run", () => {
  it("the code sees aliases, shifted dates and rescaled prices only; the shown evidence id is masked and cites back to the real one", async () => {
    const masker = new Masker({ dataSet: "sandbox-test", instruments: universe.map((i) => ({ symbol: i.symbol, name: `${i.symbol} Holdings` })) });
    const h = checked("execute_code", makeExecuteCodeHandler({ view: market.asOf(DAY, { universe }), universe, tradingDay: DAY, mask: masker }));
    // Every other tool is irrelevant here; the runtime insists each has a handler.
    const others = Object.fromEntries(CATALOGUE.map((t) => [t.name, async () => ({ ok: true as const, data: {} })]));
    const runtime = buildToolRuntime({ ...others, execute_code: h }, { runId: "r", tradingDay: DAY, masking: masker.toolMasking() });
    const alfa = masker.aliases.get("ALFA") as string;
    const code = `const b = tw.bars(${JSON.stringify(alfa)}); ({ symbols: tw.symbols(), day: tw.tradingDay, last: b[b.length - 1], real: tw.bars("ALFA").length })`;
    const out = await runtime.dispatch("execute_code", JSON.stringify({ code }));
    expect(out.success).toBe(true);
    const seen = out.text;
    const shown = JSON.parse(seen) as Record<string, unknown>;
    const data = (shown.data ?? shown) as {
      result: { symbols: string[]; day: string; last: { date: string; close: number }; real: number };
      evidence_id: string;
    };
    expect(data.result.symbols).toEqual([...masker.aliases.values()].sort());
    expect(data.result.real).toBe(0); // a real symbol finds nothing
    expect(data.result.day).toBe(masker.maskText(DAY));
    expect(data.result.last).toMatchObject({ date: masker.maskText("2008-03-16"), close: 175 * masker.priceScale });
    expect(masker.leaks(seen)).toEqual([]);
    expect(masker.unmaskText(data.evidence_id)).toMatch(/^code:2008-03-17:/);
  });
});
