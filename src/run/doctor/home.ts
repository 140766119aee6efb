/** Doctor: the home folder (writable, lock free, journal opens and verifies) and the config. */
import { accessSync, constants, existsSync, rmSync, writeFileSync } from "node:fs";
import { money } from "../../core/format.js";
import { dirname, join } from "node:path";
import { loadConfig } from "../../config/load.js";
import { openJournal } from "../../journal/journal.js";
import { isPidAlive, lockHolder } from "../../journal/lock.js";
import type { DoctorCheck, DoctorContext } from "./types.js";
import { fail, pass } from "./types.js";

function nearestExisting(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

function checkWritable(home: string): DoctorCheck {
  const fix = `make it writable (chmod u+w ${home}) or choose another home with --home DIR or TRADEWARDEN_HOME`;
  if (!existsSync(home)) {
    const parent = nearestExisting(home);
    try {
      accessSync(parent, constants.W_OK);
      return pass("home", "home.writable", `${home} does not exist yet; it is created on first use`);
    } catch {
      return fail("home", "home.writable", `${home} does not exist and ${parent} is not writable`, fix);
    }
  }
  const probe = join(home, `.doctor-${process.pid}.tmp`);
  try {
    writeFileSync(probe, "");
    rmSync(probe);
    return pass("home", "home.writable", `${home} is writable`);
  } catch (e) {
    return fail("home", "home.writable", `${home} is not writable: ${(e as Error).message}`, fix);
  }
}

async function checkLock(home: string): Promise<DoctorCheck> {
  const holder = await lockHolder(home);
  if (holder && isPidAlive(holder.pid)) {
    return fail(
      "home",
      "home.lock",
      `the home is locked by pid ${holder.pid} (${holder.command}) since ${holder.started_at}`,
      "wait for that tradewarden process to finish (a lock left by a process that is gone is taken over automatically)",
      {
        holder,
      },
    );
  }
  return pass(
    "home",
    "home.lock",
    holder ? `the lock left by pid ${holder.pid} is stale (that process is gone); the next command takes it over` : "the home is not locked",
  );
}

async function checkJournal(ctx: DoctorContext): Promise<DoctorCheck> {
  const timezone = ctx.config?.account.timezone ?? "America/New_York";
  try {
    const journal = await openJournal(ctx.home, { timezone, readOnly: true, ...(ctx.notice ? { notice: ctx.notice } : {}) });
    if (!journal.existsOnDisk())
      return pass(
        "home",
        "home.journal",
        `no journal yet: the first run opens it with ${ctx.config?.account.capital ?? 100000} ${ctx.config?.account.base_currency ?? "USD"}`,
      );
    const findings = journal.verify();
    if (findings.length > 0) {
      return fail(
        "home",
        "home.journal",
        `the journal opens but verify finds ${findings.length} problem(s): ${findings[0]?.message}`,
        "run `tradewarden journal verify` for every finding; restore journal.json and journal.log.jsonl from a backup if they were edited",
        {
          findings,
        },
      );
    }
    return pass(
      "home",
      "home.journal",
      `the journal opens and verifies (${journal.runs().length} run(s), cash ${money(journal.cash(), journal.baseCurrency())})`,
    );
  } catch (e) {
    return fail(
      "home",
      "home.journal",
      `the journal does not open: ${(e as Error).message}`,
      "restore journal.json and journal.log.jsonl from a backup, or move them away to start a fresh journal",
    );
  }
}

export async function homeChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  return [checkWritable(ctx.home), await checkLock(ctx.home), await checkJournal(ctx)];
}

/** The config check; also returns the config for the other sections. */
export function configCheck(home: string): { check: DoctorCheck; config: DoctorContext["config"]; universe: DoctorContext["universe"] } {
  const r = loadConfig(home);
  if (!r.ok) {
    const first = r.errors[0]?.message ?? "unknown problem";
    return {
      check: fail(
        "config",
        "config.valid",
        `the config does not load (${r.errors.length} problem(s)): ${first}`,
        "fix the keys named (`tradewarden config check` lists every problem); broker, model and market checks need a valid config",
        {
          errors: r.errors.map((e) => e.message),
        },
      ),
      config: null,
      universe: [],
    };
  }
  const { source, ...effective } = r.config;
  return {
    check: pass(
      "config",
      "config.valid",
      source ? `${source} is valid (${r.universe.length} instruments)` : `no tradewarden.toml: the built-in defaults apply (${r.universe.length} instruments)`,
      { source, effective },
    ),
    config: r.config,
    universe: r.universe,
  };
}
