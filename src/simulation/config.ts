/**
 * A simulation's effective configuration: the home's `tradewarden.toml` (or `--config FILE`
 * instead), then the model choice, then each `--set key=value`, then what a simulation fixes (the
 * simulated broker, starting on `--from`). Validated like any config and saved with the
 * simulation as its own `tradewarden.toml`, universe paths made absolute where they pointed into
 * the home or next to the config file.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { stringify as toToml } from "smol-toml";
import type { Instrument } from "../core/domain.js";
import { parseConfigText, validateConfigDocument } from "../config/load.js";
import type { Config, ConfigIssue } from "../config/types.js";
import { loadUniverse, resolveUniverseFile } from "../config/universe.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { bundledDataDir, homePaths } from "../util/paths.js";
import { applyModelChoice, applySet, withoutNulls } from "./settings.js";

type Doc = Record<string, unknown>;

export interface EffectiveConfigRequest {
  home: string;
  /** A config file used instead of the home's `tradewarden.toml`. */
  configFile?: string;
  /** `--model` (default: the scripted policy). */
  model?: string;
  /** `--set key=value`, applied in order. */
  sets: string[];
  /** The first trading day. */
  from: string;
}

export interface EffectiveConfig {
  config: Config;
  universe: Instrument[];
  /** The document as saved (TOML text). */
  toml: string;
  /** Where it came from, for the report: the file, the model choice and the --set edits. */
  origin: { file: string | null; model: string; sets: string[] };
}

function refuse(issues: ConfigIssue[]): TwError {
  return new TwError(
    "config_invalid",
    `the simulation's configuration did not load; nothing runs on it:\n${issues.map((e) => `  - ${e.message}`).join("\n")}`,
    EXIT.USAGE_OR_CONFIG,
    issues,
  );
}

function readDoc(path: string): Doc {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new TwError("config_unreadable", `cannot read ${path}: ${(e as Error).message}`, EXIT.USAGE_OR_CONFIG);
  }
  const parsed = parseConfigText(text, path);
  if (!parsed.ok) throw refuse(parsed.errors);
  return (parsed.doc ?? {}) as Doc;
}

export function effectiveConfig(req: EffectiveConfigRequest): EffectiveConfig {
  const file = req.configFile ? resolve(req.configFile) : existsSync(homePaths(req.home).config) ? homePaths(req.home).config : null;
  if (req.configFile && !existsSync(file as string)) throw new TwError("config_missing", `--config ${req.configFile}: no such file`, EXIT.USAGE_OR_CONFIG);
  const base = file ? dirname(file) : req.home;
  let doc: Doc = file ? readDoc(file) : {};
  const modelChoice = req.model ?? "scripted";
  doc = applyModelChoice(doc, modelChoice);
  for (const s of req.sets) doc = applySet(doc, s);
  const broker = { ...((doc.broker as Doc | undefined) ?? {}) };
  if (req.sets.some((s) => s.trim().startsWith("broker.kind=")) && broker.kind !== "sim") {
    throw new TwError("invalid_set", "a simulation trades the simulated broker: broker.kind cannot be changed", EXIT.USAGE_OR_CONFIG);
  }
  broker.kind = "sim";
  broker.sim = { ...((broker.sim as Doc | undefined) ?? {}), start_date: req.from };
  doc.broker = broker;

  const label = `${file ? basename(file) : "defaults"}${req.sets.length > 0 ? " with --set" : ""}`;
  const v = validateConfigDocument(doc, label, file);
  if (!v.ok) throw refuse(v.errors);
  const dataDir = bundledDataDir();
  const u = loadUniverse(v.config.universe.files, base, dataDir, label);
  if (u.issues.length > 0) throw refuse(u.issues);
  // The saved config names universe files so they resolve from the simulation's folder too.
  const files = v.config.universe.files.map((f) => {
    if (isAbsolute(f)) return f;
    const at = resolveUniverseFile(f, base, dataDir);
    return at?.startsWith(resolve(dataDir)) ? f : (at ?? f);
  });
  doc.universe = { ...((doc.universe as Doc | undefined) ?? {}), files };
  const toml = toToml(withoutNulls(doc) as Doc);
  return { config: { ...v.config, universe: { files } }, universe: u.universe, toml, origin: { file, model: modelChoice, sets: [...req.sets] } };
}

export function saveEffectiveConfig(path: string, eff: EffectiveConfig): void {
  const head = [
    "# The effective configuration of this simulation (written by `tradewarden simulate`).",
    `# From: ${eff.origin.file ?? "the built-in defaults"}; --model ${eff.origin.model}${eff.origin.sets.map((s) => `; --set ${s}`).join("")}`,
    "",
  ].join("\n");
  writeFileSync(path, `${head}${eff.toml}\n`);
}
