/**
 * Where a simulation lives: `<home>/simulations/<name>/`, itself laid out like a home (its own
 * `tradewarden.toml` — the effective config —, journal, `sim-broker.json` and `runs/`), so every
 * command that takes `--home` (audit, replay, journal, killswitch) works on it as it is. Next to
 * those: `simulation.json` (what was asked and how far it got), `days.jsonl` (one line per
 * simulated day) and the report (`report.json`, `report.html`).
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function simulationsDir(home: string): string {
  return join(home, "simulations");
}

export function simulationPaths(home: string, name: string) {
  const dir = join(simulationsDir(home), name);
  return {
    dir,
    meta: join(dir, "simulation.json"),
    days: join(dir, "days.jsonl"),
    reportJson: join(dir, "report.json"),
    reportHtml: join(dir, "report.html"),
    config: join(dir, "tradewarden.toml"),
  };
}
export type SimulationPaths = ReturnType<typeof simulationPaths>;

/** A name is a folder name: letters, digits, `.`, `_`, `-`; at most 64 characters. */
export function checkSimulationName(name: string): string {
  if (!NAME.test(name) || name === "." || name === "..") {
    throw new TwError(
      "invalid_name",
      `simulation name "${name}" must be 1–64 letters, digits, ".", "_" or "-" (starting with a letter or digit)`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  return name;
}

/** A generated name: the period and a short random suffix, e.g. `2007-01-03_2009-12-31-3fa2`. */
export function generatedName(from: string, to: string): string {
  return `${from}_${to}-${randomBytes(2).toString("hex")}`;
}
