/**
 * The layers of src/, top to bottom: the one list that tests/layering.test.ts enforces and
 * docs/architecture.md states (tests/docs/architecture.test.ts checks that the page says exactly
 * this). A module may import its own layer and any layer below it, never one above.
 * Folders on one row are peers: they may import each other.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["cli.tsx"],
  ["commands"],
  ["screens"],
  ["printers"],
  ["simulation"],
  ["records"],
  ["mcp"],
  ["run"],
  ["tools"],
  ["agent", "broker", "executor", "gate", "journal", "market", "notify", "research", "schedule"],
  ["config"],
  ["util"],
  ["core"],
];

/** The domain layers: below the tools layer, which adapts them to the model. */
export const DOMAIN_LAYERS: readonly string[] = ["agent", "broker", "executor", "gate", "journal", "market", "notify", "research", "schedule"];

/**
 * Today's upward imports, each `importer -> imported` (src-relative). This list may only shrink: the
 * layering test fails when an import appears that is not on it, and when one on it has gone (so the
 * list is updated in the same change that removes it). The tool handlers now live under the tools
 * layer (src/tools/handlers): no domain module imports src/tools.
 */
export const KNOWN_UPWARD_IMPORTS: readonly string[] = [];
