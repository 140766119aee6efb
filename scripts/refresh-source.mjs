// Refreshes data/sources/sp500-2000.csv from the npm package vega-datasets (BSD-3-Clause).
// Usage: npm run data:refresh-source [-- --version 3.2.1]
// It packs the package into a temporary folder with `npm pack` (nothing is installed in the repo),
// copies the one file we use, and prints its SHA-256. Run `npm run data:build` afterwards.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const argIndex = process.argv.indexOf("--version");
const version = argIndex > 0 ? process.argv[argIndex + 1] : "3.2.1";
const dest = join(root, "data", "sources", "sp500-2000.csv");

const tmp = mkdtempSync(join(tmpdir(), "tw-vega-"));
try {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const out = execFileSync(npm, ["pack", `vega-datasets@${version}`, "--silent"], { cwd: tmp, encoding: "utf8" });
  const tarball = out.trim().split("\n").pop();
  if (!tarball) throw new Error("npm pack printed no file name");
  execFileSync("tar", ["xzf", tarball, "package/data/sp500-2000.csv", "package/package.json"], { cwd: tmp });
  const pkg = JSON.parse(readFileSync(join(tmp, "package", "package.json"), "utf8"));
  if (pkg.license !== "BSD-3-Clause") throw new Error(`unexpected licence ${pkg.license}; review data/sources/NOTICE`);
  copyFileSync(join(tmp, "package", "data", "sp500-2000.csv"), dest);
  const sha = createHash("sha256").update(readFileSync(dest)).digest("hex");
  process.stdout.write(`copied vega-datasets@${pkg.version} data/sp500-2000.csv → ${dest}\nsha256 ${sha}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
