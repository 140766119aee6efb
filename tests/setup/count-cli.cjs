// Preloaded into every node process the test run starts (NODE_OPTIONS, tests/global-setup.ts): a
// process running the CLI (bin/tradewarden.js) adds one line to $TW_TEST_SPAWN_FILE, so the run
// can say how many CLI processes it started (issue 26's figure; `npm run bench` quotes it).
const file = process.env.TW_TEST_SPAWN_FILE;
const script = process.argv[1] ?? "";
if (file && /bin[\\/]tradewarden\.js$/.test(script)) {
  try {
    require("node:fs").appendFileSync(file, `${process.argv.slice(2).join(" ").slice(0, 200)}\n`);
  } catch {
    // counting is best effort: never change what the CLI does
  }
}
