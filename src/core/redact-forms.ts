/**
 * How the redactor finds a secret in any form a server (or a model) may echo it. Pure.
 *
 * A text is first decoded into a lower-cased view, each character of the view remembering where
 * in the text it came from: escapes are undone — `\uXXXX` (JSON, with any number of backslashes:
 * JSON in JSON), `\xXX`, `\c` (JSON's `\/`), `%XX` (URL encoding), `&#NN;` / `&#xHH;` (HTML), each
 * on its own, so a mixed escaping is undone too. The view is then searched for each secret's
 * needles (lower-case):
 * - the secret itself (so: any case, any escaping);
 * - hex of its UTF-8 bytes;
 * - base64 (standard and URL-safe) at each of the three alignments a secret can have inside a
 *   longer encoded text: alone, in a basic-auth pair (`user:KEY`), in a header line
 *   (`Authorization: Bearer KEY`). The digits that depend on the neighbouring bytes are left out;
 *   what is left depends on the secret alone.
 * Plain string search: no regular expression is built from a secret.
 */

export interface Needle {
  text: string;
  name: string;
}

/** The base64 digits of `bytes` that depend on them alone, when they start `offset` bytes into an encoded text. */
function b64Stable(bytes: Buffer, offset: number): string {
  const enc = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
  return enc.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

/** Every needle of one secret (each at least `min` characters). */
export function needlesOf(secret: string, name: string, min: number): Needle[] {
  const bytes = Buffer.from(secret, "utf8");
  const texts = new Set([lower(secret), bytes.toString("hex")]);
  for (const offset of [0, 1, 2]) {
    const std = b64Stable(bytes, offset);
    texts.add(std.toLowerCase());
    texts.add(std.replace(/\+/g, "-").replace(/\//g, "_").toLowerCase());
  }
  return [...texts].filter((t) => t.length >= min).map((text) => ({ text, name }));
}

/** Lower case, one code unit for one (a character whose lower case is longer is kept as it is). */
function lower(s: string): string {
  const l = s.toLowerCase();
  if (l.length === s.length) return l;
  let out = "";
  for (const c of s) {
    const lc = c.toLowerCase();
    out += lc.length === c.length ? lc : c;
  }
  return out;
}

/** A decoded, lower-cased view of a text; `start[i]`/`end[i]` bound the text its character `i` came from (null: one for one). */
export interface View {
  text: string;
  start: Int32Array | null;
  end: Int32Array | null;
}

const ESCAPES = /[\\%&]/;
const HEX = /^[0-9a-fA-F]+$/;

/** The character an escape at `i` stands for and the escape's length, or null. */
function escapeAt(s: string, i: number): { c: string; len: number } | null {
  const ch = s[i];
  if (ch === "%") {
    const h = s.slice(i + 1, i + 3);
    const code = h.length === 2 && HEX.test(h) ? Number.parseInt(h, 16) : -1;
    return code >= 0 && code < 0x80 ? { c: String.fromCharCode(code), len: 3 } : null;
  }
  if (ch === "&") {
    const m = /^&#(x[0-9a-fA-F]{1,6}|[0-9]{1,7});/.exec(s.slice(i, i + 11));
    if (!m) return null;
    const g = m[1] as string;
    const code = g[0] === "x" ? Number.parseInt(g.slice(1), 16) : Number.parseInt(g, 10);
    return code <= 0x10ffff ? { c: String.fromCodePoint(code), len: m[0].length } : null;
  }
  let j = i;
  while (s[j] === "\\") j++;
  const kind = s[j];
  if (kind === "u" && HEX.test(s.slice(j + 1, j + 5)) && j + 5 <= s.length)
    return { c: String.fromCharCode(Number.parseInt(s.slice(j + 1, j + 5), 16)), len: j + 5 - i };
  if (kind === "x" && HEX.test(s.slice(j + 1, j + 3)) && j + 3 <= s.length)
    return { c: String.fromCharCode(Number.parseInt(s.slice(j + 1, j + 3), 16)), len: j + 3 - i };
  if (kind !== undefined && !/[0-9A-Za-z\s]/.test(kind)) return { c: kind, len: j + 1 - i };
  return null;
}

/** The view of a text: fast when it holds no escape character; otherwise runs between escapes are copied whole. */
export function viewOf(s: string): View {
  if (!ESCAPES.test(s)) return { text: lower(s), start: null, end: null };
  const start = new Int32Array(s.length);
  const end = new Int32Array(s.length);
  const parts: string[] = [];
  const next = /[\\%&]/g;
  let n = 0;
  let i = 0;
  const put = (c: string, from: number, to: number) => {
    parts.push(c);
    start[n] = from;
    end[n] = to;
    n++;
  };
  while (i < s.length) {
    next.lastIndex = i;
    const m = next.exec(s);
    const stop = m ? m.index : s.length;
    if (stop > i) {
      parts.push(s.slice(i, stop));
      for (let k = i; k < stop; k++, n++) {
        start[n] = k;
        end[n] = k + 1;
      }
      i = stop;
    }
    if (!m) break;
    const e = escapeAt(s, i);
    if (!e) put(s[i] as string, i, i + 1);
    // One view character per code unit (a decoded astral character spans the whole escape).
    else for (let u = 0; u < e.c.length; u++) put(e.c[u] as string, i, i + e.len);
    i += e ? e.len : 1;
  }
  return { text: lower(parts.join("")), start: start.subarray(0, n), end: end.subarray(0, n) };
}

/** The text span of view characters [a, b). */
export function spanOf(v: View, a: number, b: number): [number, number] {
  return v.start && v.end ? [v.start[a] as number, v.end[b - 1] as number] : [a, b];
}

/** Where an escape that has begun but is not complete ends the text (`\`, `\u00`, `%2`, `&#x2`), or -1. */
export function partialEscapeAt(s: string): number {
  const m = /(?:\\+(?:u[0-9a-fA-F]{0,3}|x[0-9a-fA-F]?)?|%[0-9a-fA-F]?|&(?:#(?:x[0-9a-fA-F]{0,5}|[0-9]{0,6}))?)$/.exec(s.slice(-12));
  return m ? s.length - m[0].length : -1;
}
