// Rewrites docs/tools.md from the tool contracts (`npm run docs:tools`).
import { mkdirSync, writeFileSync } from "node:fs";
import { renderMarkdown } from "../src/tools/render.js";

mkdirSync("docs", { recursive: true });
writeFileSync("docs/tools.md", renderMarkdown());
process.stdout.write("wrote docs/tools.md\n");
