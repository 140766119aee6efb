/**
 * The delivery log, `<home>/notify/deliveries.jsonl`: one line per message per channel (when, which
 * channel, which event, delivered or why not), appended with an fsync, kept small (past
 * `MAX_BYTES` only the newest `KEEP_LINES` lines are kept, rewritten through the atomic writer).
 * `doctor` reads each channel's last delivery from it. No secret is in it: the reasons are redacted.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { redact } from "../core/redact.js";
import { writeFileAtomicSync } from "../util/atomic-write.js";

const MAX_BYTES = 64 * 1024;
const KEEP_LINES = 200;

const DeliverySchema = Type.Object({
  at: Type.String(),
  channel: Type.String(),
  kind: Type.String(),
  event: Type.String(),
  ok: Type.Boolean(),
  /** What came back ("HTTP 200", "exit 0") or why it failed (redacted). */
  detail: Type.String(),
});
export type Delivery = Static<typeof DeliverySchema>;

export const deliveriesPath = (home: string): string => join(home, "notify", "deliveries.jsonl");

/** Appends the deliveries (redacted) durably; past the size bound, keeps only the newest lines. Never throws. */
export function recordDeliveries(home: string, deliveries: readonly Delivery[]): string | null {
  if (deliveries.length === 0) return null;
  const path = deliveriesPath(home);
  try {
    mkdirSync(join(home, "notify"), { recursive: true });
    const text = deliveries.map((d) => `${JSON.stringify({ ...d, detail: redact(d.detail) })}\n`).join("");
    const fd = openSync(path, "a", 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (statSync(path).size > MAX_BYTES) {
      const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
      writeFileAtomicSync(path, `${lines.slice(-KEEP_LINES).join("\n")}\n`, { mode: 0o600 });
    }
    return null;
  } catch (e) {
    return `could not record the deliveries in ${path}: ${(e as Error).message}`;
  }
}

/** Every recorded delivery, oldest first (a line that is not a delivery is passed over); none when there is no log. */
export function readDeliveries(home: string): Delivery[] {
  let text: string;
  try {
    text = readFileSync(deliveriesPath(home), "utf8");
  } catch {
    return [];
  }
  const out: Delivery[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (Value.Check(DeliverySchema, v)) out.push(v);
    } catch {
      // a torn last line (a crash mid-append) is passed over
    }
  }
  return out;
}
