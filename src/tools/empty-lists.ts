/**
 * Empty optional lists are accepted as absent. Many models send `[]` for an optional list they have
 * nothing to put in (`abandon_error_codes: []` on submit_orders); where the schema asks for at
 * least one item, that list was refused and the model, seeing nothing to fix, often sent it again.
 * From tw-tools/3 on, admission drops such a list before validation: an empty array given for an
 * optional property whose schema requires at least one item is treated as if it were absent. A list
 * whose schema allows `[]` keeps it (the tool may read `[]` and absent differently), and a required
 * list is never dropped. tw-tools/1 and /2 refuse it as they always did (their replays stay identical).
 */
import type { ContractVersion } from "./versions.js";

/** The versions that refuse an empty optional list (frozen: a replay answers as the recorded run was answered). */
const REFUSING_VERSIONS: ReadonlySet<ContractVersion> = new Set(["tw-tools/1", "tw-tools/2"]);

/** Whether a contract version treats an empty optional list as absent. */
export function dropsEmptyOptionalLists(version: ContractVersion): boolean {
  return !REFUSING_VERSIONS.has(version);
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An array schema that needs at least one item (an empty list would be refused). */
function needsAnItem(schema: unknown): boolean {
  return isObject(schema) && schema.type === "array" && typeof schema.minItems === "number" && schema.minItems >= 1;
}

/**
 * `args` without the empty optional lists `schema` would refuse, at any depth of nested objects
 * (and objects inside lists); the same object when there is none. Never mutates `args`.
 */
export function withoutEmptyOptionalLists(schema: unknown, args: Json): Json {
  if (!isObject(schema) || !isObject(schema.properties)) return args;
  const properties = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  let out: Json | undefined;
  for (const [key, value] of Object.entries(args)) {
    const prop = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (prop === undefined) continue;
    let next: unknown = value;
    if (Array.isArray(value)) {
      if (value.length === 0 && !required.has(key) && needsAnItem(prop)) {
        out ??= { ...args };
        delete out[key];
        continue;
      }
      const items = isObject(prop) ? prop.items : undefined;
      const mapped = value.map((item) => (isObject(item) ? withoutEmptyOptionalLists(items, item) : item));
      if (mapped.some((item, i) => item !== value[i])) next = mapped;
    } else if (isObject(value)) {
      next = withoutEmptyOptionalLists(prop, value);
    }
    if (next !== value) {
      out ??= { ...args };
      out[key] = next;
    }
  }
  return out ?? args;
}
