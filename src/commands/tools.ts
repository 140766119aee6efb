/** `tradewarden tools [--format json|anthropic|openai|markdown] [--tool NAME]`: the catalogue. */
import { CATALOGUE, contractOf } from "../tools/catalogue.js";
import { renderAnthropic, renderCatalogue, renderCatalogueEntry, renderMarkdown, renderOpenAI } from "../tools/render.js";
import { EXIT } from "../core/exit-codes.js";
import type { CommandIO } from "./io.js";

import { TOOL_FORMATS, type ToolFormat } from "../tools/formats.js";

export { TOOL_FORMATS, type ToolFormat };

export function cmdTools(opts: { format?: string; tool?: string }, io: CommandIO): number {
  const format = (opts.format ?? "json") as ToolFormat;
  if (!TOOL_FORMATS.includes(format)) {
    io.stderr(`tradewarden tools: unknown format "${opts.format}" (use ${TOOL_FORMATS.join(", ")})\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  let tools = [...CATALOGUE];
  if (opts.tool !== undefined) {
    const one = contractOf(opts.tool);
    if (!one) {
      io.stderr(`tradewarden tools: no tool named "${opts.tool}" (tools: ${CATALOGUE.map((t) => t.name).join(", ")})\n`);
      return EXIT.USAGE_OR_CONFIG;
    }
    tools = tools.filter((t) => t.name === one.name);
  }
  switch (format) {
    case "markdown":
      if (opts.tool !== undefined) {
        io.stderr("tradewarden tools: --format markdown prints the whole docs page; drop --tool\n");
        return EXIT.USAGE_OR_CONFIG;
      }
      io.stdout(renderMarkdown());
      break;
    case "anthropic":
      io.stdout(
        `${JSON.stringify(
          tools.map((t) => renderAnthropic(t)),
          null,
          2,
        )}\n`,
      );
      break;
    case "openai":
      io.stdout(
        `${JSON.stringify(
          tools.map((t) => renderOpenAI(t)),
          null,
          2,
        )}\n`,
      );
      break;
    default:
      io.stdout(`${JSON.stringify(opts.tool !== undefined ? tools.map((t) => renderCatalogueEntry(t)) : renderCatalogue(), null, 2)}\n`);
  }
  return EXIT.OK;
}
