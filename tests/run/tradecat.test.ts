/**
 * The TradeCat export of every run kind validates against TradeCat's own schema, read from the seed
 * file itself (../shared/seeds/004_…): the test extracts the JSON Schema from the file and compiles it
 * with its own ajv, reading Python's `(?i)` pattern flag as JavaScript's `i` flag. Runs are made by
 * the real pipeline over the real journal and brokers (the simulated one, and Alpaca's paper API
 * through its loopback fake for a refused account); the mapper's refusals are tested on its own.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, test } from "vitest";
import type { ProposedOrder } from "../../src/core/domain.js";
import type { ApprovalDecision, Approver } from "../../src/run/approval.js";
import { AutoApprover } from "../../src/run/approval.js";
import { EventSink } from "../../src/run/event-sink.js";
import type { RunEvent } from "../../src/core/events.js";
import { runDaily } from "../../src/run/pipeline.js";
import { createRunServices, accountDeps } from "../../src/run/services.js";
import { buildTradecatCycle } from "../../src/run/tradecat.js";
import { TRADECAT_FILE } from "../../src/run/tradecat-export.js";
import { tradecatProblems, tradecatSchema } from "../../src/run/tradecat-rules.js";
import { fakeAlpacaForFile } from "../broker/fake-alpaca.js";

/** The seed file, where the planning repository sits beside this one (it does not on a bare CI clone). */
const SEED = [
  resolve(import.meta.dirname, "../../../shared/seeds/004_9770214c06fee9b2.txt"),
  resolve(import.meta.dirname, "../../../../shared/seeds/004_9770214c06fee9b2.txt"),
].find((p) => existsSync(p));

/** The JSON Schema in the seed file (from its first "{" to its last "}"); without the seed, the vendored copy. */
function seedSchema(): Record<string, unknown> {
  if (!SEED) return tradecatSchema() as Record<string, unknown>;
  const text = readFileSync(SEED, "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Record<string, unknown>;
}

/** The seed's schema compiled by this test's own ajv; `(?i)` read as the `i` flag. */
function seedValidator() {
  const regExp = Object.assign((p: string, u: string) => (p.startsWith("(?i)") ? new RegExp(p.slice(4), `${u}i`) : new RegExp(p, u)), { code: "test" });
  return new Ajv2020({ strict: false, allErrors: true, code: { regExp } }).compile(seedSchema());
}

const validate = seedValidator();
const errorsOf = (doc: unknown) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));

describe("the seed's schema", () => {
  test.skipIf(!SEED)("is vendored verbatim as data/schemas/tradecat-research-cycle.schema.json", () => {
    expect(tradecatSchema()).toEqual(seedSchema());
  });
  test("its (?i) endpoint pattern is read case-insensitively: private-looking endpoints in any case are refused", () => {
    const call = (endpoint: string) => ({ family: "klines", endpoint, method: "GET", ok: true, provenance: {} });
    const base = {
      schema: "tradecat_auto.agent_research_cycle.v1",
      schema_version: "1.0.0",
      ok: true,
      run_id: "r",
      mode: "paper",
      source_signal: { kind: "replay", provenance: {} },
      requested_market_data: [],
      next_action: { action: "hold", reason: "x" },
      error_code: null,
      provenance: { source: "t" },
    };
    const safety = {
      public_readonly_market_data: true,
      public_readonly: true,
      paper_or_watch_only: true,
      real_orders: false,
      signed_requests: false,
      reads_api_keys: false,
      binance_account_state: false,
    };
    expect(errorsOf({ ...base, safety, tool_calls: [call("/api/v3/klines")] })).toEqual([]);
    for (const bad of ["/v2/account", "/v2/ACCOUNT", "/fapi/v1/Order", "/x?signature=1", "/sapi/ListenKey"])
      expect(errorsOf({ ...base, safety, tool_calls: [call(bad)] }), bad).not.toEqual([]);
    expect(errorsOf({ ...base, safety: { ...safety, reads_api_keys: true } })).not.toEqual([]);
  });
});

const homes: string[] = [];
const alpaca = fakeAlpacaForFile({ key: "PKTESTKEY", secret: "test-secret-value" });
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

class RejectingApprover implements Approver {
  readonly name = "operator";
  async decide(): Promise<ApprovalDecision> {
    return { kind: "reject", reason: "not today", by: "operator" };
  }
}

type Kind = "executed" | "hold" | "rejected" | "observe" | "halted" | "refused";

