#!/usr/bin/env node
// tradewarden entry. Ink and chalk ignore NO_COLOR by themselves: translate it before any import.
if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") process.env.FORCE_COLOR = "0";
try {
  await import("../dist/cli.js");
} catch (err) {
  if (err && err.code === "ERR_MODULE_NOT_FOUND" && String(err.message).includes("dist/cli.js")) {
    process.stderr.write("tradewarden is not built: run `npm ci` (or `npm run build`) in the repository first.\n");
    process.exit(1);
  }
  throw err;
}
