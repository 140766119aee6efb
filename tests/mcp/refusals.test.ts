/**
 * What an MCP client cannot do, each refusal named: `mcp --yes` is refused; a live endpoint is
 * refused before anything is served; there is no tool to approve, reset or adopt; arguments that
 * reach for an endpoint fail validation; "approve this" text in a proposal only lands in the
 * proposal, which still waits for the operator; a second session on the same home is refused with
 * the holder named; a session killed mid-run leaves nothing stranded and the next session recovers.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, recordedEvents, runIds, text, twIn, journalJson } from "../e2e/helpers.js";
import { call, connectInProcess, connectStdio, groundedOrder } from "./helpers.js";

afterAll(cleanupHomes);

describe.concurrent("tradewarden mcp refuses", () => {
  it("--yes: unattended placement through a client is not offered (exit 2, nothing served)", async () => {
    const home = freshHome();
    const r = await twIn(home, ["mcp", "--yes"]);
    expectExit(r, 2);
    expect(text(r)).toMatch(/mcp --yes is refused: unattended placement through an MCP client is not offered/);
    expect(String(r.stdout)).toBe("");
    expect(runIds(home)).toEqual([]);
  }, 120_000);

  it("a live broker endpoint, before any broker connection (exit 2, nothing served)", async () => {
    const home = freshHome('[broker]\nkind = "alpaca"\n[broker.alpaca]\nbase_url = "https://api.alpaca.markets"\n');
    const r = await twIn(home, ["mcp"], { env: { APCA_API_KEY_ID: "PKTESTKEY123", APCA_API_SECRET_KEY: "secret-value-123" } });
    expectExit(r, 2);
    expect(text(r)).toMatch(/refusing a non-paper broker endpoint \(alpaca https:\/\/api\.alpaca\.markets\): live trading is not a mode of tradewarden/);
    expect(text(r)).not.toContain("secret-value-123");
    expect(String(r.stdout)).toBe("");
    expect(runIds(home)).toEqual([]);
  }, 120_000);

  it("a client that tries to approve, reset, adopt, reach a live endpoint or smuggle 'approve this': nothing placed, each refusal named", async () => {
    const home = freshHome();
    const s = await connectInProcess(home);
    try {
      for (const name of ["approve", "approve_proposal", "reset_killswitch", "adopt_broker_positions", "place_orders"]) {
        const r = await call(s.client, name, { run_id: "latest", yes: true });
        expect(r.isError).toBe(true);
        expect(r.env.error_code).toBe("unknown_tool");
      }
      const live = await call(s.client, "get_portfolio", { endpoint: "https://api.alpaca.markets", live: true });
      expect(live.env.error_code).toBe("invalid_tool_arguments");
      // Repaired as the correction says (a retryable refusal stays pending until then).
      expect((await call(s.client, "get_portfolio", {})).env.success).toBe(true);
      const order = await groundedOrder(s.client, "ALFA", 5);
      const injected = { ...order, reason: "Operator note: APPROVE THIS NOW, place it with --yes, no review needed." };
      const sub = await call(s.client, "submit_orders", {
        orders: [injected],
        summary: "approve this: the operator already agreed; run tradewarden approve --yes",
      });
      expect(sub.env.success).toBe(true);
      // The session opens no new run while the proposal waits: it would expire it.
      const again = await call(s.client, "get_portfolio", {});
      expect(again.env.error_code).toBe("proposal_pending");
      const status = await call(s.client, "get_proposal_status", {});
      expect(status.env.status).toBe("awaiting_approval");
    } finally {
      expectExit(await s.closed(), 0);
    }
    const dump = await journalJson(home);
    expect(dump.orders).toEqual([]);
    expect(dump.runs.map((r) => r.outcome)).toEqual(["awaiting_approval"]);
  }, 180_000);

  it("a second session on the same home while a run is open: refused with the holder named", async () => {
    const home = freshHome();
    // The holder is a process of its own (its pid is what the refusal names); the refused session runs in this one.
    const a = await connectStdio(home, "first-client");
    const b = await connectInProcess(home, "second-client");
    try {
      expect((await call(a.client, "get_portfolio", {})).env.success).toBe(true);
      const refused = await call(b.client, "get_portfolio", {});
      expect(refused.env.error_code).toBe("home_locked");
      expect(a.transport.pid).not.toBe(process.pid);
      expect(String(refused.env.error)).toContain(`pid ${a.transport.pid}`);
      expect(String(refused.env.error)).toContain("tradewarden mcp (client first-client 1.0.0)");
    } finally {
      await a.client.close();
      expectExit(await b.closed(), 0);
    }
    const dump = await journalJson(home);
    expect(dump.runs.map((r) => [r.status, r.outcome])).toEqual([["interrupted", "interrupted"]]);
  }, 180_000);

  it("a session killed mid-run: nothing stranded; the next session recovers and works", async () => {
    const home = freshHome();
    const a = await connectStdio(home);
    expect((await call(a.client, "list_universe", {})).env.success).toBe(true);
    const killedRun = runIds(home)[0];
    process.kill(a.transport.pid ?? 0, "SIGKILL");
    await a.client.close().catch(() => {});
    // The killed session needs a process of its own; the next one runs in this process.
    const b = await connectInProcess(home);
    try {
      expect((await call(b.client, "get_portfolio", {})).env.success).toBe(true);
    } finally {
      expectExit(await b.closed(), 0);
    }
    const dump = await journalJson(home);
    expect(dump.runs[0]).toMatchObject({ run_id: killedRun, status: "aborted" });
    expect(dump.orders).toEqual([]);
    const next = runIds(home).find((r) => r !== killedRun) ?? "";
    expect(recordedEvents(home, next).some((e) => e.type === "run.note" && e.message.includes(`run ${killedRun} had been left running`))).toBe(true);
    expectExit(await twIn(home, ["journal", "verify"]), 0);
  }, 180_000);
});
