import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";

const EXECUTE_CODE_MAX_CHARS = 8000;
/** Failed executions (errors, timeouts, memory) allowed per run before the tool refuses. */
export const EXECUTE_CODE_RETRY_BUDGET = 4;

const Input = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: EXECUTE_CODE_MAX_CHARS,
      description:
        "JavaScript; the last expression's value is the result. Has console.log, tw.tradingDay, tw.symbols(), tw.bars(symbol, {from?, to?, limit?}) → [{date, open, high, low, close, volume}], tw.closes(symbol, limit?).",
    }),
  },
  { additionalProperties: false, description: "The code to run in the sandbox." },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String(),
    result: Type.Unknown(),
    output: Type.String(),
    output_truncated: Type.Boolean(),
    elapsed_ms: Type.Integer(),
  },
  { additionalProperties: false },
);

export const executeCode = defineTool({
  name: "execute_code",
  group: "sandbox",
  kind: "read",
  description: `Run short JavaScript over daily bars before the trading day in a sandbox (no network or files, 2 s, 32 MB); a failure returns the traceback, and after ${EXECUTE_CODE_RETRY_BUDGET} the tool refuses.`,
  example: { code: "const c = tw.closes('ALFA', 21); c[20] / c[0] - 1" },
  successSummary: "success=true with evidence_id, result (the last expression's value as JSON), output (console.log lines), output_truncated and elapsed_ms.",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 8,
  summarize: (r) => {
    const result = JSON.stringify(r.result ?? null);
    return `ran in ${r.elapsed_ms ?? "?"} ms → ${result.length > 80 ? `${result.slice(0, 77)}...` : result}${r.output ? ` (+${String(r.output).split("\n").length - 1} output line(s))` : ""}`;
  },
});
