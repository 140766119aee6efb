/**
 * `--set key=value` and `--model`: edits of a config document, typed by the config's JSON Schema
 * (the one source of truth for keys and types). Pure: no I/O.
 */
import { CONFIG_SCHEMA } from "../config/schema.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";

type Json = Record<string, unknown>;
type Doc = Record<string, unknown>;

const usage = (code: string, message: string) => new TwError(code, message, EXIT.USAGE_OR_CONFIG);

/** The schema node at a dotted key path, or a clear error naming the known keys there. */
function schemaAt(path: string[]): Json {
  let node: Json = CONFIG_SCHEMA;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    const props = node.properties as Record<string, Json> | undefined;
    const next = props?.[key] ?? (typeof node.additionalProperties === "object" ? (node.additionalProperties as Json) : undefined);
    if (!next) {
      const where = path.slice(0, i).join(".") || "(top level)";
      const known = props ? Object.keys(props).join(", ") : "none";
      throw usage("unknown_key", `--set ${path.join(".")}: unknown key "${key}" in ${where} (known: ${known})`);
    }
    node = next;
  }
  return node;
}

function typesOf(node: Json): string[] {
  if (Array.isArray(node.enum)) return ["enum"];
  const t = node.type;
  return Array.isArray(t) ? (t as string[]) : typeof t === "string" ? [t] : [];
}

/** The typed value of `raw` for the schema node (undefined: remove the key, for nullable keys). */
function typedValue(key: string, raw: string, node: Json): unknown {
  const types = typesOf(node);
  if (types.includes("null") && (raw === "none" || raw === "null" || raw === "")) return undefined;
  if (types.includes("enum")) {
    const options = node.enum as unknown[];
    if (!options.includes(raw)) throw usage("invalid_value", `--set ${key}=${raw}: must be one of ${options.join(", ")}`);
    return raw;
  }
  if (types.includes("number") || types.includes("integer")) {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) throw usage("invalid_value", `--set ${key}=${raw}: not a number`);
    if (types.includes("integer") && !types.includes("number") && !Number.isInteger(n)) throw usage("invalid_value", `--set ${key}=${raw}: not a whole number`);
    return n;
  }
  if (types.includes("boolean")) {
    if (raw !== "true" && raw !== "false") throw usage("invalid_value", `--set ${key}=${raw}: must be true or false`);
    return raw === "true";
  }
  if (types.includes("array"))
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  if (types.includes("string")) return raw;
  throw usage("invalid_value", `--set ${key}: "${key}" is a table, not a value; set one of its keys`);
}

/** Applies one `key=value` to a copy of the document. The value is typed by the schema; range rules are checked when the whole config is validated. */
export function applySet(doc: Doc, assignment: string): Doc {
  const eq = assignment.indexOf("=");
  if (eq <= 0) throw usage("invalid_set", `--set ${assignment}: expected key=value (e.g. --set limits.max_drawdown_pct=10)`);
  const key = assignment.slice(0, eq).trim();
  const raw = assignment.slice(eq + 1).trim();
  const path = key.split(".");
  if (path.some((p) => p.length === 0)) throw usage("invalid_set", `--set ${assignment}: "${key}" is not a dotted key path`);
  const value = typedValue(key, raw, schemaAt(path));
  const out = structuredClone(doc);
  let table: Doc = out;
  for (const p of path.slice(0, -1)) {
    const next = table[p];
    if (next === undefined || next === null || typeof next !== "object" || Array.isArray(next)) table[p] = {};
    table = table[p] as Doc;
  }
  const last = path.at(-1) as string;
  if (value === undefined) delete table[last];
  else table[last] = value;
  return out;
}

/** Model providers the config knows (from the schema), besides "auto". */
function modelProviders(): string[] {
  const node = schemaAt(["model", "provider"]);
  return (node.enum as string[]).filter((p) => p !== "auto");
}

/**
 * `--model CHOICE`: `scripted` (the configured policy), `scripted:POLICY`, `config` (the config's
 * own model section as it is), `PROVIDER` (e.g. `anthropic`, the configured model id) or
 * `PROVIDER:MODEL_ID`. Returns the edited document.
 */
export function applyModelChoice(doc: Doc, choice: string): Doc {
  if (choice === "config") return structuredClone(doc);
  const colon = choice.indexOf(":");
  const provider = colon < 0 ? choice : choice.slice(0, colon);
  const detail = colon < 0 ? "" : choice.slice(colon + 1);
  const providers = modelProviders();
  if (!providers.includes(provider)) {
    throw usage(
      "invalid_model",
      `--model ${choice}: "${provider}" is not a model provider; use config, ${providers.map((p) => (p === "scripted" ? "scripted[:POLICY]" : `${p}[:MODEL_ID]`)).join(" or ")}`,
    );
  }
  if (colon >= 0 && detail.length === 0) throw usage("invalid_model", `--model ${choice}: nothing after ":"`);
  const out = structuredClone(doc);
  const model = { ...((out.model as Doc | undefined) ?? {}) };
  model.provider = provider;
  if (detail) model[provider === "scripted" ? "script" : "id"] = detail;
  out.model = model;
  return out;
}

/** Drops null values (TOML has no null; a key left out takes its default). */
export function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => [k, withoutNulls(x)]),
    );
  }
  return v;
}
