/**
 * SHA-256 of a text's UTF-8 bytes, in hex. Node's one-shot `crypto.hash` (20.12 on) skips building
 * a Hash object per call, about half the cost of a short text (the journal hashes every line it
 * chains); older Node 20 releases take the Hash object. Both digest the same bytes.
 */
import * as crypto from "node:crypto";

const oneShot = typeof crypto.hash === "function" ? crypto.hash : undefined;

export function sha256Hex(text: string): string {
  return oneShot ? oneShot("sha256", text, "hex") : crypto.createHash("sha256").update(text, "utf8").digest("hex");
}
