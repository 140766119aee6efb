/**
 * The CLI's code cache (bin/load-cli.js): the build's cache is the one this Node uses for the built
 * bundle; a bundle with no fitting cache still runs, and its process keeps one, readable by its user
 * alone, which the next process uses; a cache that does not fit, or a bundle without its identity (an
 * interrupted build), costs only the compile.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript beside the CLI's entry, with no declarations
import { buildCodeCacheFile, cacheFileName, compileBundle, USER_CACHES_KEPT, userCodeCacheDir } from "../../bin/load-cli.js";

type Compiled = { script: { runInThisContext(): (...args: unknown[]) => void }; cache: string | undefined; userFile: string | undefined };
const nameOf = cacheFileName as (id: string) => string;
const userDirOf = userCodeCacheDir as (env: Record<string, string | undefined>) => string | undefined;
const compile = compileBundle as (path: string, options?: { userDir?: string }) => Compiled;

const LOADER = resolve("bin/load-cli.js");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A small CommonJS bundle with its identity, and an empty user cache folder. */
function fixture(): { bundle: string; userDir: string } {
  const dir = mkdtempSync(join(tmpdir(), "tw-code-cache-"));
  dirs.push(dir);
  const bundle = join(dir, "cli.cjs");
  writeFileSync(bundle, 'exports.answer = () => 6 * 7;\nexports.where = () => __filename;\nexports.fs = typeof require("node:fs").readFileSync;\n');
  writeFileSync(`${bundle}.id`, "fixture0001\n");
  return { bundle, userDir: join(dir, "user-cache") };
}

/** One node process that loads `bundle` as bin/tradewarden.js loads the CLI; answers what it saw. */
function loadInProcess(bundle: string, userDir: string, then = ""): { cache: string | null; answer: number; where: string; fs: string } {
  const code = `import { loadBundle } from ${JSON.stringify(LOADER)};
const { exports, cache } = loadBundle(${JSON.stringify(bundle)}, { userDir: ${JSON.stringify(userDir)} });
process.stdout.write(JSON.stringify({ cache: cache ?? null, answer: exports.answer(), where: exports.where(), fs: exports.fs }));
${then}`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" }));
}

describe("the CLI's code cache", () => {
  it("the build's cache for this Node is the one the built CLI uses", () => {
    const userDir = mkdtempSync(join(tmpdir(), "tw-code-cache-user-"));
    dirs.push(userDir);
    const id = readFileSync("dist/cli.cjs.id", "utf8").trim();
    const { cache } = compile("dist/cli.cjs", { userDir });
    expect(cache).toBe(resolve(`dist/code-cache/${nameOf(id)}`));
    expect((buildCodeCacheFile as (b: string) => string | undefined)("dist/cli.cjs")).toBe(cache);
  });

  it("a bundle with no cache runs, keeps its user's cache (theirs alone) as it exits, and the next process uses it", () => {
    const { bundle, userDir } = fixture();
    const first = loadInProcess(bundle, userDir);
    expect(first).toEqual({ cache: null, answer: 42, where: bundle, fs: "function" });
    const kept = join(userDir, nameOf("fixture0001"));
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(statSync(userDir).mode & 0o777).toBe(0o700);
    const second = loadInProcess(bundle, userDir);
    expect(second).toEqual({ cache: kept, answer: 42, where: bundle, fs: "function" });
  });

  it("the user's folder keeps the most recently written caches: a new one removes the oldest past the limit", () => {
    const { bundle, userDir } = fixture();
    mkdirSync(userDir, { recursive: true, mode: 0o700 });
    const old = Array.from({ length: USER_CACHES_KEPT as number }, (_, i) => join(userDir, nameOf(`other${i}`)));
    old.forEach((f, i) => {
      writeFileSync(f, "x");
      utimesSync(f, 1_000_000 + i, 1_000_000 + i); // other0 the oldest
    });
    loadInProcess(bundle, userDir);
    const kept = readdirSync(userDir).sort();
    expect(kept).toHaveLength(USER_CACHES_KEPT as number);
    expect(kept).toContain(nameOf("fixture0001"));
    expect(kept).not.toContain(nameOf("other0"));
  });

  it("a process that changes V8's flags as it runs (a simulation bounds heap growth) keeps no cache: it would fit no fresh process", () => {
    const { bundle, userDir } = fixture();
    const changed = 'import("node:v8").then((v8) => v8.setFlagsFromString("--heap-growing-percent=25"));';
    expect(loadInProcess(bundle, userDir, changed).cache).toBeNull();
    expect(existsSync(userDir) ? readdirSync(userDir) : []).toEqual([]);
    // A process as it started keeps one, and the next uses it.
    loadInProcess(bundle, userDir);
    expect(loadInProcess(bundle, userDir).cache).toBe(join(userDir, nameOf("fixture0001")));
  });

  it("a user's cache that others may write is never read (compiled code runs as the user)", () => {
    const { bundle, userDir } = fixture();
    loadInProcess(bundle, userDir);
    const kept = join(userDir, nameOf("fixture0001"));
    expect(compile(bundle, { userDir }).cache).toBe(kept);
    chmodSync(kept, 0o666);
    expect(compile(bundle, { userDir }).cache).toBeUndefined();
    chmodSync(kept, 0o600);
    expect(compile(bundle, { userDir }).cache).toBe(kept);
  });

  it("a cache that does not fit is rejected: the bundle compiles and runs as without one", () => {
    const { bundle, userDir } = fixture();
    loadInProcess(bundle, userDir);
    const kept = join(userDir, nameOf("fixture0001"));
    writeFileSync(kept, Buffer.alloc(statSync(kept).size, 7));
    const compiled = compile(bundle, { userDir });
    expect(compiled.cache).toBeUndefined();
    const module = { exports: {} as { answer?: () => number } };
    compiled.script.runInThisContext()(module.exports, require, module, bundle, userDir);
    expect(module.exports.answer?.()).toBe(42);
  });

  it("a bundle without its identity (a build cut short) uses no cache and keeps none", () => {
    const { bundle, userDir } = fixture();
    loadInProcess(bundle, userDir);
    rmSync(`${bundle}.id`);
    const compiled = compile(bundle, { userDir });
    expect(compiled.cache).toBeUndefined();
    expect(compiled.userFile).toBeUndefined();
    const before = readdirSync(userDir);
    expect(loadInProcess(bundle, userDir)).toMatchObject({ cache: null, answer: 42 });
    expect(readdirSync(userDir)).toEqual(before);
  });

  it("the user's cache folder: XDG_CACHE_HOME when it is an absolute path, else ~/.cache", () => {
    expect(userDirOf({ XDG_CACHE_HOME: "/var/cache/me" })).toBe("/var/cache/me/tradewarden/code-cache");
    expect(userDirOf({ XDG_CACHE_HOME: "relative/cache" })).toBe(join(homedir(), ".cache", "tradewarden", "code-cache"));
    expect(userDirOf({})).toBe(join(homedir(), ".cache", "tradewarden", "code-cache"));
  });
});
