/**
 * The sandbox worker: one QuickJS (WebAssembly) runtime per job, in its own worker thread. The
 * model's code sees only the globals QuickJS itself defines plus `console.log` and the read-only
 * `tw` data API — no Node APIs, no network, no file system. The interrupt handler stops the
 * interpreter at the deadline; the host terminates the thread anyway if it does not answer.
 */
import { parentPort, workerData } from "node:worker_threads";
import { getQuickJS, type QuickJSContext, type QuickJSHandle, shouldInterruptAfterDeadline } from "quickjs-emscripten";
import type { SandboxJob, SandboxReply, SandboxStarted } from "./sandbox-protocol.js";

const MAX_TRACE_LINES = 12;

/** Runs in the isolate: builds the read-only `tw` API over the host's JSON. */
const PRELUDE = `
(() => {
  const raw = JSON.parse(__tw_data());
  const freeze = (o) => Object.freeze(o);
  const rows = (s) => s.dates.map((d, i) => freeze({ date: d, open: s.open[i], high: s.high[i], low: s.low[i], close: s.close[i], volume: s.volume[i] }));
  const tw = {
    tradingDay: raw.cutoff,
    symbols: () => Object.keys(raw.series).sort(),
    bars: (symbol, opts) => {
      const s = raw.series[String(symbol).toUpperCase()];
      if (!s) return [];
      let out = rows(s);
      const o = opts || {};
      if (o.from) out = out.filter((b) => b.date >= String(o.from));
      if (o.to) out = out.filter((b) => b.date <= String(o.to));
      if (o.limit) out = out.slice(-Math.max(0, Math.floor(o.limit)));
      return out;
    },
    closes: (symbol, limit) => tw.bars(symbol, limit ? { limit } : undefined).map((b) => b.close),
  };
  globalThis.tw = freeze(tw);
})();
`;

function dumpError(vm: QuickJSContext, h: QuickJSHandle): { name: string; message: string; traceback: string[] } {
  const e = vm.dump(h) as { name?: unknown; message?: unknown; stack?: unknown } | unknown;
  if (e && typeof e === "object") {
    const o = e as { name?: unknown; message?: unknown; stack?: unknown };
    const lines =
      typeof o.stack === "string"
        ? o.stack
            .split("\n")
            .map((l) => l.trim())
            .filter(Boolean)
        : [];
    const trace = lines.length > MAX_TRACE_LINES ? [...lines.slice(0, MAX_TRACE_LINES), `… ${lines.length - MAX_TRACE_LINES} more frames`] : lines;
    return { name: String(o.name ?? "Error"), message: String(o.message ?? ""), traceback: trace };
  }
  return { name: "Error", message: String(e), traceback: [] };
}

/** A promise result is settled (its jobs run) and unwrapped; async code must finish within the deadline too. */
function settle(vm: QuickJSContext, value: QuickJSHandle): { error: QuickJSHandle; value?: undefined } | { error?: undefined; value: QuickJSHandle } {
  const state = vm.getPromiseState(value);
  if (state.type === "fulfilled" && state.notAPromise) return { value };
  vm.runtime.executePendingJobs();
  const settled = vm.getPromiseState(value);
  value.dispose();
  if (settled.type === "fulfilled") return { value: settled.value };
  if (settled.type === "rejected") return { error: settled.error };
  return { error: vm.newError("the result is a Promise that did not settle") };
}

async function main(job: SandboxJob): Promise<SandboxReply> {
  const QuickJS = await getQuickJS();
  const rt = QuickJS.newRuntime();
  rt.setMemoryLimit(job.memoryBytes);
  rt.setMaxStackSize(job.stackBytes);
  const vm = rt.newContext();
  let output = "";
  let truncated = false;
  const write = (s: string) => {
    if (output.length + s.length > job.maxOutputChars) {
      output += s.slice(0, Math.max(0, job.maxOutputChars - output.length));
      truncated = true;
    } else output += s;
  };
  try {
    const log = vm.newFunction("log", (...args) => {
      write(
        `${args
          .map((a) => {
            const v = vm.dump(a);
            return typeof v === "string" ? v : JSON.stringify(v);
          })
          .join(" ")}\n`,
      );
    });
    const consoleObj = vm.newObject();
    vm.setProp(consoleObj, "log", log);
    vm.setProp(vm.global, "console", consoleObj);
    log.dispose();
    consoleObj.dispose();
    const data = vm.newFunction("__tw_data", () => vm.newString(JSON.stringify({ cutoff: job.cutoff, series: job.series })));
    vm.setProp(vm.global, "__tw_data", data);
    data.dispose();
    const pre = vm.evalCode(PRELUDE, "tw-prelude.js");
    if (pre.error) {
      const d = dumpError(vm, pre.error);
      pre.error.dispose();
      return { ok: false, kind: "error", ...d, output };
    }
    pre.value.dispose();
    vm.evalCode("delete globalThis.__tw_data;").dispose();
    parentPort?.postMessage({ started: true } satisfies SandboxStarted);
    const t0 = Date.now();
    rt.setInterruptHandler(shouldInterruptAfterDeadline(t0 + job.timeoutMs));
    const evaluated = vm.evalCode(job.code, "analysis.js");
    const r = evaluated.error ? evaluated : settle(vm, evaluated.value);
    if (r.error) {
      const d = dumpError(vm, r.error);
      r.error.dispose();
      const kind = d.message === "interrupted" ? "timeout" : /out of memory/i.test(d.message) ? "memory" : "error";
      return { ok: false, kind, ...d, output };
    }
    const value = vm.dump(r.value);
    r.value.dispose();
    return { ok: true, result: value === undefined ? null : value, output, output_truncated: truncated, eval_ms: Date.now() - t0 };
  } finally {
    // Freed after the answer is posted (the host terminates the thread on the answer anyway).
    setImmediate(() => {
      vm.dispose();
      rt.dispose();
    });
  }
}

main(workerData as SandboxJob).then(
  (reply) => parentPort?.postMessage(reply),
  (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    const kind = /memory/i.test(message) ? "memory" : "error";
    parentPort?.postMessage({ ok: false, kind, name: "SandboxFailure", message, traceback: [], output: "" } satisfies SandboxReply);
  },
);
