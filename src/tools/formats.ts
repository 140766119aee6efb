/** The output formats of `tradewarden tools` (kept apart so the CLI can list them without loading the catalogue). */
export const TOOL_FORMATS = ["json", "anthropic", "openai", "mcp", "markdown"] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];
