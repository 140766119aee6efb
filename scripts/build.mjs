// Builds the CLI into dist/cli.js (and the sandbox worker into dist/sandbox-worker.js) plus lazily loaded chunks (ESM; dependencies stay in node_modules).
// Runs on `npm ci` through the `prepare` script, so `npx tradewarden` works right after install.
import { build } from "esbuild";

await build({
  // The sandbox worker is its own entry: worker threads load it by path (src/research/sandbox.ts).
  entryPoints: { cli: "src/cli.tsx", "sandbox-worker": "src/research/sandbox-worker.ts" },
  outdir: "dist",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  jsx: "automatic",
  sourcemap: "linked",
  logLevel: "warning",
  // React's production build: the development build holds far more memory in long runs.
  define: { "process.env.NODE_ENV": '"production"' },
});
