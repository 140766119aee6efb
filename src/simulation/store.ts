/**
 * A simulation's own files: `simulation.json` (what was asked, how far it got) and `days.jsonl`
 * (one record per simulated day), and the list of simulations in a home.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Type } from "@sinclair/typebox";
import { generatedChecker } from "../config/ajv.js";
import * as generated from "../config/validators.generated.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { writeFileAtomicSync } from "../util/atomic-write.js";
import { lockHeldByLiveProcess } from "../journal/lock.js";
import type { DayRecord } from "./day-record.js";
import { simulationPaths, simulationsDir } from "./paths.js";

export type SimulationStatus = "running" | "completed" | "interrupted" | "failed";

export interface SimulationMeta {
  format: "tradewarden-simulation/1";
  name: string;
  from: string;
  to: string;
  days_total: number;
  days_done: number;
  status: SimulationStatus;
  created_at: string;
  finished_at: string | null;
  elapsed_ms: number;
  model: { provider: string; id: string };
  config: { file: string | null; model: string; sets: string[] };
  reset_after: number | null;
  /** The model saw masked entities (aliases, neutral names, shifted dates); absent in older simulations. */
  masked?: boolean;
  max_drawdown_pct: number;
  capital: number;
  base_currency: string;
  index_symbol: string;
  /** The index's reference price before the first day (the buy-and-hold entry). */
  start_index: number;
  failure: { day: string | null; run_id: string | null; outcome: string; exit_code: number; message: string } | null;
}

export function writeMeta(path: string, meta: SimulationMeta): void {
  writeFileAtomicSync(path, `${JSON.stringify(meta, null, 2)}\n`);
}

const Str = Type.String();
const Num = Type.Number({ minimum: -1e15, maximum: 1e15 });
const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });
/** What `simulate list/report/compare` read of simulation.json: checked whole before any figure is shown. */
export const SimulationMetaSchema = Type.Object({
  format: Type.Literal("tradewarden-simulation/1"),
  name: Type.String({ minLength: 1 }),
  from: Day,
  to: Day,
  days_total: Type.Integer({ minimum: 0 }),
  days_done: Type.Integer({ minimum: 0 }),
  status: Type.Union(["running", "completed", "interrupted", "failed"].map((k) => Type.Literal(k))),
  created_at: Str,
  finished_at: Type.Union([Str, Type.Null()]),
  elapsed_ms: Type.Number({ minimum: 0 }),
  model: Type.Object({ provider: Str, id: Str }),
  config: Type.Object({ file: Type.Union([Str, Type.Null()]), model: Str, sets: Type.Array(Str) }),
  reset_after: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  masked: Type.Optional(Type.Boolean()),
  max_drawdown_pct: Num,
  capital: Num,
  base_currency: Type.String({ pattern: "^[A-Z]{3}$" }),
  index_symbol: Str,
  start_index: Num,
  failure: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
});
/** Generated at build time (src/config/validators/simulation.generated.cjs): `simulate list` compiles no schema. */
const checkMeta = generatedChecker(SimulationMetaSchema, generated.simulationMeta, "simulation.json");

export function readMeta(path: string): SimulationMeta {
  let meta: unknown;
  try {
    meta = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new TwError("simulation_unreadable", `${path} cannot be read: ${(e as Error).message}`, EXIT.INTERNAL_ERROR);
  }
  const issues = checkMeta(meta);
  if (issues.length > 0) {
    const first = issues.slice(0, 3).map((i) => `${i.path || "(root)"}: ${i.rule}`);
    throw new TwError("simulation_unreadable", `${path} is not a valid simulation record: ${first.join("; ")}`, EXIT.BROKER_OR_DATA_UNAVAILABLE);
  }
  return meta as SimulationMeta;
}

/** The day records (a torn last line, from a process killed mid-write, is left out). */
function readDays(path: string): DayRecord[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
  const out: DayRecord[] = [];
  lines.forEach((l, i) => {
    try {
      out.push(JSON.parse(l) as DayRecord);
    } catch (e) {
      if (i < lines.length - 1) throw new TwError("simulation_unreadable", `${path} line ${i + 1} is not JSON: ${(e as Error).message}`, EXIT.INTERNAL_ERROR);
    }
  });
  return out;
}

/** A simulation by name, or a usage error naming the ones there are. */
export function openSimulation(home: string, name: string): { paths: ReturnType<typeof simulationPaths>; meta: SimulationMeta; days: DayRecord[] } {
  const paths = simulationPaths(home, name);
  if (!existsSync(paths.meta)) {
    const known = listSimulationNames(home);
    throw new TwError(
      "no_simulation",
      `no simulation named "${name}" in ${simulationsDir(home)}${known.length ? ` (there are: ${known.join(", ")})` : " (there are none yet)"}`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  return { paths, meta: withLiveStatus(paths.dir, readMeta(paths.meta)), days: readDays(paths.days) };
}

/**
 * A simulation recorded as running whose process is gone (SIGKILL, a crash, a power cut: it never
 * closed its record) is shown as interrupted: its lock has no live holder any more.
 */
function withLiveStatus(dir: string, meta: SimulationMeta): SimulationMeta {
  if (meta.status !== "running" || lockHeldByLiveProcess(dir)) return meta;
  return { ...meta, status: "interrupted" };
}

export function listSimulationNames(home: string): string[] {
  const dir = simulationsDir(home);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(simulationPaths(home, d.name).meta))
    .map((d) => d.name)
    .sort();
}
