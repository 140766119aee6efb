/**
 * Audit: no secret in any file of a run (every artifact, every other file of the run folder at any
 * depth, the home's journal), in any form — the values of this environment's secrets in every
 * form the redactor knows (exact, any case, escaped, hex, base64 alone or in a basic-auth pair or a
 * header line), and strings that look like a key or a key header. Streamed model text is also read
 * assembled, turn by turn, so a key split across `model.text` events is found. A redaction mark
 * (`[redacted NAME]`, `[redacted]`) is never taken for a secret. Pure over file contents (plus the
 * listing of the run folder).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Redactor, registerSecretEnv } from "../core/redact.js";

type Add = (check: string, message: string) => void;

export interface ScannedFile {
  name: string;
  text: string;
}

/** What is not a secret where a pattern expects one: a redaction mark. */
const MARK = String.raw`(?!\[redacted)`;
/** A quote, possibly escaped (a header inside a JSON string inside JSON). */
const Q = String.raw`\\*"`;

const SECRET_PATTERNS: { name: string; re: RegExp }[] = [
  { name: "Anthropic API key", re: /sk-ant-[A-Za-z0-9_-]{8,}/ },
  { name: "OpenAI API key", re: /sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{16,}/ },
  { name: "API key header", re: new RegExp(`${Q}x-api-key${Q}\\s*:\\s*${Q}${MARK}[^"\\\\]+`, "i") },
  { name: "Alpaca key header", re: new RegExp(`${Q}APCA-API-(?:KEY-ID|SECRET-KEY)${Q}\\s*:\\s*${Q}${MARK}[^"\\\\]+`, "i") },
];

/** The files of the run folder below its top level (the top level is read by the audit itself). */
export function nestedRunFiles(runDir: string): ScannedFile[] {
  const out: ScannedFile[] = [];
  const walk = (dir: string, rel: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, d.name);
      const name = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(path, name);
      else if (d.isFile() && rel) out.push({ name, text: readFileSync(path, "utf8") });
    }
  };
  walk(runDir, "");
  return out;
}

/** The model's streamed text of each turn, assembled from the `model.text` events of events.jsonl. */
function assembledText(events: string): ScannedFile[] {
  const turns = new Map<number, string>();
  for (const line of events.split("\n")) {
    if (!line.includes('"model.text"')) continue;
    try {
      const e = JSON.parse(line) as { type?: unknown; turn?: unknown; delta?: unknown };
      if (e.type === "model.text" && typeof e.delta === "string") turns.set(Number(e.turn), (turns.get(Number(e.turn)) ?? "") + e.delta);
    } catch {
      // a line that is not JSON is reported by the events check
    }
  }
  return [...turns].map(([turn, text]) => ({ name: `events.jsonl (the model's text of turn ${turn}, assembled)`, text }));
}

/** Every file given (and the model's assembled text in `events`) is scanned for key patterns and for this environment's secrets. */
export function checkSecrets(files: readonly ScannedFile[], events: string | undefined, env: NodeJS.ProcessEnv, add: Add): void {
  const r = new Redactor();
  registerSecretEnv(env, r);
  const all = [...files, ...(events === undefined ? [] : assembledText(events))];
  for (const f of all) {
    for (const p of SECRET_PATTERNS) if (p.re.test(f.text)) add("secrets", `${f.name} contains what looks like a ${p.name}`);
    for (const name of r.find(f.text)) add("secrets", `${f.name} contains the value of ${name} (in some form)`);
  }
}
