/**
 * A simulation's own files: `simulation.json` (what was asked, how far it got) and `days.jsonl`
 * (one record per simulated day), and the list of simulations in a home.
 */
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
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
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(meta, null, 2)}\n`);
  renameSync(tmp, path);
}

export function readMeta(path: string): SimulationMeta {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as SimulationMeta;
  } catch (e) {
    throw new TwError("simulation_unreadable", `${path} cannot be read: ${(e as Error).message}`, EXIT.INTERNAL_ERROR);
  }
}

/** The day records (a torn last line, from a process killed mid-write, is left out). */
export function readDays(path: string): DayRecord[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, "utf8").split("\n").filter((l) => l.length > 0);
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
    throw new TwError("no_simulation", `no simulation named "${name}" in ${simulationsDir(home)}${known.length ? ` (there are: ${known.join(", ")})` : " (there are none yet)"}`, EXIT.USAGE_OR_CONFIG);
  }
  return { paths, meta: readMeta(paths.meta), days: readDays(paths.days) };
}

export function listSimulationNames(home: string): string[] {
  const dir = simulationsDir(home);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(simulationPaths(home, d.name).meta))
    .map((d) => d.name)
    .sort();
}
