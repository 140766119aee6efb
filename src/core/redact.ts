/**
 * One redactor for the whole process: it knows every secret the run read and replaces it, in every
 * form a server may echo it, in any text before that text reaches a file, the screen or an event.
 *
 * Forms: the exact value, any change of case, base64 (standard and URL-safe, with and without
 * padding), URL-encoded, and therefore also inside a `Bearer <key>` header or a basic-auth pair.
 * Secrets are registered where they are read (`readSecret`) and, for the well-known variables, at
 * start-up (`registerSecretEnv`). Values shorter than 6 characters are not secrets worth matching.
 */

/** The environment variables that hold secrets (their names may be printed; their values never). */
export const SECRET_ENV_NAMES = [
  "ANTHROPIC_API_KEY",
  "APCA_API_KEY_ID",
  "APCA_API_SECRET_KEY",
  "ALPACA_API_KEY_ID",
  "ALPACA_API_SECRET_KEY",
  "OPENAI_API_KEY",
  "TAVILY_API_KEY",
] as const;

const MIN_SECRET = 6;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function base64Forms(s: string): string[] {
  const b = Buffer.from(s, "utf8").toString("base64");
  const unpadded = b.replace(/=+$/, "");
  const url = unpadded.replace(/\+/g, "-").replace(/\//g, "_");
  return [b, unpadded, url];
}

export class Redactor {
  private readonly secrets = new Map<string, string>();
  private re: RegExp | null = null;

  /** Remembers a secret under its name (the name is what replaces it: `[redacted NAME]`). */
  register(name: string, value: string | undefined): void {
    const v = value?.trim();
    if (!v || v.length < MIN_SECRET || this.secrets.has(v)) return;
    this.secrets.set(v, name);
    this.re = null;
  }

  /** Whether any secret is known. */
  get size(): number {
    return this.secrets.size;
  }

  /** Every form of every secret, longest first (a longer form is replaced before a part of it). */
  forms(): { form: string; name: string }[] {
    const out: { form: string; name: string }[] = [];
    for (const [v, name] of this.secrets) {
      const forms = new Set([v, encodeURIComponent(v), ...base64Forms(v)]);
      for (const f of forms) if (f.length >= MIN_SECRET) out.push({ form: f, name });
    }
    return out.sort((a, b) => b.form.length - a.form.length);
  }

  private pattern(): RegExp | null {
    if (this.secrets.size === 0) return null;
    // Case-insensitive: an echoed key may be upper- or lower-cased (over-matching a base64 form's case is harmless).
    this.re ??= new RegExp(this.forms().map((f) => escapeRe(f.form)).join("|"), "gi");
    return this.re;
  }

  private nameOf(match: string): string {
    const lower = match.toLowerCase();
    for (const f of this.forms()) if (f.form.toLowerCase() === lower) return f.name;
    return "secret";
  }

  /** The text with every known secret replaced by `[redacted NAME]`. */
  text(s: string): string {
    const re = this.pattern();
    if (!re || s.length < MIN_SECRET) return s;
    re.lastIndex = 0;
    if (!re.test(s)) return s;
    re.lastIndex = 0;
    return s.replace(re, (m) => `[redacted ${this.nameOf(m)}]`);
  }

  /** A deep copy of a JSON-like value with every string redacted (the same value when nothing matched). */
  value<T>(v: T): T {
    if (this.secrets.size === 0) return v;
    return this.walk(v) as T;
  }

  private walk(v: unknown): unknown {
    if (typeof v === "string") return this.text(v);
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = this.walk(x);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const y = this.walk(x);
        if (y !== x) changed = true;
        out[k] = y;
      }
      return changed ? out : v;
    }
    return v;
  }

  /** Which secrets (by name) appear in a text, in any form. */
  find(s: string): string[] {
    const re = this.pattern();
    if (!re) return [];
    const names = new Set<string>();
    for (const m of s.matchAll(re)) names.add(this.nameOf(m[0]));
    return [...names];
  }
}

/** The process's redactor: every sink applies it. */
export const redactor = new Redactor();

/** Reads a secret from the environment and registers it with the redactor. */
export function readSecret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  redactor.register(name, v);
  return v;
}

/** Registers the values of every well-known secret variable present in `env`. */
export function registerSecretEnv(env: NodeJS.ProcessEnv, into: Redactor = redactor): void {
  for (const name of SECRET_ENV_NAMES) into.register(name, env[name]);
}

export const redact = (s: string): string => redactor.text(s);
export const redactValue = <T>(v: T): T => redactor.value(v);
