// Builds the CLI into dist/cli.cjs (one CommonJS file, loaded through V8's code cache by
// bin/load-cli.js) and the sandbox worker into dist/sandbox-worker.js (an ES module), then makes the
// CLI's code cache for the Node that builds it (dist/code-cache/).
// Runs on `npm ci` through the `prepare` script, so `npx tradewarden` works right after install.
// The pure dependencies (typebox, ajv, luxon, decimal.js, commander, ink, react...) are bundled in:
// loading ~460 separate ES modules was most of every command's start-up (issue #26), and Node 20 keeps
// no compile cache for ES modules, so the CLI is CommonJS (scripts/commonjs-plugin.mjs makes Ink and
// yoga-layout's top-level awaits synchronous, and bundles the generated validators' groups, each
// initialised on its first use, so their compiled code is cached too). What must stay a package is external: quickjs-emscripten
// loads its WebAssembly files by path, react-devtools-core is an optional import of Ink's that is never
// installed, uplot is read as text (src/simulation/html.ts), ajv's schema compiler is required only by
// a process that compiles a schema (src/config/ajv-compiler.ts), and @tavily/core is required from
// node_modules only when research uses Tavily (src/research/tavily.ts): it brings js-tiktoken's 5.5 MB
// of token tables, which every command would otherwise read.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { commonjsPlugin } from "./commonjs-plugin.mjs";

const EXTERNAL = ["quickjs-emscripten", "react-devtools-core", "uplot", "ajv/dist/2020.js", "@tavily/core"];

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  jsx: "automatic",
  sourcemap: "linked",
  // Whitespace only (names and syntax stay, so stack traces and `.name` read as in the source; the
  // linked source maps point back to it): less text for every process to read and parse at start-up.
  minifyWhitespace: true,
  logLevel: "warning",
};

// A build replaces the whole of dist/ (an earlier layout's files, a cache of an earlier bundle).
rmSync("dist", { recursive: true, force: true });

await build({
  ...common,
  entryPoints: { cli: "src/cli.tsx" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  // import() of a package left external (@tavily/core) becomes a require: the bundle runs as a
  // vm.Script (bin/load-cli.js), which has no loader for a real dynamic import.
  supported: { "dynamic-import": false },
  plugins: [commonjsPlugin],
  define: {
    // React's production build: the development build holds far more memory in long runs.
    "process.env.NODE_ENV": '"production"',
    // The sources locate files from their module's URL: in the bundle, that is the bundle's.
    "import.meta.url": "__twModuleUrl",
  },
  banner: { js: 'var __twModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
});

await build({
  ...common,
  // The sandbox worker is its own entry: worker threads load it by path (src/research/sandbox.ts).
  entryPoints: { "sandbox-worker": "src/research/sandbox-worker.ts" },
  outdir: "dist",
  format: "esm",
  define: { "process.env.NODE_ENV": '"production"' },
  // Bundled CommonJS packages call require() (node's own modules among them): give the module one.
  banner: { js: 'import { createRequire as __twCreateRequire } from "node:module";\nconst require = __twCreateRequire(import.meta.url);' },
});

// bin/load-cli.js reads the bundle as Latin-1, several times faster than UTF-8 for megabytes: that is
// the same text only while it is ASCII. esbuild escapes non-ASCII characters except in regular expression
// literals: write those with \u escapes.
const nonAscii = /[^\x00-\x7f]/.exec(readFileSync("dist/cli.cjs", "latin1"));
if (nonAscii) throw new Error(`dist/cli.cjs is not ASCII (at ${nonAscii.index}): escape the character in its source`);

// The bundle's identity, which names its code caches (bin/load-cli.js): written after the bundle, so
// an interrupted build leaves no identity and no cache is used with it.
writeFileSync("dist/cli.cjs.id", `${createHash("sha256").update(readFileSync("dist/cli.cjs")).digest("hex").slice(0, 24)}\n`);

// The code cache: V8's compiled code after a daily run on the embedded defaults (a fresh temporary
// home, the scripted model, the simulated broker; offline), in a user's environment. A Node that does
// not fit it compiles instead, and keeps its own cache in the user's folder.
// A build whose run fails still builds (the CLI works without a cache) but says so: the run's own
// error is above, and tests/build/code-cache.test.ts fails without the cache.
const home = mkdtempSync(join(tmpdir(), "tw-build-cache-"));
try {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TRADEWARDEN_|TW_|NODE_OPTIONS$)|_API_KEY$/.test(k)));
  execFileSync(process.execPath, ["scripts/write-code-cache.mjs", "--home", home, "run", "--yes"], { env, stdio: ["ignore", "ignore", "inherit"] });
} catch (e) {
  rmSync("dist/code-cache", { recursive: true, force: true });
  process.stderr.write(`build: no code cache was made (${e.message.split("\n")[0]}): the CLI compiles at every start.\n`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
