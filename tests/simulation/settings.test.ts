/** `--set` and `--model`: typed by the config schema, with clear errors naming the key. */
import { describe, expect, it } from "vitest";
import { applyModelChoice, applySet } from "../../src/simulation/settings.js";

describe("--set key=value", () => {
  it("types the value by the schema: numbers, integers, booleans, enums, lists; none removes a nullable key", () => {
    let doc: Record<string, unknown> = { limits: { max_order_notional: 5000 } };
    doc = applySet(doc, "limits.max_drawdown_pct=10");
    doc = applySet(doc, "limits.max_orders_per_month=3");
    doc = applySet(doc, "limits.allow_fractional=true");
    doc = applySet(doc, "model.provider=scripted");
    doc = applySet(doc, "universe.files=a.csv, b.csv");
    doc = applySet(doc, "limits.max_order_notional=none");
    doc = applySet(doc, "fx.EUR=1.08");
    expect(doc).toEqual({
      limits: { max_drawdown_pct: 10, max_orders_per_month: 3, allow_fractional: true },
      model: { provider: "scripted" },
      universe: { files: ["a.csv", "b.csv"] },
      fx: { EUR: 1.08 },
    });
  });

  it("refuses unknown keys (naming the known ones), wrong types and malformed assignments", () => {
    expect(() => applySet({}, "limits.max_drawdown=10")).toThrow(/unknown key "max_drawdown" in limits \(known: max_position_pct, .*max_drawdown_pct/);
    expect(() => applySet({}, "limits.max_drawdown_pct=ten")).toThrow(/limits.max_drawdown_pct=ten: not a number/);
    expect(() => applySet({}, "limits.max_orders_per_month=2.5")).toThrow(/not a whole number/);
    expect(() => applySet({}, "limits.allow_fractional=yes")).toThrow(/true or false/);
    expect(() => applySet({}, "model.provider=gpt")).toThrow(/must be one of auto, anthropic, openai, scripted/);
    expect(() => applySet({}, "limits=3")).toThrow(/is a table/);
    expect(() => applySet({}, "max_drawdown_pct")).toThrow(/expected key=value/);
  });
});

describe("--model", () => {
  it("scripted by default policy, scripted:POLICY, PROVIDER:MODEL_ID, config as is", () => {
    const base = { model: { provider: "auto", id: "claude-sonnet-5" } };
    expect(applyModelChoice(base, "scripted")).toEqual({ model: { provider: "scripted", id: "claude-sonnet-5" } });
    expect(applyModelChoice(base, "scripted:hold")).toEqual({ model: { provider: "scripted", id: "claude-sonnet-5", script: "hold" } });
    expect(applyModelChoice(base, "anthropic:claude-haiku-4-5")).toEqual({ model: { provider: "anthropic", id: "claude-haiku-4-5" } });
    expect(applyModelChoice(base, "openai:gpt-5-mini")).toEqual({ model: { provider: "openai", id: "gpt-5-mini" } });
    expect(applyModelChoice(base, "config")).toEqual(base);
    // A key that is not nullable cannot be removed.
    expect(() => applySet({}, "limits.max_price_age_days=none")).toThrow(/not a number/);
    expect(() => applyModelChoice(base, "gpt-5")).toThrow(
      /"gpt-5" is not a model provider; use config, anthropic\[:MODEL_ID\] or openai\[:MODEL_ID\] or scripted\[:POLICY\]/,
    );
  });
});
