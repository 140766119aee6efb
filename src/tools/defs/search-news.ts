import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";

const Input = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 300,
      pattern: "\\S",
      description: "A few keywords: a symbol, company or event.",
    }),
    max_results: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10,
        default: 5,
        description: "Most results to return.",
      }),
    ),
  },
  { additionalProperties: false, description: "A news search as of the run's trading day." },
);

const Item = Type.Object(
  {
    evidence_id: Type.String(),
    title: Type.String(),
    url: Type.String(),
    published: Type.Union([Type.String(), Type.Null()]),
    outlets: Type.Array(Type.String()),
    snippet: Type.String(),
    verified: Type.Optional(Type.Literal(false, { description: "Present (false) only on undated items admitted in a live run." })),
  },
  { additionalProperties: false },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    as_of: Type.String(),
    provider: Type.String(),
    status: Type.Union([Type.Literal("success"), Type.Literal("disabled")]),
    results: Type.Array(Item),
    undated: Type.Array(Item),
    removed: Type.Object(
      { cutoff: Type.Integer(), undated: Type.Integer(), policy: Type.Integer(), duplicates: Type.Integer() },
      { additionalProperties: false },
    ),
    message: Type.Optional(Type.String({ description: "Set when news search is off in this configuration." })),
  },
  { additionalProperties: false },
);

export const searchNews = defineTool({
  name: "search_news",
  group: "research",
  kind: "read",
  description:
    "News published before the trading day; copies of one story are merged, listing its outlets (one story, not several confirmations); undated items are marked verified=false. A result's evidence_id grounds an order only if it names the order's instrument.",
  example: { query: "ALFA guidance" },
  successSummary:
    "success=true with as_of (the trading day), provider, status (success, or disabled when news search is off: no results), results[] ({evidence_id, title, url, published, outlets[], snippet}), undated[] (same fields plus verified=false; empty unless admitted) and removed{cutoff, undated, policy, duplicates}.",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 8,
  summarize: (r) => {
    const n = (k: "results" | "undated") => (Array.isArray(r[k]) ? r[k].length : 0);
    const removed = r.removed ?? {};
    return `${r.status ?? "?"} via ${r.provider ?? "?"}: ${n("results")} result(s), ${n("undated")} undated; removed cutoff ${removed.cutoff ?? 0}, undated ${removed.undated ?? 0}, policy ${removed.policy ?? 0}, duplicates ${removed.duplicates ?? 0}`;
  },
});
