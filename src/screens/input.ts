/**
 * Keystrokes, one at a time. Ink hands a handler one string per terminal read: a run of plain
 * bytes that arrived together ("\x7f\x7f" from a held Backspace, "y\r", a paste ending in Enter)
 * is one `input`, and Ink's own key parse sees only its first byte. `decodeKeys` splits such a
 * chunk into the keys it holds, so every text field and every prompt handles each key in turn;
 * each key carries how many keys arrived with it (`burst`), so a prompt can say a confirmation was
 * cancelled because its keys arrived together.
 */
import { useStdin } from "ink";
import { useEffect, useRef } from "react";

export interface Keys {
  upArrow: boolean;
  downArrow: boolean;
  leftArrow: boolean;
  rightArrow: boolean;
  pageUp: boolean;
  pageDown: boolean;
  home: boolean;
  end: boolean;
  return: boolean;
  escape: boolean;
  tab: boolean;
  backspace: boolean;
  /** Forward delete (the Delete key), not Backspace. */
  delete: boolean;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
}

export interface KeyPress {
  /** The printable character, or the letter of a Ctrl/Meta chord; "" for named keys. */
  input: string;
  key: Keys;
  /** How many keys arrived in the same terminal read as this one (1 = alone). */
  burst: number;
  /** This key's position in its burst (0-based). */
  index: number;
  /** The whole terminal read this key came in (to say which keys arrived together). */
  chunk: string;
  /** A number shared by the keys of one read (increasing). */
  readId: number;
}

const NONE: Keys = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageUp: false,
  pageDown: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  tab: false,
  backspace: false,
  delete: false,
  ctrl: false,
  meta: false,
  shift: false,
};

const k = (p: Partial<Keys>, input = ""): { input: string; key: Keys } => ({ input, key: { ...NONE, ...p } });

/** CSI / SS3 final bytes and `~` codes of the named keys. */
const FINAL: Record<string, Partial<Keys>> = {
  A: { upArrow: true },
  B: { downArrow: true },
  C: { rightArrow: true },
  D: { leftArrow: true },
  H: { home: true },
  F: { end: true },
  Z: { tab: true, shift: true },
};
const TILDE: Record<string, Partial<Keys>> = {
  "1": { home: true },
  "7": { home: true },
  "4": { end: true },
  "8": { end: true },
  "3": { delete: true },
  "5": { pageUp: true },
  "6": { pageDown: true },
};

/** One escape sequence (as Ink's input parser delimits them) to a key. */
function decodeEscape(seq: string): { input: string; key: Keys } {
  if (seq === "\u001b") return k({ escape: true, meta: true });
  const csi = /^\u001b+(?:\[|O)\[?([0-9;]*)([A-Za-z~])$/.exec(seq);
  if (csi) {
    const params = (csi[1] ?? "").split(";");
    const final = csi[2] ?? "";
    const mod = Number(params[1] ?? "1") - 1; // xterm modifiers: 1 shift, 2 alt, 4 ctrl
    const mods: Partial<Keys> = mod > 0 ? { shift: (mod & 1) !== 0, meta: (mod & 2) !== 0, ctrl: (mod & 4) !== 0 } : {};
    const named = final === "~" ? TILDE[params[0] ?? ""] : FINAL[final];
    return named ? k({ ...named, ...mods }) : k({ meta: true });
  }
  // ESC + one character: Meta/Alt chord (ESC + DEL = Alt+Backspace).
  const rest = seq.slice(1);
  if (rest === "\u007f" || rest === "\b") return k({ backspace: true, meta: true });
  return k({ meta: true }, rest);
}

function decodeChar(ch: string): { input: string; key: Keys } {
  const c = ch.codePointAt(0) ?? 0;
  if (ch === "\r" || ch === "\n") return k({ return: true });
  if (ch === "\t") return k({ tab: true });
  if (ch === "\u007f" || ch === "\b") return k({ backspace: true });
  if (c === 0) return k({ ctrl: true }, " ");
  if (c < 0x20) return k({ ctrl: true }, String.fromCharCode(c + 0x60));
  return k({ shift: /[A-Z]/.test(ch) }, ch);
}

let reads = 0;

/** Split one terminal read (one Ink input event) into its keys, in order. */
export function decodeKeys(chunk: string): KeyPress[] {
  const readId = ++reads;
  const keys: Array<{ input: string; key: Keys }> = [];
  // Ink delivers escape sequences on their own, but a chunk may still mix them with text: walk it.
  const text = chunk.replace(/\r\n/g, "\r"); // a pasted Windows line ending is one Enter
  let i = 0;
  while (i < text.length) {
    if (text[i] === "\u001b") {
      const m = /^\u001b+(?:\[\[?[0-9;]*[A-Za-z~]|O[A-Za-z])/.exec(text.slice(i));
      const len = m ? m[0].length : Math.min(2, text.length - i);
      keys.push(decodeEscape(text.slice(i, i + len)));
      i += len;
      continue;
    }
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    keys.push(decodeChar(ch));
    i += ch.length;
  }
  return keys.map((x, index) => ({ ...x, burst: keys.length, index, chunk, readId }));
}

/** A key in words, as a person would name it ("y", Enter, Backspace, Ctrl+U). */
function keyName(p: { input: string; key: Keys }): string {
  const k = p.key;
  if (k.return) return "Enter";
  if (k.escape) return "Esc";
  if (k.tab) return "Tab";
  if (k.backspace) return "Backspace";
  if (k.delete) return "Delete";
  if (k.upArrow || k.downArrow || k.leftArrow || k.rightArrow) return k.upArrow ? "↑" : k.downArrow ? "↓" : k.leftArrow ? "←" : "→";
  if (k.pageUp || k.pageDown) return k.pageUp ? "PgUp" : "PgDn";
  if (k.home || k.end) return k.home ? "Home" : "End";
  if (k.ctrl) return `Ctrl+${p.input.toUpperCase()}`;
  if (p.input === " ") return "Space";
  return JSON.stringify(p.input);
}

/** The keys of a read in words: '"y" and Enter', '"a", "b" and Enter', "a paste of 12 keys". */
export function describeKeys(chunk: string): string {
  const keys = decodeKeys(chunk);
  if (keys.length > 6) return `${keys.length} keys at once (a paste or type-ahead)`;
  const names = keys.map(keyName);
  return names.length <= 1 ? (names[0] ?? "nothing") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * Like Ink's `useInput`, but the handler sees one key at a time (see `decodeKeys`). Handlers read
 * state through refs (useRefState) so a later key of a burst sees what an earlier one did.
 */
export function useKeys(handler: (input: string, key: Keys, press: KeyPress) => void, opts: { isActive?: boolean } = {}): void {
  const { setRawMode, internal_eventEmitter: emitter } = useStdin();
  const ref = useRef(handler);
  ref.current = handler;
  const active = opts.isActive !== false;
  useEffect(() => {
    if (!active) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [active, setRawMode]);
  useEffect(() => {
    if (!active || !emitter) return;
    const onInput = (data: string) => {
      for (const p of decodeKeys(data)) ref.current(p.input, p.key, p);
    };
    emitter.on("input", onInput);
    return () => {
      emitter.removeListener("input", onInput);
    };
  }, [active, emitter]);
}
