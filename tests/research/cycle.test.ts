/**
 * The research-cycle envelope's execution log: every search_news call, with what each filter
 * removed; a query the contract refused is a `blocked` entry, a missing provider a `disabled` one;
 * masking and its leaks are recorded; the envelope still validates against its schema.
 */
import { describe, expect, it } from "vitest";
import type { RunEvent, RunEventBody } from "../../src/core/events.js";
import { buildResearchCycle, validateResearchCycle } from "../../src/run/research-cycle.js";

let seq = 0;
const ev = (body: RunEventBody): RunEvent => ({ ...body, seq: ++seq, at: "2026-12-01T00:00:00.000Z", run_id: "r1" }) as RunEvent;
const zero = { cutoff: 0, undated: 0, policy: 0, duplicates: 0 };

describe("research-cycle envelope", () => {
  it("logs every search: success with counts, blocked by the contract, disabled", () => {
    const events = [
      ev({
        type: "run.started",
        run_id: "r1",
        mode: "paper",
        trading_day: "2008-09-16",
        model: { provider: "scripted", id: "s" },
        broker: { kind: "sim", account_id: "a", endpoint: "sim://" },
        base_currency: "USD",
      }),
      ev({ type: "tool.called", turn: 1, call_id: "c1", tool: "search_news", arguments: { query: "Lehman" } }),
      ev({
        type: "research.search",
        query: "Lehman",
        provider: "embedded",
        status: "success",
        duration_ms: 1.5,
        retrieved: 7,
        returned: 1,
        removed: { cutoff: 5, undated: 0, policy: 0, duplicates: 1 },
        invalid: 0,
      }),
      ev({ type: "tool.result", turn: 1, call_id: "c1", tool: "search_news", success: true, summary: "ok", truncated: false, duration_ms: 2 }),
      ev({ type: "tool.called", turn: 2, call_id: "c2", tool: "search_news", arguments: { query: "   " } }),
      ev({
        type: "tool.rejected",
        turn: 2,
        call_id: "c2",
        tool: "search_news",
        error_code: "invalid_tool_arguments",
        error: "blank",
        retryable: true,
        correction: { tool: "search_news", instruction: "x", valid_arguments_example: {}, received_arguments: { query: "   " } },
      }),
      ev({
        type: "research.search",
        query: "Fed",
        provider: "none",
        status: "disabled",
        duration_ms: 0,
        retrieved: 0,
        returned: 0,
        removed: zero,
        invalid: 0,
        message: "off",
      }),
      ev({ type: "mask.enabled", data_set: "d", date_offset_days: 21000, instruments: [{ symbol: "ALFA" }] }),
      ev({ type: "mask.leak", turn: 2, kind: "symbol", found: "ALFA", where: "text" }),
      ev({ type: "run.finished", outcome: "hold", exit_code: 0, message: "hold", cost_usd: 0 }),
    ];
    const cycle = buildResearchCycle(events, {
      runId: "r1",
      mode: "paper",
      tradingDay: "2008-09-16",
      generatedAt: "2026-12-01T00:00:00.000Z",
      version: "0.1.0",
      model: { provider: "scripted", id: "s" },
      broker: { kind: "simulated", endpoint: "sim://" },
      secretsRead: [],
      marketData: "bundled",
    });
    expect(validateResearchCycle(cycle)).toEqual([]);
    expect(cycle.research).toEqual([
      expect.objectContaining({ query: "Lehman", status: "success", removed: { cutoff: 5, undated: 0, policy: 0, duplicates: 1 } }),
      expect.objectContaining({ query: "   ", status: "blocked", retrieved: 0 }),
      expect.objectContaining({ query: "Fed", status: "disabled", provider: "none" }),
    ]);
    expect(cycle.masking).toEqual({ enabled: true, date_offset_days: 21000, leaks: [{ turn: 2, kind: "symbol", found: "ALFA", where: "text" }] });
    expect((cycle.tool_calls as { provenance: { source: string } }[])[0]?.provenance.source).toBe("news");
  });
});
