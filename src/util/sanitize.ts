/**
 * Model and tool text is untrusted: strip terminal escape sequences and control characters
 * (keeping newlines and tabs) before anything draws it.
 */
// CSI, OSC (terminated by BEL or ST), and single-character escapes.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function sanitizeText(s: string): string {
  return s.replace(ANSI, "").replace(CONTROL, "");
}

/** One line, for tables and headers: newlines and tabs become spaces. */
export function sanitizeLine(s: string): string {
  return sanitizeText(s).replace(/[\n\t]+/g, " ");
}
