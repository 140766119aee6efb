/**
 * An events.jsonl line checked against its event type's schema (core/events.ts), by the validator
 * generated at build time from its types-only form (src/config/validators/audit.generated.cjs,
 * `npm run validators:build`): the audit names a line whose event is not the shape its type says. It checks field types,
 * not bounds: the order intent's model-facing bounds (core/order-intent.ts) hold for what the model
 * sends, not for orders the run builds (a kill-switch liquidation has no evidence) or unmasks.
 */
import { RECORDED_EVENT_SCHEMAS } from "../core/events.js";
import { generatedChecker, type SchemaIssue } from "../config/ajv.js";
import * as generated from "../config/validators.generated.js";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keywords that bound a value rather than type it; `additionalProperties: false` is one too. */
const BOUNDS = new Set([
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "uniqueItems",
]);

/** A plain copy of `schema` with its bounds left out (property names are names, not keywords). */
export function typesOnly(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (BOUNDS.has(key) || (key === "additionalProperties" && value === false)) continue;
    const named = (key === "properties" || key === "patternProperties") && isRecord(value);
    out[key] = named ? Object.fromEntries(Object.entries(value).map(([name, v]) => [name, typesOnlyValue(v)])) : typesOnlyValue(value);
  }
  return out;
}

function typesOnlyValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(typesOnlyValue);
  return isRecord(value) ? typesOnly(value) : value;
}

const checkers = new Map<string, (value: unknown) => SchemaIssue[]>();

/**
 * The event as its schema reads it. Runs recorded before gate decisions carried their input index
 * (tests/fixtures/cassette-tw-tools-1 and -2) wrote decisions without one: each such decision is
 * checked as if it had its position as its index, so older runs still audit clean.
 */
function withDecisionIndexes(event: Record<string, unknown>): Record<string, unknown> {
  const decisions = event.decisions;
  if (!Array.isArray(decisions) || !decisions.some((d) => isRecord(d) && !("index" in d))) return event;
  return { ...event, decisions: decisions.map((d, i) => (isRecord(d) && !("index" in d) ? { ...d, index: i } : d)) };
}

/** The ways a recorded event of a known type breaks its schema (empty when it fits, or when the type is unknown). */
export function eventShapeIssues(type: string, event: unknown): string[] {
  let check = checkers.get(type);
  if (!check) {
    const schema = RECORDED_EVENT_SCHEMAS.get(type);
    if (!schema) return [];
    check = generatedChecker(typesOnly(schema), generated.auditEvents[type], `the recorded event ${type}`);
    checkers.set(type, check);
  }
  return check(isRecord(event) ? withDecisionIndexes(event) : event).map((issue) => (issue.path === "" ? issue.rule : `${issue.path}: ${issue.rule}`));
}
