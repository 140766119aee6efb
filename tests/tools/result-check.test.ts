/**
 * Tool results against their output schemas: the schemas are closed where the result is ours, the
 * check every test's results pass through (tests/setup/tool-results.ts) is armed, and it fails a
 * result with a field its schema lacks or a missing one.
 */
import { describe, expect, it } from "vitest";
import { CATALOGUE, contractOf } from "../../src/tools/catalogue.js";
import { plainSchema } from "../../src/tools/render.js";
import { withResultCheck } from "../../src/tools/result-check.js";
import type { ToolHandler } from "../../src/tools/types.js";
import { takeViolations } from "../setup/tool-results.js";
import { toolResultProblems } from "../../src/tools/result-schema.js";

describe("output schemas", () => {
  it("are closed at the top level for every tool: a result is exactly what the contract declares", () => {
    for (const t of CATALOGUE) expect((t.output as { additionalProperties?: unknown }).additionalProperties, t.name).toBe(false);
  });

  it("are closed inside too: every nested object of a result says which fields it has (recall's notes among them)", () => {
    const open: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== "object" || node === null) return;
      if ("type" in node && node.type === "object" && !("additionalProperties" in node && node.additionalProperties === false)) open.push(path);
      for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`);
    };
    for (const t of CATALOGUE) walk(plainSchema(t.output), t.name);
    expect(open).toEqual([]);
  });

  it("every tool's example is valid input, and every tool that mutates is a write or the final tool", () => {
    for (const t of CATALOGUE) {
      expect(t.mutates, t.name).toBe(t.kind === "write" || t.kind === "final");
      expect(t.grounded, t.name).toBe(["check_orders", "submit_orders"].includes(t.name));
    }
  });

  it("name what is wrong with a result: an undeclared field, a missing one, a wrong type", () => {
    const history = contractOf("list_standing_orders")!;
    expect(toolResultProblems(history, { success: true, as_of: "2020-01-02", total: 0, standing_orders: [] })).toEqual([]);
    expect(toolResultProblems(history, { success: true, as_of: "2020-01-02", total: 0, standing_orders: [], extra: 1 })).toEqual([
      "/ must NOT have additional properties (extra)",
    ]);
    expect(toolResultProblems(history, { success: true, total: "0", standing_orders: [] })).toEqual([
      "/ must have required property 'as_of'",
      "/total must be integer",
    ]);
  });
});

describe("the suite's result check", () => {
  const ctx = { runId: "r", tradingDay: "2020-01-02", seenEvidence: new Set<string>(), pending: [] };

  it("passes a conforming result of a run's handler through", async () => {
    const h = withResultCheck({ list_standing_orders: () => ({ ok: true, data: { as_of: "2020-01-02", total: 0, standing_orders: [] } }) });
    expect((await h.list_standing_orders!({}, ctx)).ok).toBe(true);
  });

  it("is armed in every test: a handler answering a field its schema lacks is refused and named (the check can fail)", async () => {
    const bad: ToolHandler = async () => ({ ok: true, data: { as_of: "2020-01-02", total: 0, standing_orders: [], secret_field: 1 } });
    const h = withResultCheck({ list_standing_orders: bad });
    await expect(h.list_standing_orders!({}, ctx)).rejects.toThrow(
      /list_standing_orders answered outside its output schema: \/ must NOT have additional properties \(secret_field\)/,
    );
    // The setup file would fail this test by name after it; this test provoked it on purpose.
    expect(takeViolations()).toHaveLength(1);
  });
});
