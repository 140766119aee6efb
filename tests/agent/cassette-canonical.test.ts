/**
 * A request's canonical form is made in one pass when redaction cannot change it: for any messages
 * and system prompt (credential-like strings, `__proto__` keys, escapes included), with no secret
 * registered and with one, the canonical request and its key are those of the two-pass path (the
 * canonical JSON read back, redacted, written again).
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalRequest, redact, requestKey } from "../../src/agent/cassette-format.js";
import { canonicalJson } from "../../src/util/canonical-json.js";
import type { ModelRequest } from "../../src/agent/types.js";
import { redactor } from "../../src/core/redact.js";

const SECRET = "s3cr3t-VALUE-42";

/** The two-pass path: every part's canonical JSON read back and redacted (with an empty tool list: tool lists are canonicalised once per list). */
function twoPass(req: Pick<ModelRequest, "system" | "messages" | "maxTokens">) {
  const scalars = redact(JSON.parse(canonicalJson({ system: req.system, max_tokens: req.maxTokens })) as Record<string, unknown>);
  const messages = req.messages.map((m) => redact(JSON.parse(canonicalJson(m ?? null)) as unknown));
  return { max_tokens: scalars.max_tokens, messages, system: scalars.system, tools: [] };
}

const tricky = fc.constantFrom("sk-ant-abcdefgh1234", "Bearer\tabcdefghijklmnop", "a Bearer token", SECRET, `x${SECRET}y`, "__proto__", "\u2028", 'é\n"');
const text = fc.oneof(
  fc.string(),
  tricky,
  fc.tuple(fc.string(), tricky, fc.string()).map((p) => p.join("")),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string(), tricky), tie("value"), { maxKeys: 4 }),
})).value;
const request = fc.record({
  system: text,
  maxTokens: fc.integer({ min: 1, max: 100_000 }),
  messages: fc.array(fc.oneof(fc.record({ role: fc.constantFrom("user", "assistant"), content: json }), json), { maxLength: 5 }),
});

function check(): void {
  fc.assert(
    fc.property(request, (r) => {
      const req = { ...r, tools: [] } as unknown as Pick<ModelRequest, "system" | "messages" | "maxTokens" | "tools">;
      const got = canonicalRequest(req);
      const want = twoPass(req);
      expect(got).toEqual(want);
      expect(requestKey(got)).toBe(createHash("sha256").update(canonicalJson(want)).digest("hex"));
    }),
    { numRuns: 400 },
  );
}

describe("a request's canonical form in one pass", () => {
  it("is the two-pass form with no secret registered", () => {
    expect(redactor.size).toBe(0);
    check();
  });

  it("is the two-pass form with a secret registered", () => {
    redactor.register("TEST_SECRET", SECRET);
    check();
  });
});
