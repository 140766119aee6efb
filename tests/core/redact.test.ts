import { describe, expect, it } from "vitest";
import { Redactor, registerSecretEnv } from "../../src/core/redact.js";

const KEY = "sk-ant-api03-Ab+c/9xYz_0123-QRS";

describe("the redactor", () => {
  const r = new Redactor();
  r.register("ANTHROPIC_API_KEY", KEY);

  it("replaces every form a server may echo: exact, case-changed, base64 (std, unpadded, url-safe), URL-encoded, a Bearer header", () => {
    const b64 = Buffer.from(KEY).toString("base64");
    const forms = [KEY, KEY.toUpperCase(), KEY.toLowerCase(), b64, b64.replace(/=+$/, ""), b64.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"), encodeURIComponent(KEY), `Authorization: Bearer ${KEY}`];
    for (const f of forms) {
      const out = r.text(`401 from the gateway: invalid key ${f} (request 7)`);
      expect(out, f).toContain("[redacted ANTHROPIC_API_KEY]");
      expect(out, f).not.toContain(f.replace("Authorization: Bearer ", ""));
      expect(r.find(f), f).toEqual(["ANTHROPIC_API_KEY"]);
    }
  });

  it("redacts deep inside events and journal records, and returns the same object when nothing matches", () => {
    const clean = { a: "nothing here", b: [1, { c: "x" }] };
    expect(r.value(clean)).toBe(clean);
    expect(r.value({ message: `echo ${KEY}`, nested: [{ body: KEY.toLowerCase() }] })).toEqual({
      message: "echo [redacted ANTHROPIC_API_KEY]",
      nested: [{ body: "[redacted ANTHROPIC_API_KEY]" }],
    });
  });

  it("knows the well-known secret variables of an environment, not short or unset ones", () => {
    const e = new Redactor();
    registerSecretEnv({ APCA_API_KEY_ID: "PKABCDEFGH123", APCA_API_SECRET_KEY: "", TAVILY_API_KEY: "abc", HOME: "/home/me" }, e);
    expect(e.size).toBe(1);
    expect(e.text("id PKABCDEFGH123 home /home/me")).toBe("id [redacted APCA_API_KEY_ID] home /home/me");
  });
});
