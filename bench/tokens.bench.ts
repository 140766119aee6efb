/**
 * What every request costs (issue #26), old beside new: the tokens of the system prompt + tool list
 * (goal ≤ 4,500 for the whole catalogue, ≤ 250 a tool) and a scripted day's requests priced at
 * Sonnet prices with prompt caching (goal ≤ $0.04). Old = the tw-tools/2 day recorded by the build
 * before the lean catalogue (tests/fixtures/cassette-tw-tools-2: a scripted `run --yes` on a fresh
 * home, six requests); new = the same run by this build (the built CLI on a fresh home). Tokens are
 * estimated (a token per four characters: tests/agent/token-budget.ts), the same way for both, so
 * the ratios hold. Also measured: whether replacing the tool results the model has already answered
 * by their compact form lowers the day's cost once the cache is counted (it does not: not kept).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, bench, describe } from "vitest";
import { type ParsedCassette, parseCassette } from "../src/agent/cassette.js";
import { priceFor } from "../src/agent/pricing.js";
import { readArtifact } from "../src/run/artifacts.js";
import { TOOL_NAMES } from "../src/tools/catalogue.js";
import { offeredTools } from "../src/tools/subsets.js";
import { type CatalogueTokens, currentCatalogue, type DayCost, dayCost, recordedCatalogue, withEarlierResultsCompacted } from "../tests/agent/token-budget.js";

const ROOT = resolve(import.meta.dirname, "..");
const OLD = join(ROOT, "tests/fixtures/cassette-tw-tools-2/cassette.jsonl");
const GOAL_TOKENS = 4500;
const GOAL_PER_TOOL = 250;
const GOAL_USD = 0.04;
const homes: string[] = [];
const lines: string[] = [];

const n = (x: number) => x.toLocaleString("en-US");
const usd = (x: number) => `$${x.toFixed(4)}`;
const verdict = (ok: boolean) => (ok ? "meets" : "MISSES");
const meanTool = (c: CatalogueTokens) => Math.round((c.total - c.system) / c.tools.length);

/** One scripted `run --yes` of this build on a fresh home: its cassette. */
async function newDay(): Promise<ParsedCassette> {
  const home = mkdtempSync(join(tmpdir(), "tw-bench-tokens-"));
  homes.push(home);
  const r = await execa(process.execPath, [join(ROOT, "bin/tradewarden.js"), "--home", home, "run", "--yes"], { cwd: ROOT, reject: false, stdin: "pipe" });
  if (r.exitCode !== 0) throw new Error(`run exited ${r.exitCode}: ${r.stderr}`);
  const [runId] = readdirSync(join(home, "runs"));
  return parseCassette(String(readArtifact(join(home, "runs", String(runId)), "cassette")));
}

function catalogueLines(old: CatalogueTokens, now: CatalogueTokens): void {
  lines.push(
    "tokens of system prompt + tool list (every request), a token per 4 characters:",
    "                    old (tw-tools/2)   new (tw-tools/3)   goal",
  );
  lines.push(`  system prompt     ${n(old.system).padStart(16)}   ${n(now.system).padStart(16)}`);
  lines.push(`  tools (${now.tools.length})        ${n(old.total - old.system).padStart(16)}   ${n(now.total - now.system).padStart(16)}`);
  lines.push(
    `  total             ${n(old.total).padStart(16)}   ${n(now.total).padStart(16)}   ≤ ${n(GOAL_TOKENS)}  ${verdict(now.total <= GOAL_TOKENS)} (new/old ${(now.total / old.total).toFixed(2)})`,
  );
  lines.push(
    `  mean a tool       ${n(meanTool(old)).padStart(16)}   ${n(meanTool(now)).padStart(16)}   ≤ ${GOAL_PER_TOOL}  ${verdict(meanTool(now) <= GOAL_PER_TOOL)}`,
  );
  for (const t of now.tools) {
    const was = old.tools.find((o) => o.name === t.name)?.tokens;
    lines.push(`    ${t.name.padEnd(24)}${String(was ?? "-").padStart(8)}   ${String(t.tokens).padStart(16)}`);
  }
  const modes = (["paper", "observe", "watch"] as const).map(
    (mode) => `${mode} ${n(currentCatalogue(offeredTools(TOOL_NAMES, { mode, tradingState: "ACTIVE" })).total)}`,
  );
  lines.push(`  as offered per mode (system prompt + the run's tools): ${modes.join(", ")}`);
}

function costLine(label: string, c: DayCost): string {
  return `  ${label.padEnd(44)} ${usd(c.usd)}  (${n(c.prompt)} prompt tokens: ${n(c.input)} plain, ${n(c.cacheWrite)} written, ${n(c.cacheRead)} read; ${n(c.output)} out)`;
}

function costLines(old: ParsedCassette, now: ParsedCassette): void {
  for (const model of ["claude-sonnet-4-5", "claude-sonnet-5"]) {
    const price = priceFor(model);
    const was = dayCost(old.calls, price);
    const is = dayCost(now.calls, price);
    const next = dayCost(now.calls, price, { warm: true });
    const compacted = dayCost(
      now.calls.map((c) => ({ ...c, request: withEarlierResultsCompacted(c.request) })),
      price,
    );
    lines.push(
      "",
      `a scripted day's ${now.calls.length} requests at ${model} prices ($${price.input}/$${price.output} a million, cache write ×1.25, read ×0.1):`,
      costLine("old (tw-tools/2, recorded)", was),
      `${costLine("new (this build), a daily run: cold cache", is)}  ≤ ${usd(GOAL_USD)} ${verdict(is.usd <= GOAL_USD)} (new/old ${(is.usd / was.usd).toFixed(2)})`,
      `${costLine("new, a simulation's next day (tools cached)", next)}  ≤ ${usd(GOAL_USD)} ${verdict(next.usd <= GOAL_USD)}`,
      `${costLine("new with earlier results compacted", compacted)}  ${compacted.usd < is.usd ? "cheaper" : "NOT cheaper: kept out"} (${(compacted.usd / is.usd).toFixed(3)}× the day)`,
    );
  }
}

afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  if (lines.length > 0) console.log(`\n${lines.join("\n")}\n`);
});

describe("tokens and a day's cost", () => {
  bench(
    "system prompt + tools, and a scripted day priced with caching (old beside new)",
    async () => {
      if (lines.length > 0) return;
      const old = parseCassette(readFileSync(OLD, "utf8"));
      const now = await newDay();
      const first = (c: ParsedCassette) => {
        const call = c.calls[0];
        if (!call) throw new Error("the cassette has no call");
        return call.request;
      };
      catalogueLines(recordedCatalogue(first(old)), currentCatalogue());
      lines.push(`  (the new day's first request carried ${n(recordedCatalogue(first(now)).total)}: the paper run's catalogue as sent)`);
      costLines(old, now);
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
