/**
 * Loads the CLI bundle (dist/cli.cjs, one CommonJS file) as Node would require it, but through V8's
 * code cache: a process that finds a cache made for this very bundle, by this V8 with these flags on
 * this CPU, skips parsing and compiling the functions the cache holds (most of start-up's
 * compiling, issue #26). Node 20 has no compile cache for ES modules; that is why the bundle is CommonJS.
 *
 * Where a cache is read from, first found first:
 * - the user's cache folder (`$XDG_CACHE_HOME/tradewarden/code-cache`, else `~/.cache/...`), written
 *   by an earlier process of this user whose Node did not fit the build's cache;
 * - `dist/code-cache/`, written by the build (scripts/build.mjs runs a `run --yes` to make it).
 * A cache is named for the bundle's content (dist/cli.cjs.id, its hash written by the build) and V8's
 * version tag (its version, flags and the CPU's features), so a rebuilt bundle never meets a cache of
 * another and each set of flags finds its own; V8 checks them again and rejects a cache that does not
 * fit, which then costs only the compile.
 * A process that used no cache writes one into the user's folder as it exits (whole or not at all),
 * and the folder keeps the most recent few.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { cachedDataVersionTag } from "node:v8";
import { Script } from "node:vm";

const HEAD = "(function (exports, require, module, __filename, __dirname) {";
const TAIL = "\n})";

/**
 * The user's folder of code caches (never the package's: that one only the build writes); undefined
 * when neither XDG_CACHE_HOME nor the home folder is an absolute path (no cache is kept then).
 * `env` is the process's environment (a parameter for tests).
 */
export function userCodeCacheDir(env = process.env) {
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, "tradewarden", "code-cache");
  let home;
  try {
    home = homedir();
  } catch {
    return undefined; // a user with no home folder and no HOME (a bare uid in a container): no cache kept
  }
  return isAbsolute(home) ? join(home, ".cache", "tradewarden", "code-cache") : undefined;
}

/**
 * The cache file's name for a bundle identity in this process: V8's version tag (its version, its
 * flags and the CPU's features: what a cache must match) names it, so processes started with other
 * flags keep caches of their own beside each other instead of overwriting one.
 */
export function cacheFileName(id) {
  return `${id}-${process.version}-${cachedDataVersionTag().toString(16)}.bin`;
}

/** Where the build keeps `bundle`'s code cache for this Node (beside the bundle); undefined without an identity. */
export function buildCodeCacheFile(bundle) {
  const id = readOrUndefined(`${bundle}.id`)?.toString("utf8").trim();
  return id ? join(dirname(resolve(bundle)), "code-cache", cacheFileName(id)) : undefined;
}

function readOrUndefined(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined; // no cache there (or unreadable): the bundle compiles without one
  }
}

/**
 * A cache from the user's folder, only when it is this user's own and nobody else may write it
 * (compiled code runs as the user: one planted by another user is never read).
 */
function readOwnCache(file) {
  let fd;
  try {
    fd = openSync(file, "r");
    const st = fstatSync(fd);
    const own = typeof process.getuid !== "function" || st.uid === process.getuid();
    return own && (st.mode & 0o022) === 0 ? readFileSync(fd) : undefined;
  } catch {
    return undefined; // no cache there (or unreadable): the bundle compiles without one
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `script`'s code cache to `file` through a temporary file and a rename: a reader finds the old
 * file or the new one. A user's cache (`owner`) is theirs alone: compiled code is code, nobody else
 * may plant one there.
 */
export function writeCodeCache(script, file, owner) {
  mkdirSync(dirname(file), { recursive: true, mode: owner ? 0o700 : 0o755 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, script.createCachedData(), { mode: owner ? 0o600 : 0o644 });
  renameSync(temp, file);
  if (owner) pruneUserCaches(dirname(file));
}

/** The user's caches kept: the most recently written (each rebuild of a bundle whose Node does not fit the build's cache adds one). */
export const USER_CACHES_KEPT = 8;

/** Removes the user's caches past the `USER_CACHES_KEPT` most recently written (another install's may be among those kept). */
function pruneUserCaches(dir) {
  const caches = readdirSync(dir)
    .filter((name) => name.endsWith(".bin"))
    .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of caches.slice(USER_CACHES_KEPT)) rmSync(old.path, { force: true });
}

/**
 * Compiles `path` (a CommonJS file) with the first code cache found for it: answers the script, the
 * cache file V8 accepted (`cache`, undefined when it compiled without one) and the user's cache file
 * for this bundle and Node (`userFile`, undefined for a bundle without an identity).
 * `options.userDir` overrides the user's cache folder (tests).
 */
export function compileBundle(path, options = {}) {
  const bundle = resolve(path);
  // The build keeps the bundle ASCII (scripts/build.mjs), so Latin-1 reads the same text, and faster.
  const source = readFileSync(bundle, "latin1");
  const buildFile = buildCodeCacheFile(bundle);
  const userDir = options.userDir ?? userCodeCacheDir();
  const userFile = buildFile && userDir ? join(userDir, basename(buildFile)) : undefined;
  const candidates = [userFile, buildFile].filter((f) => f !== undefined);
  let cachedFrom;
  let cachedData;
  for (const file of candidates) {
    cachedData = file === userFile ? readOwnCache(file) : readOrUndefined(file);
    if (cachedData) {
      cachedFrom = file;
      break;
    }
  }
  const script = new Script(HEAD + source + TAIL, { filename: bundle, cachedData });
  const cache = cachedData && !script.cachedDataRejected ? cachedFrom : undefined;
  return { script, bundle, cache, userFile };
}

/**
 * Compiles and runs `path` (compileBundle), answering its exports and the cache V8 accepted. A process
 * that used no cache writes one to the user's folder as it exits; `options.writeTo` names where to
 * write it whatever was read (the build's producer, whose failure the build reports).
 */
export function loadBundle(path, options = {}) {
  const { script, bundle, cache, userFile } = compileBundle(path, options);
  const writeTo = options.writeTo ?? (cache === undefined ? userFile : undefined);
  const tag = cachedDataVersionTag();
  if (writeTo)
    process.once("exit", () => {
      // A process that changed V8's flags as it ran (a simulation bounds heap growth) would write a
      // cache no process started as it was can use, under that process's name: keep none.
      if (cachedDataVersionTag() !== tag) {
        if (options.writeTo) throw new Error("V8's flags changed during the run: its code cache would fit no fresh process");
        return;
      }
      try {
        writeCodeCache(script, writeTo, !options.writeTo);
      } catch (e) {
        // A user's process that cannot keep a cache (read-only home, full disk) runs as it did and
        // compiles next time too: the cache saves time, a command's outcome never depends on it.
        if (options.writeTo) throw e;
      }
    });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { exports: module.exports, cache };
}
