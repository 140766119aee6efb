/**
 * One redactor for the whole process: it knows every secret the run read and replaces it, in every
 * form a server (or a model) may echo it, in any text before that text reaches a file, the screen,
 * an event or another party (a model request, a search query).
 *
 * Forms (./redact-forms.ts): the exact value in any case, each character possibly escaped (`\uXXXX`,
 * `%XX`, `\xXX`, `\/`, HTML entities), hex, and base64 (standard and URL-safe) alone or inside a
 * longer encoded text — a basic-auth pair `user:KEY`, a header line `Authorization: Bearer KEY`.
 * Object keys are redacted as well as values. A text that arrives in pieces (streamed model text)
 * goes through `StreamRedactor` (./redact-stream.ts), which holds back a tail that could begin a
 * secret. Secrets are registered where they are read (`redactor.register`) and, for the well-known
 * variables, at start-up (`registerSecretEnv`). Values shorter than 6 characters are not secrets
 * worth matching.
 */
import { type Needle, needlesOf, partialEscapeAt, spanOf, viewOf } from "./redact-forms.js";

/** The environment variables that hold secrets (their names may be printed; their values never). */
const SECRET_ENV_NAMES = [
  "ANTHROPIC_API_KEY",
  "APCA_API_KEY_ID",
  "APCA_API_SECRET_KEY",
  "ALPACA_API_KEY_ID",
  "ALPACA_API_SECRET_KEY",
  "OPENAI_API_KEY",
  "TAVILY_API_KEY",
] as const;

const MIN_SECRET = 6;
/** The most text one escaped character can take (`\\\\u002b`, `&#x0002b;`). */
const MAX_ESCAPE = 12;

interface Found {
  from: number;
  to: number;
  name: string;
}

/** Where an escape that has begun at the end of `s` starts, or the end. */
function partialOrEnd(s: string): number {
  const p = partialEscapeAt(s);
  return p >= 0 ? p : s.length;
}

export class Redactor {
  private readonly secrets = new Map<string, string>();
  private needles: Needle[] | null = null;
  private firsts = new Set<string>();
  private longest = 0;

  /** Remembers a secret under its name (the name is what replaces it: `[redacted NAME]`). */
  register(name: string, value: string | undefined): void {
    const v = value?.trim();
    if (!v || v.length < MIN_SECRET || this.secrets.has(v)) return;
    this.secrets.set(v, name);
    this.needles = null;
  }

  /**
   * Forgets every secret: what a fresh process starts with. For the test suite, whose files share a
   * process (tests/setup/fresh-redactor.ts); the product never forgets a secret it has read.
   */
  forget(): void {
    this.secrets.clear();
    this.needles = null;
  }

  /** Whether any secret is known. */
  get size(): number {
    return this.secrets.size;
  }

  private all(): Needle[] {
    if (this.needles) return this.needles;
    // Longest first: a secret that contains another is named by the longer one.
    this.needles = [...this.secrets].flatMap(([v, name]) => needlesOf(v, name, MIN_SECRET)).sort((a, b) => b.text.length - a.text.length);
    this.firsts = new Set(this.needles.map((n) => n.text[0] as string));
    this.longest = Math.max(0, ...this.needles.map((n) => n.text.length));
    return this.needles;
  }

  /** Every place a secret is in a text (text offsets, overlapping ones merged), in order. */
  private locate(s: string): Found[] {
    const needles = this.all();
    if (needles.length === 0 || s.length < MIN_SECRET) return [];
    const view = viewOf(s);
    const found: Found[] = [];
    for (const n of needles) {
      for (let i = view.text.indexOf(n.text); i >= 0; i = view.text.indexOf(n.text, i + 1)) {
        const [from, to] = spanOf(view, i, i + n.text.length);
        found.push({ from, to, name: n.name });
      }
    }
    if (found.length < 2) return found;
    found.sort((a, b) => a.from - b.from || b.to - a.to);
    const merged: Found[] = [];
    for (const f of found) {
      const last = merged.at(-1);
      if (last && f.from < last.to) last.to = Math.max(last.to, f.to);
      else merged.push({ ...f });
    }
    return merged;
  }

  /** The text with every known secret replaced by `[redacted NAME]`. */
  text(s: string): string {
    const found = this.locate(s);
    if (found.length === 0) return s;
    let out = "";
    let at = 0;
    for (const f of found) {
      out += `${s.slice(at, f.from)}[redacted ${f.name}]`;
      at = f.to;
    }
    return out + s.slice(at);
  }

  /**
   * Where the tail of `s` that could be the beginning of a secret (in any form) starts: `s.length`
   * when no tail could. `s` is already redacted (no whole secret is in it).
   */
  heldFrom(s: string): number {
    return this.beginning(s)?.from ?? partialOrEnd(s);
  }

  /** The longest tail of `s` that is a proper beginning of a secret's form: where it starts, how long it is (decoded), whose it is. */
  private beginning(s: string): { from: number; length: number; name: string } | null {
    const needles = this.all();
    if (needles.length === 0 || s.length === 0) return null;
    const end = partialOrEnd(s);
    const from = Math.max(0, end - this.longest * MAX_ESCAPE);
    const view = viewOf(s.slice(from, end));
    const t = view.text;
    for (let j = Math.max(0, t.length - this.longest + 1); j < t.length; j++) {
      if (!this.firsts.has(t[j] as string)) continue;
      const tail = t.slice(j);
      const n = needles.find((x) => x.text.length > tail.length && x.text.startsWith(tail));
      if (n) return { from: from + spanOf(view, j, j + 1)[0], length: tail.length, name: n.name };
    }
    return null;
  }

  /**
   * The end of a text that stopped early (a stream cut off): a tail that is the first
   * `MIN_SECRET` or more characters of a secret's form is replaced too (a key is not shown in part).
   */
  ending(s: string): string {
    const text = this.text(s);
    const b = this.beginning(text);
    return b && b.length >= MIN_SECRET ? `${text.slice(0, b.from)}[redacted ${b.name}]` : text;
  }

  /** A deep copy of a JSON-like value with every string — object keys too — redacted (the same value when nothing matched). */
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
        const key = this.text(k);
        const y = this.walk(x);
        if (y !== x || key !== k) changed = true;
        out[key] = y;
      }
      return changed ? out : v;
    }
    return v;
  }

  /** Which secrets (by name) appear in a text, in any form. */
  find(s: string): string[] {
    return [...new Set(this.locate(s).map((f) => f.name))];
  }
}

/** The process's redactor: every sink applies it. */
export const redactor = new Redactor();

/** Registers the values of every well-known secret variable present in `env`. */
export function registerSecretEnv(env: NodeJS.ProcessEnv, into: Redactor = redactor): void {
  for (const name of SECRET_ENV_NAMES) into.register(name, env[name]);
}

export const redact = (s: string): string => redactor.text(s);
export const redactValue = <T>(v: T): T => redactor.value(v);
