/** What `tradewarden doctor` reports: checks grouped by section, each passed or failed with a one-line fix. */
import type { Config, Universe } from "../../config/types.js";

export type DoctorSection = "home" | "config" | "account" | "broker" | "model" | "market" | "research" | "notify" | "schedule";

export interface DoctorCheck {
  /** Stable id, e.g. "home.lock", "market.ALFA". */
  id: string;
  section: DoctorSection;
  ok: boolean;
  /** One line for a person: what was found. */
  summary: string;
  /** One line: how to fix it (failed checks only). */
  fix?: string;
  /** Facts behind the summary (JSON output). Never a secret's value. */
  details?: Record<string, unknown>;
}

export interface DoctorReport {
  ok: boolean;
  home: string;
  checks: DoctorCheck[];
}

export interface DoctorContext {
  home: string;
  env: NodeJS.ProcessEnv;
  /** The loaded config, when it loaded. */
  config: Config | null;
  universe: Universe;
  ping: boolean;
  now: Date;
  /** Told what a journal open repaired (the command's stderr); default: the process's stderr. */
  notice?: (message: string) => void;
}

export const pass = (section: DoctorSection, id: string, summary: string, details?: Record<string, unknown>): DoctorCheck => ({
  id,
  section,
  ok: true,
  summary,
  ...(details ? { details } : {}),
});

export const fail = (section: DoctorSection, id: string, summary: string, fix: string, details?: Record<string, unknown>): DoctorCheck => ({
  id,
  section,
  ok: false,
  summary,
  fix,
  ...(details ? { details } : {}),
});

/** One section's checks. A new section (a research provider, say) is one more function in the list. */
export type DoctorSectionCheck = (ctx: DoctorContext) => Promise<DoctorCheck[]>;