async function runOf(kind: Kind): Promise<{ dir: string; events: RunEvent[]; outcome: string }> {
  const home = mkdtempSync(join(tmpdir(), `tw-tradecat-${kind}-`));
  homes.push(home);
  const script = kind === "hold" ? "hold" : "momentum";
  const broker = kind === "refused" ? `[broker]\nkind = "alpaca"\n[broker.alpaca]\nbase_url = "${alpaca.url}"\n` : "";
  writeFileSync(join(home, "tradewarden.toml"), `[model]\nprovider = "scripted"\nscript = "${script}"\n${broker}`);
  if (kind === "refused") alpaca.accountNumber = "A2LIVEACCT9"; // not a paper account's number
  const env = { APCA_API_KEY_ID: "PKTESTKEY", APCA_API_SECRET_KEY: "test-secret-value" };
  const s = await createRunServices(home, env);
  if (kind === "halted") {
    await s.journal.init({ capital: 100_000, currency: "USD", at: new Date() });
    await s.journal.trip({ run_id: "earlier", at: new Date(), value: 70_000, peak: 100_000, drawdown_pct: 30, reason: "a test trip" });
  }
  const sink = new EventSink();
  const approver: Approver = kind === "rejected" ? new RejectingApprover() : new AutoApprover();
  const summary = await runDaily({
    home,
    mode: kind === "observe" ? "observe" : "paper",
    ...accountDeps(s),
    model: s.model,
    approver,
    sink,
    signal: new AbortController().signal,
    secretsRead: s.secretsRead,
    allowLoopbackBroker: true,
    executorSleep: async () => {},
  });
  return { dir: summary.runDir, events: sink.events, outcome: summary.outcome };
}

describe("the TradeCat record of every run kind validates against the seed's schema", () => {
  const expected: Record<Kind, { outcome: string; mode: string; action: string; ok: boolean }> = {
    executed: { outcome: "executed", mode: "paper", action: "run_context_paper", ok: true },
    hold: { outcome: "hold", mode: "paper", action: "hold", ok: true },
    rejected: { outcome: "rejected", mode: "paper", action: "reject", ok: true },
    observe: { outcome: "observed", mode: "observe_only", action: "observe_only", ok: true },
    halted: { outcome: "halted", mode: "watch", action: "hold", ok: true },
    refused: { outcome: "broker_unavailable", mode: "paper", action: "request_more_context", ok: false },
  };
  test.each(Object.keys(expected) as Kind[])(
    "%s",
    async (kind) => {
      const run = await runOf(kind);
      const want = expected[kind];
      expect(run.outcome).toBe(want.outcome);
      const doc = JSON.parse(readFileSync(join(run.dir, TRADECAT_FILE), "utf8")) as Record<string, unknown>;
      expect(errorsOf(doc)).toEqual([]);
      expect(tradecatProblems(doc)).toEqual([]);
      expect(doc).toMatchObject({
        mode: want.mode,
        ok: want.ok,
        next_action: { action: want.action },
        error_code: want.ok ? null : kind === "refused" ? "not_paper" : want.outcome,
      });
      // every tool call is listed; the market-data ones are TradeCat tool calls, unsigned and keyless
      const called = run.events.filter((e) => e.type === "tool.called");
      expect((doc.agent_tool_calls as unknown[]).length).toBe(called.length);
      const history = called.filter((e) => e.type === "tool.called" && e.tool === "get_price_history");
      expect((doc.tool_calls as unknown[]).length).toBe(history.length);
      for (const c of doc.tool_calls as Record<string, unknown>[])
        expect(c).toMatchObject({ family: "klines", method: "GET", signed: false, reads_api_keys: false, real_orders: false });
      const next = doc.next_action as Record<string, unknown>;
      if (kind === "executed") {
        expect(next.writes_paper_ledger).toBe(true);
        expect((next.sizing as unknown[]).length).toBeGreaterThan(0);
        expect(next.exit_plan).toMatchObject({ portfolio_stop: { kind: "kill_switch_drawdown", max_drawdown_pct: 25 } });
        expect((doc.requested_market_data as { required: boolean }[])[0]?.required).toBe(true);
      } else {
        expect(next.writes_paper_ledger).toBe(false);
      }
      if (kind === "refused") {
        expect(doc.requested_market_data).toEqual([]);
        expect(doc.tradewarden_safety).toMatchObject({ broker_endpoint_kind: "alpaca_paper", secrets_read: ["APCA_API_KEY_ID", "APCA_API_SECRET_KEY"] });
        expect(doc.source_signal).toMatchObject({ kind: "manual_fixture" });
      } else {
        expect(doc.source_signal).toMatchObject({ kind: "replay" });
      }
    },
    60_000,
  );
});

