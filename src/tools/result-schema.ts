/**
 * TEST-ONLY: a tool result checked against its tool's output schema (the checker that
 * src/tools/result-check.ts hands each real handler's answer to once a test or a CLI child arms it).
 *
 * Kept apart from the handler wrapping so the suite's setup file (tests/setup/tool-results.ts),
 * loaded by every test file, pulls in no tool catalogue: a schema is compiled only when a result
 * of its tool is first checked.
 */
import type { ValidateFunction } from "ajv";
import { makeAjv } from "../config/ajv.js";
import type { ToolContract } from "./types.js";

export const TOOL_RESULT_CHECK = Symbol.for("tradewarden.tests.tool-result-check");

export type ToolResultCheck = (contract: ToolContract, envelope: Readonly<Record<string, unknown>>) => void;

let ajv: ReturnType<typeof makeAjv> | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

/** The problems of an envelope against the contract's output schema (empty when it conforms). */
export function toolResultProblems(contract: ToolContract, envelope: unknown): string[] {
  let validate = compiled.get(contract.output);
  if (!validate) {
    ajv ??= makeAjv();
    // The TypeBox schema as plain JSON (its symbols dropped), as src/tools/render.ts's plainSchema does.
    validate = ajv.compile(JSON.parse(JSON.stringify(contract.output)) as Record<string, unknown>);
    compiled.set(contract.output, validate);
  }
  if (validate(JSON.parse(JSON.stringify(envelope)))) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || "/"} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`,
  );
}

/** A checker that hands each violation (naming the tool and every problem) to `onViolation`, then throws it. */
export function schemaCheck(onViolation: (message: string) => void): ToolResultCheck {
  return (contract, envelope) => {
    const problems = toolResultProblems(contract, envelope);
    if (problems.length === 0) return;
    const message = `${contract.name} answered outside its output schema: ${problems.join("; ")}`;
    onViolation(message);
    throw new Error(message);
  };
}
