import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/util/sha256.js";

describe("sha256Hex", () => {
  it("digests a text's UTF-8 bytes as the Hash object does, lone surrogates and all", () => {
    const texts = ["", "a", "0".repeat(64), "—×é€😀", "\ud800 lone high", "lone low \udc00", `${"x".repeat(100_000)}\n`];
    for (const t of texts) expect(sha256Hex(t)).toBe(createHash("sha256").update(t, "utf8").digest("hex"));
  });

  it("digests a chain link (hash, newline, line) as the three parts hashed one after another", () => {
    const prev = createHash("sha256").update("x").digest("hex");
    for (const line of ['{"t":"init","seq":1}', "\udc00 starts with a lone low surrogate", "—"]) {
      expect(sha256Hex(`${prev}\n${line}`)).toBe(createHash("sha256").update(prev).update("\n").update(line).digest("hex"));
    }
  });
});
