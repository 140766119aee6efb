#!/usr/bin/env node
import { fileURLToPath } from "node:url";
// tradewarden entry. Ink and chalk ignore NO_COLOR by themselves: translate it before the CLI loads.
if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") process.env.FORCE_COLOR = "0";
// A signal while the CLI is still loading (nothing has started yet) ends it with 130, not 143/129;
// the CLI takes over as soon as it runs, adding its own handlers BEFORE it removes these (a signal
// is never without a listener, so none that is pending can be lost: src/commands/interrupts.ts).
const early = (sig) => () => process.exit(130);
globalThis.__tradewardenEarlySignals = ["SIGINT", "SIGTERM", "SIGHUP"].map((sig) => {
  const h = early(sig);
  process.on(sig, h);
  return [sig, h];
});
let cli;
try {
  // dist/cli.cjs, through V8's code cache where one fits (bin/load-cli.js).
  const { loadBundle } = await import("./load-cli.js");
  cli = loadBundle(fileURLToPath(new URL("../dist/cli.cjs", import.meta.url))).exports;
} catch (err) {
  if (err && err.code === "ENOENT" && String(err.path).endsWith("cli.cjs")) {
    process.stderr.write("tradewarden is not built: run `npm ci` (or `npm run build`) in the repository first.\n");
    process.exit(1);
  }
  throw err;
}
// The command itself (src/cli.tsx's main, run as this process: its signals, its exit code).
await cli.runAsProcess();
