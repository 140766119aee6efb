/**
 * `tradewarden mcp` over stdio (in this process, on a pair of byte streams: tests/mcp/refusals.test.ts
 * drives the built CLI as a process), driven by the official SDK's client against the real CLI on the
 * embedded defaults (simulated broker): the tools listed are `tools --format mcp`; a research →
 * check_orders → submit_orders session is a run whose proposal waits for the operator; invalid
 * arguments are answered with the envelope and never reach a handler; `approve RUN --yes` then places
 * exactly the orders the gate approves; get_proposal_status says so; `audit` and `journal verify` pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, ofType, recordedEvents, runIds, twIn, journalJson } from "../e2e/helpers.js";
import { type Json, call, connectInProcess, groundedOrder, texts } from "./helpers.js";

let home = "";
let submitted: { raw: unknown; env: Json } = { raw: null, env: {} };
let invalid: { env: Json; isError: boolean } = { env: {}, isError: false };
let listed: unknown[] = [];
let mcpRun = "";

beforeAll(async () => {
  home = freshHome();
  const s = await connectInProcess(home);
  try {
    listed = (await s.client.listTools()).tools;
    invalid = await call(s.client, "get_price_history", { symbol: 5 });
    const good = await groundedOrder(s.client, "ALFA", 10);
    // BRVO for nearly all the cash: the gate blocks it (position and cash limits).
    const big = await groundedOrder(s.client, "BRVO", 100_000);
    await call(s.client, "check_orders", { orders: [good, big] });
    const args = { orders: [good, big], summary: "one small buy and one too large" };
    const bounced = await call(s.client, "submit_orders", args);
    expect(bounced.env.error_code).toBe("orders_blocked");
    submitted = await call(s.client, "submit_orders", args);
  } finally {
    // The command ends when its client goes away, having written only to its own io.
    const closed = await s.closed();
    expectExit(closed, 0);
    expect(closed.stray).toBe("");
  }
  mcpRun = runIds(home)[0] ?? "";
}, 120_000);
afterAll(cleanupHomes);

describe("tradewarden mcp over stdio", () => {
  it("lists every tool of the catalogue with the schemas `tools --format mcp` prints", async () => {
    const r = await twIn(home, ["tools", "--format", "mcp"]);
    expectExit(r, 0);
    expect(listed).toEqual(JSON.parse(String(r.stdout)));
    const byName = new Map((listed as { name: string; annotations: Json }[]).map((t) => [t.name, t.annotations]));
    expect(byName.get("get_portfolio")?.readOnlyHint).toBe(true);
    expect(byName.get("check_orders")?.readOnlyHint).toBe(true);
    expect(byName.get("submit_orders")?.readOnlyHint).toBe(false);
    expect(byName.get("remember")?.readOnlyHint).toBe(false);
    expect(byName.has("get_proposal_status")).toBe(true);
  });

  it("answers invalid arguments with the envelope; the handler is never reached", () => {
    expect(invalid.isError).toBe(true);
    expect(invalid.env).toMatchObject({ success: false, error_code: "invalid_tool_arguments" });
    const events = recordedEvents(home, mcpRun);
    const first = events.find((e) => e.type === "tool.called");
    expect(first).toMatchObject({ tool: "get_price_history", arguments: { symbol: 5 } });
    const rejected = ofType(events, "tool.rejected").find((e) => e.call_id === (first as { call_id: string }).call_id);
    expect(rejected?.error_code).toBe("invalid_tool_arguments");
    expect(ofType(events, "tool.result").some((e) => e.call_id === rejected?.call_id)).toBe(false);
  });

  it("records the proposal as awaiting approval, answering with the gate's verdicts and the approve command; nothing placed", async () => {
    const [result, decision, mark] = texts(submitted.raw);
    expect(JSON.parse(result ?? "{}")).toMatchObject({ success: true, accepted_orders: 2 });
    const body = JSON.parse(decision ?? "{}") as Json;
    expect(body).toMatchObject({ status: "awaiting_approval", run: { run_id: mcpRun, outcome: "awaiting_approval" } });
    expect(body.gate_verdicts).toEqual([
      expect.objectContaining({ symbol: "ALFA", gate: "approved" }),
      expect.objectContaining({ symbol: "BRVO", gate: "blocked" }),
    ]);
    expect((body.operator as Json).approve_command).toBe(`tradewarden --home ${JSON.stringify(home)} approve ${mcpRun} --yes`);
    expect(mark).toMatch(/untrusted data/);
    const dump = await journalJson(home);
    expect(dump.runs.map((r) => [r.outcome, r.exit_code])).toEqual([["awaiting_approval", 6]]);
    expect(dump.orders).toEqual([]);
    const events = recordedEvents(home, mcpRun);
    expect(events[0]).toMatchObject({ type: "run.started", model: { provider: "mcp", id: "mcp:tw-test-client 1.0.0" } });
    expect(ofType(events, "approval.decided")).toEqual([expect.objectContaining({ decision: "awaiting", by: "none" })]);
  });

  it("`approve RUN --yes` places exactly the gate-approved order; get_proposal_status says so; audit and journal verify pass", async () => {
    expectExit(await twIn(home, ["approve", mcpRun, "--yes"]), 0);
    const dump = await journalJson(home);
    expect(dump.orders.map((o) => [o.symbol, o.side, o.quantity])).toEqual([["ALFA", "BUY", 10]]);
    const s = await connectInProcess(home);
    try {
      const status = await call(s.client, "get_proposal_status", {});
      expect(status.env).toMatchObject({ success: true, run_id: mcpRun, status: "approved" });
      expect(status.env.orders).toEqual([
        expect.objectContaining({ symbol: "ALFA", placed: true, order_status: "filled", filled_quantity: 10 }),
        expect.objectContaining({ symbol: "BRVO", placed: false }),
      ]);
    } finally {
      expectExit(await s.closed(), 0);
    }
    for (const run of runIds(home)) expectExit(await twIn(home, ["audit", run]), 0);
    expectExit(await twIn(home, ["journal", "verify"]), 0);
  }, 90_000);
});
