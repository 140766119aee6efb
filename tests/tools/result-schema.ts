/** Checks a tool's successful envelope against its output schema (ajv, every error named). */
import type { ValidateFunction } from "ajv";
import { makeAjv } from "../../src/config/ajv.js";
import { plainSchema } from "../../src/tools/render.js";
import type { ToolContract } from "../../src/tools/types.js";

const ajv = makeAjv();
const compiled = new WeakMap<object, ValidateFunction>();

/** The problems of an envelope against the contract's output schema (empty when it conforms). */
export function toolResultProblems(contract: ToolContract, envelope: unknown): string[] {
  let validate = compiled.get(contract.output);
  if (!validate) {
    validate = ajv.compile(plainSchema(contract.output));
    compiled.set(contract.output, validate);
  }
  if (validate(JSON.parse(JSON.stringify(envelope)))) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`);
}