describe("what TradeCat's audit refuses cannot be emitted", () => {
  const tw = (over: Record<string, unknown> = {}) => ({
    schema: "tradewarden.research_cycle.v1",
    ok: true,
    run_id: "r1",
    generated_at: "2024-05-06T20:00:00.000Z",
    mode: "paper",
    trading_day: "2024-05-06",
    outcome: "executed",
    exit_code: 0,
    model: { provider: "scripted", id: "scripted:momentum", turns: 2, cost_usd: 0 },
    tool_calls: [],
    proposal: { orders: [], summary: "s", abandoned_error_codes: [] },
    verdicts: { dry_runs: 0, proposal: [], final: [] },
    executed: [{ client_order_id: "c1", symbol: "ALFA", side: "BUY", quantity: 10, limit_price: 100, status: "filled", filled_quantity: 10 }],
    next_action: { action: "none", reason: "sent" },
    provenance: { market_data: "bundled" },
    safety: { broker_endpoint_kind: "simulated", secrets_read: [] },
    limitations: [],
    ...over,
  });
  const ev = (body: Record<string, unknown>, seq: number) => ({ ...body, seq, at: "2024-05-06T20:00:00.000Z", run_id: "r1" }) as unknown as RunEvent;
  const valuation = ev(
    {
      type: "valuation",
      value: 1,
      cash: 1,
      peak: 1,
      drawdown_pct: 0,
      max_drawdown_pct: 25,
      trading_state: "ACTIVE",
      orders_used: 0,
      orders_left: 10,
      first_of_run: true,
    },
    1,
  );

  test("a paper handoff without an exit plan (no kill-switch limit recorded) degrades to hold", () => {
    const doc = buildTradecatCycle(tw(), []);
    expect(doc.next_action).toMatchObject({ action: "hold", writes_paper_ledger: false });
    expect((doc.limitations as string[]).join(" ")).toMatch(/not a paper handoff/);
    expect(errorsOf(doc)).toEqual([]);
    expect(tradecatProblems(doc)).toEqual([]);
  });

  test("a paper handoff without sizing (only kill-switch liquidations were sent) degrades to hold", () => {
    const doc = buildTradecatCycle(
      tw({
        executed: [
          { client_order_id: "r1-L0", symbol: "ALFA", side: "SELL", quantity: 1, limit_price: 1, status: "filled", filled_quantity: 1, liquidation: true },
        ],
      }),
      [valuation],
    );
    expect(doc.next_action).toMatchObject({ action: "hold" });
    expect(buildTradecatCycle(tw(), [valuation]).next_action).toMatchObject({
      action: "run_context_paper",
      sizing: [{ symbol: "ALFA", quantity: 10, notional: 1000 }],
    });
  });

  test("a market-data call whose endpoint would look private is left out (and said so); the rest stay", () => {
    const called = (id: string, symbol: string, seq: number) =>
      ev({ type: "tool.called", turn: 1, call_id: id, tool: "get_price_history", arguments: { symbol } }, seq);
    const doc = buildTradecatCycle(
      tw({
        tool_calls: [
          { call_id: "a", ok: true, outcome: "ok" },
          { call_id: "b", ok: true, outcome: "ok" },
        ],
      }),
      [valuation, called("a", "ORDERX", 2), called("b", "ALFA", 3)],
    );
    expect((doc.tool_calls as { endpoint: string }[]).map((c) => c.endpoint)).toEqual([expect.stringContaining("symbol=ALFA")]);
    expect((doc.agent_tool_calls as unknown[]).length).toBe(2);
    expect((doc.limitations as string[]).join(" ")).toContain("a (ORDERX)");
    expect(errorsOf(doc)).toEqual([]);
  });

  test("the safety block is TradeCat's constants whatever the run read; the facts go to tradewarden_safety", () => {
    const doc = buildTradecatCycle(tw({ safety: { broker_endpoint_kind: "alpaca_paper", secrets_read: ["APCA_API_KEY_ID", "OPENAI_API_KEY"] } }), [valuation]);
    expect(doc.safety).toEqual({
      public_readonly_market_data: true,
      public_readonly: true,
      paper_or_watch_only: true,
      real_orders: false,
      signed_requests: false,
      reads_api_keys: false,
      binance_account_state: false,
    });
    expect((doc.limitations as string[]).join(" ")).toContain("APCA_API_KEY_ID, OPENAI_API_KEY");
    // and the checker catches a tampered record
    expect(tradecatProblems({ ...doc, safety: { ...(doc.safety as object), real_orders: true } })).toContain("/safety/real_orders must be false");
    expect(tradecatProblems({ ...doc, next_action: { action: "run_context_paper", reason: "x" } })).toEqual(
      expect.arrayContaining(["/next_action: a paper handoff needs sizing", "/next_action: a paper handoff needs an exit plan"]),
    );
    expect(tradecatProblems({ ...doc, requested_market_data: [{ family: "klines", endpoint: "/v2/Account", method: "GET", reason: "r" }] }).join(" ")).toMatch(
      /looks private/,
    );
  });

  test("orders proposed in observe mode are described, not handed off", () => {
    const orders: ProposedOrder[] = [{ symbol: "ALFA", side: "BUY", quantity: 5, limit_price: 10, reason: "r", evidence_ids: [] }];
    const doc = buildTradecatCycle(
      tw({ mode: "observe_only", outcome: "observed", executed: [], proposal: { orders, summary: "s", abandoned_error_codes: [] } }),
      [valuation],
    );
    expect(doc).toMatchObject({
      mode: "observe_only",
      next_action: { action: "observe_only", writes_paper_ledger: false, proposed_sizing: [{ symbol: "ALFA", notional: 50 }] },
    });
  });
});
