/**
 * Where things live. The home folder holds a user's state (config, journal, simulated broker,
 * run artifacts); bundled read-only data is read from the package's own `data/`.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

let cachedRoot: string | undefined;

/** The package root (the folder with tradewarden's package.json), from src/ or dist/ alike. */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "tradewarden") {
          cachedRoot = dir;
          return dir;
        }
      } catch {
        // not ours; keep walking up
      }
    }
    dir = dirname(dir);
  }
  throw new Error("tradewarden's package root was not found above " + fileURLToPath(import.meta.url));
}

/** The bundled, read-only data folder. */
export function bundledDataDir(): string {
  return join(packageRoot(), "data");
}

let version: string | undefined;

/** The installed package's version (read once per process: every run's records carry it). */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
  return version;
}

/** The default home: `$TRADEWARDEN_HOME`, else `~/.tradewarden`. `--home` overrides both. */
export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (flag && flag.length > 0) return resolve(flag);
  const fromEnv = env.TRADEWARDEN_HOME;
  if (fromEnv && fromEnv.length > 0) return resolve(fromEnv);
  return join(homedir(), ".tradewarden");
}

/** The files and folders inside a home. */
export function homePaths(home: string) {
  return {
    home,
    config: join(home, "tradewarden.toml"),
    journal: join(home, "journal.json"),
    lock: join(home, "tradewarden.lock"),
    sim: join(home, "sim-broker.json"),
    runs: join(home, "runs"),
    runDir: (runId: string) => join(home, "runs", runId),
    imported: join(home, "market"),
  };
}
