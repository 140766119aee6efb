// Builds the CLI into dist/cli.js plus lazily loaded chunks (ESM; dependencies stay in node_modules).
// Runs on `npm ci` through the `prepare` script, so `npx tradewarden` works right after install.
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli.tsx"],
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
