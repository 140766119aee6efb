/**
 * The config loader: `<home>/tradewarden.toml` (or the built-in defaults when the file does not
 * exist) validated against CONFIG_SCHEMA, then the universe files it names. Fail closed: any issue
 * refuses the whole config, each issue naming the file, the key path and the rule broken.
 */
import { basename } from "node:path";
import { parse as parseToml, TomlDate, TomlError } from "smol-toml";
import { type Limits, pickLimits } from "../core/limits.js";
import { bundledDataDir, homePaths } from "../util/paths.js";
import { READ_LIMITS, readRegularFile } from "../util/regular-file.js";
import { describeErrors, generatedValidator } from "./ajv.js";
import * as generated from "./validators.generated.js";
import { notifyIssues, registerNotifySecrets } from "./notify-schema.js";
import { CONFIG_SCHEMA } from "./schema.js";
import { scheduleIssues } from "./schedule.js";
import type { Config, ConfigIssue, ConfigLoadResult } from "./types.js";
import { loadUniverse } from "./universe.js";

const configValidator = generatedValidator(CONFIG_SCHEMA, generated.config);

const issueOf = (file: string, path: string, rule: string): ConfigIssue => ({
  file,
  path,
  rule,
  message: `${file}: ${path}: ${rule}`,
});

/** TOML dates become ISO strings for the schema (a local date → "YYYY-MM-DD"). */
function normaliseToml(v: unknown): unknown {
  if (v instanceof TomlDate) return v.isDate() ? v.toISOString().slice(0, 10) : v.toISOString();
  if (Array.isArray(v)) return v.map(normaliseToml);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normaliseToml(x)]));
  }
  return v;
}

/** TOML allows nan and inf; no key of the config accepts them (JSON would print them as null). */
function nonFiniteIssues(doc: unknown, path = ""): { path: string; rule: string }[] {
  if (typeof doc === "number" && !Number.isFinite(doc)) {
    return [{ path: path || "(root)", rule: `must be a finite number, got ${Number.isNaN(doc) ? "nan" : doc > 0 ? "inf" : "-inf"}` }];
  }
  if (Array.isArray(doc)) return doc.flatMap((x, i) => nonFiniteIssues(x, `${path}[${i}]`));
  if (doc !== null && typeof doc === "object") {
    return Object.entries(doc).flatMap(([k, x]) => nonFiniteIssues(x, path ? `${path}.${k}` : k));
  }
  return [];
}

/** Nothing written (no file, an empty one, or `{}`): the built-in defaults need no validating again. */
const isEmptyDocument = (doc: unknown): boolean =>
  doc === undefined ||
  doc === null ||
  (typeof doc === "object" && !Array.isArray(doc) && Object.keys(doc).length === 0 && Object.getPrototypeOf(doc) === Object.prototype);

/**
 * The document checked by the config's schema, defaults filled in. An empty document gives the
 * defaults generated at build time (what this validator makes of `{}`: scripts/validators-source.ts),
 * a fresh copy each time; validating `{}` was ~30 ms of every fresh home's `run` (issue 26).
 */
function checkedDocument(doc: unknown, file: string): { ok: true; data: typeof generated.configDefaults } | { ok: false; errors: ConfigIssue[] } {
  if (isEmptyDocument(doc)) return { ok: true, data: structuredClone(generated.configDefaults) };
  const data: unknown = structuredClone(doc);
  const validate = configValidator();
  if (!validate(data)) {
    return { ok: false, errors: describeErrors(validate.errors).map((i) => issueOf(file, i.path || "(root)", i.rule)) };
  }
  return { ok: true, data };
}

/**
 * Validate a parsed config document (defaults applied) and shape it as Config. Pure apart from
 * the schema; `file` labels the issues.
 */
export function validateConfigDocument(doc: unknown, file: string, source: string | null): { ok: true; config: Config } | { ok: false; errors: ConfigIssue[] } {
  const nonFinite = nonFiniteIssues(doc);
  if (nonFinite.length > 0) return { ok: false, errors: nonFinite.map((i) => issueOf(file, i.path, i.rule)) };
  const checked = checkedDocument(doc, file);
  if (!checked.ok) return checked;
  const data = checked.data;
  const notify = notifyIssues(data.notify);
  if (notify.length > 0) return { ok: false, errors: notify.map((i) => issueOf(file, i.path, i.rule)) };
  registerNotifySecrets(data.notify);
  const config: Config = {
    source,
    account: data.account,
    limits: { ...data.limits, base_currency: data.account.base_currency },
    universe: data.universe,
    model: data.model,
    broker: data.broker,
    executor: data.executor,
    research: data.research,
    fx: data.fx,
    notify: data.notify,
    schedule: data.schedule,
  };
  const rules = scheduleIssues(config.schedule);
  if (rules.length > 0) return { ok: false, errors: rules.map((i) => issueOf(file, i.path, i.rule)) };
  return { ok: true, config };
}

/** The built-in defaults (what a home without tradewarden.toml runs on). */
export function defaultConfig(): Config {
  const r = validateConfigDocument({}, "defaults", null);
  if (!r.ok) throw new Error(`built-in config defaults do not validate: ${r.errors.map((e) => e.message).join("; ")}`);
  return r.config;
}

/** The gate's limits from a loaded config. */
export function limitsOf(config: Config): Limits {
  return pickLimits(config.limits);
}

/** Parse TOML text; a syntax error becomes an issue with its line and column. */
export function parseConfigText(text: string, file: string): { ok: true; doc: unknown } | { ok: false; errors: ConfigIssue[] } {
  try {
    return { ok: true, doc: normaliseToml(parseToml(text)) };
  } catch (e) {
    if (e instanceof TomlError) {
      const first = e.message.split("\n")[0] ?? e.message;
      return { ok: false, errors: [issueOf(file, `line ${e.line}, column ${e.column}`, `TOML syntax error: ${first}`)] };
    }
    return { ok: false, errors: [issueOf(file, "(file)", `cannot parse: ${(e as Error).message}`)] };
  }
}

/**
 * Load `<home>/tradewarden.toml` (built-in defaults when nothing is at that path; a broken link,
 * folder or FIFO is refused) and the universe it
 * names. `dataDir` (default: the bundled data/) is the fallback for relative universe paths.
 */
export function loadConfig(home: string, dataDir: string = bundledDataDir()): ConfigLoadResult {
  const path = homePaths(home).config;
  const file = basename(path);
  let doc: unknown = {};
  let source: string | null = null;
  // A broken symbolic link, a folder or a FIFO is refused, never read as "no config" (or waited on).
  const read = readRegularFile(path, READ_LIMITS.config);
  if (read.kind === "refused") return { ok: false, errors: [issueOf(file, "(file)", `${read.reason}; refusing to run on the built-in defaults`)] };
  if (read.kind === "ok") {
    source = path;
    const parsed = parseConfigText(read.text, file);
    if (!parsed.ok) return parsed;
    doc = parsed.doc;
  }
  const v = validateConfigDocument(doc, file, source);
  if (!v.ok) return v;
  const u = loadUniverse(v.config.universe.files, home, dataDir, file);
  if (u.issues.length > 0) return { ok: false, errors: u.issues };
  return { ok: true, config: v.config, universe: u.universe };
}
