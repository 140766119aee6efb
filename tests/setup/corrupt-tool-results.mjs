// Preloaded (node --import) into one CLI child by tests/tools/child-result-check.test.ts: whatever
// tool-result checker the CLI installs is handed every result with one field its output schema
// lacks, so the test can prove that a violation inside a child fails the child. Nothing else uses it.
const KEY = Symbol.for("tradewarden.tests.tool-result-check");
let check;
Object.defineProperty(globalThis, KEY, {
  configurable: true,
  get: () => (typeof check === "function" ? (contract, envelope) => check(contract, { ...envelope, injected_by_test: 1 }) : undefined),
  set: (f) => {
    check = f;
  },
});
