/**
 * Point-in-time research and masking through the real CLI, on the embedded defaults:
 * - a simulated run whose corpus holds articles from after the trading day about the instruments
 *   the model researches: none reaches the model, and the execution log counts them;
 * - a masked simulation: nothing the model saw (transcript, cassette requests and tool
 *   definitions) names a real symbol, name, term or date; audit and replay pass; a leak fails audit.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCassette } from "../../src/agent/cassette.js";
import type { RunEvent } from "../../src/core/events.js";
import { loadCorpus } from "../../src/research/embedded.js";
import { bundledCorpusDir } from "../../src/research/setup.js";
import { readArtifact } from "../../src/run/artifacts.js";
import { researchCycleOf } from "../../src/run/envelopes.js";
import { maskerOfRun } from "../../src/run/masking.js";
import { cleanupHomes, expectExit, freshHome, ofType, recordedEvents, runIds, simulationHome, twIn } from "./helpers.js";

afterAll(cleanupHomes);

const corpus = loadCorpus(bundledCorpusDir());
const names = (text: string, q: string) => new RegExp(`(?<![A-Za-z0-9])${q}(?![A-Za-z0-9])`).test(text);

function transcriptText(home: string, runId: string): string {
  return readArtifact(join(home, "runs", runId), "transcript") ?? "";
}

describe("tradewarden research search", () => {
  it("on the embedded corpus: the cutoff day drops, the day before keeps; copies merge across www./subdomain hosts; a blank query exits 2", async () => {
    const home = freshHome();
    const onDay = await twIn(home, ["research", "search", "Lehman Brothers bankruptcy", "--as-of", "2008-09-15", "--json"]);
    expectExit(onDay, 0);
    const a = JSON.parse(String(onDay.stdout)) as { results: { title: string }[]; removed: { cutoff: number } };
    expect(a.results.map((r) => r.title)).not.toContain("Lehman Brothers files for bankruptcy; Merrill Lynch agrees sale");
    expect(a.removed.cutoff).toBeGreaterThanOrEqual(3);
    const dayAfter = await twIn(home, ["research", "search", "Lehman Brothers bankruptcy", "--as-of", "2008-09-16", "--json", "--max", "3"]);
    const b = JSON.parse(String(dayAfter.stdout)) as { results: { title: string; outlets: string[]; published: string }[]; removed: { duplicates: number } };
    const story = b.results.find((r) => r.title.startsWith("Lehman Brothers files"));
    // Three copies: ledger-times.example, www.ledger-times.example and markets.wirenews.example — two outlets.
    expect(story).toMatchObject({ published: "2008-09-15", outlets: ["ledger-times.example", "markets.wirenews.example"] });
    expect(b.removed.duplicates).toBeGreaterThanOrEqual(2);
    expect(b.results.length).toBeLessThanOrEqual(3);
    const text = await twIn(home, ["research", "search", "Lehman Brothers bankruptcy", "--as-of", "2008-09-16"]);
    expect(String(text.stdout)).toMatch(/removed: cutoff \d+, undated \d+, policy 0, duplicates \d+/);
    const blank = await twIn(home, ["research", "search", "   ", "--as-of", "2008-09-16"]);
    expectExit(blank, 2);
    expect(String(blank.stderr)).toMatch(/blank/);
    const off = freshHome('[research]\nprovider = "none"\n');
    const disabled = await twIn(off, ["research", "search", "Lehman", "--as-of", "2008-09-16", "--json"]);
    expectExit(disabled, 0);
    expect(JSON.parse(String(disabled.stdout))).toEqual({
      as_of: "2008-09-16",
      results: [],
      undated: [],
      removed: { cutoff: 0, undated: 0, policy: 0, duplicates: 0 },
    });
  }, 60_000);
});

describe("news in a simulated run", () => {
  it("articles published on or after the trading day about the researched instrument never reach the model; the log counts them", async () => {
    const sim = await twIn(freshHome(), ["simulate", "--from", "2007-01-03", "--to", "2007-01-04", "--json"]);
    expectExit(sim, 0);
    const home = simulationHome(String(sim.stdout));
    let counted = 0;
    for (const id of runIds(home)) {
      const events = recordedEvents(home, id);
      const day = (ofType(events, "run.started")[0] as Extract<RunEvent, { type: "run.started" }>).trading_day;
      const searches = ofType(events, "research.search");
      expect(searches.length).toBeGreaterThan(0); // the scripted model reads the news on the embedded default
      const seen = transcriptText(home, id);
      for (const s of searches) {
        expect(s).toMatchObject({ provider: "embedded", status: "success" });
        const future = corpus.filter((c) => c.published !== null && c.published >= day && names(`${c.title} ${c.snippet}`, s.query));
        expect(s.removed.cutoff).toBe(future.length);
        counted += future.length;
        for (const f of future) expect(seen).not.toContain(JSON.stringify(f.title).slice(1, -1));
      }
      // The research-cycle envelope (a simulated day's is derived from its recorded facts) carries the same execution log.
      const cycle = researchCycleOf(join(home, "runs", id)) as {
        research: unknown[];
        tool_calls: { tool: string; provenance: { source: string } }[];
      };
      expect(cycle.research).toHaveLength(searches.length);
      expect(cycle.tool_calls.filter((c) => c.tool === "search_news").every((c) => c.provenance.source === "news")).toBe(true);
    }
    expectExit(await twIn(home, ["audit", runIds(home)[0] as string]), 0);
    expect(counted).toBeGreaterThan(0);
    // An unmasked run cannot be replayed "masked".
    const first = runIds(home)[0] as string;
    const r = await twIn(home, ["replay", first, "--mask"]);
    expectExit(r, 2);
    expect(String(r.stderr)).toMatch(/recorded without masking/);
  }, 90_000);
});

describe("a masked simulation", () => {
  it("shows the model no real symbol, name, term or date; audit and replay pass; a leak in the model's text fails audit", async () => {
    const sim = await twIn(freshHome(), ["simulate", "--from", "2008-09-15", "--to", "2008-09-16", "--mask", "--json"]);
    expectExit(sim, 0);
    const home = simulationHome(String(sim.stdout));
    const ids = runIds(home);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const events = recordedEvents(home, id);
      const masker = maskerOfRun(events);
      expect(masker).not.toBeNull();
      const cassette = readArtifact(join(home, "runs", id), "cassette") ?? "";
      // Everything the model saw: the transcript (system prompt, task, tool results) and every recorded request (with the tool definitions).
      // (The parser resolves each call's tools from the cassette's tools line: the definitions are in every request here.)
      const calls = parseCassette(cassette).calls;
      expect(calls.length).toBeGreaterThan(0);
      for (const c of calls) expect(c.request.tools?.length).toBeGreaterThan(0);
      const requests = calls.map((c) => JSON.stringify(c.request));
      expect(requests.every((r) => r.includes('"input_schema"'))).toBe(true);
      for (const seen of [transcriptText(home, id), ...requests]) expect(masker?.leaks(seen)).toEqual([]);
      // The real trading day is nowhere in it, but the shifted one is.
      const day = (ofType(events, "run.started")[0] as Extract<RunEvent, { type: "run.started" }>).trading_day;
      expect(transcriptText(home, id)).not.toContain(day);
      expect(transcriptText(home, id)).toContain(masker?.maskText(day));
      expect(ofType(events, "mask.leak")).toEqual([]);
    }
    const [first] = ids as [string];
    expectExit(await twIn(home, ["audit", first]), 0);
    expectExit(await twIn(home, ["replay", first, "--mask", "--json"]), 0);
    // The orders the journal recorded are real (unmasked after validation).
    const journal = JSON.parse(String((await twIn(home, ["journal", "--json"])).stdout)) as { orders: { symbol: string }[] };
    const real = new Set(
      readFileSync(join(import.meta.dirname, "../../data/universe/sim.csv"), "utf8")
        .split("\n")
        .slice(1)
        .map((l) => l.split(",")[0]),
    );
    for (const o of journal.orders) expect(real.has(o.symbol)).toBe(true);

    // A leak in the model's own text fails audit.
    const id = ids[0] as string;
    // Written as a plain file beside the packed bundle: readers prefer it, as audit does.
    const path = join(home, "runs", id, "transcript.json");
    const t = JSON.parse(transcriptText(home, id)) as { messages: { role: string; content: { type: string; text?: string }[] }[] };
    const assistant = t.messages.find((m) => m.role === "assistant");
    assistant?.content.push({ type: "text", text: "This must be Lehman Brothers week: ALFA on 2008-09-15." });
    writeFileSync(path, JSON.stringify(t));
    const audit = await twIn(home, ["audit", id]);
    expectExit(audit, 1);
    expect(String(audit.stdout)).toMatch(/\[masking\].*ALFA/);
  }, 120_000);
});
