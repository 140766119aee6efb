// Builds the CLI into dist/cli.js (and the sandbox worker into dist/sandbox-worker.js) plus lazily loaded chunks (ESM).
// Runs on `npm ci` through the `prepare` script, so `npx tradewarden` works right after install.
// The pure dependencies (typebox, ajv, luxon, decimal.js, commander, ink, react...) are bundled in:
// loading ~460 separate ES modules was most of every command's start-up (issue #26). What must stay a
// package is external: quickjs-emscripten loads its WebAssembly files by path, react-devtools-core is an
// optional import of Ink's that is never installed, uplot is read as text (src/simulation/html.ts), and
// ajv's schema compiler is required only by a process that compiles a schema (src/config/ajv-compiler.ts).
import { cpSync } from "node:fs";
import { build } from "esbuild";

const EXTERNAL = ["quickjs-emscripten", "react-devtools-core", "uplot", "ajv/dist/2020.js"];

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
  external: EXTERNAL,
  // Bundled CommonJS packages call require() (node's own modules among them): give every ES module one.
  banner: { js: 'import { createRequire as __twCreateRequire } from "node:module";\nconst require = __twCreateRequire(import.meta.url);' },
  jsx: "automatic",
  sourcemap: "linked",
  // Whitespace only (names and syntax stay, so stack traces and `.name` read as in the source; the
  // linked source maps point back to it): less text for every process to read and parse at start-up.
  minifyWhitespace: true,
  logLevel: "warning",
  // React's production build: the development build holds far more memory in long runs.
  define: { "process.env.NODE_ENV": '"production"' },
});

// The validators' groups are required by path on first use (src/config/validators.generated.js), from
// beside the chunk that holds that module: they are not bundled, so a command reads only the groups it checks.
cpSync("src/config/validators", "dist/chunks/validators", { recursive: true });
