import { describe, expect, it } from "vitest";
import { Redactor, registerSecretEnv } from "../../src/core/redact.js";
import { StreamRedactor } from "../../src/core/redact-stream.js";
import { echoForms, leaksOf } from "../fixtures/secret-forms.js";

const KEY = "sk-ant-api03-Ab+c/9xYz_0123-QRS";
const TAVILY = "tvly-dev-Zq9/Lm+8Np2Rs6Tv";

describe("the redactor", () => {
  const r = new Redactor();
  r.register("ANTHROPIC_API_KEY", KEY);

  it("replaces every form a server may echo: exact, case-changed, base64 (std, unpadded, url-safe), URL-encoded, a Bearer header", () => {
    const b64 = Buffer.from(KEY).toString("base64");
    const forms = [
      KEY,
      KEY.toUpperCase(),
      KEY.toLowerCase(),
      b64,
      b64.replace(/=+$/, ""),
      b64.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"),
      encodeURIComponent(KEY),
      `Authorization: Bearer ${KEY}`,
    ];
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

  it("forgets every secret as a fresh process would (each test file starts so: tests/setup/fresh-redactor.ts), and learns again", () => {
    const f = new Redactor();
    f.register("OLD_KEY", "sk-old-0123456789");
    expect(f.text("k=sk-old-0123456789")).toBe("k=[redacted OLD_KEY]");
    f.forget();
    expect(f.size).toBe(0);
    expect(f.text("k=sk-old-0123456789")).toBe("k=sk-old-0123456789");
    expect(f.value({ "sk-old-0123456789": 1 })).toEqual({ "sk-old-0123456789": 1 });
    f.register("NEW_KEY", "sk-new-9876543210");
    expect(f.text("k=sk-new-9876543210 and sk-old-0123456789")).toBe("k=[redacted NEW_KEY] and sk-old-0123456789");
  });
});

describe("the redactor, against every form a server may echo (tests/fixtures/secret-forms.ts)", () => {
  const r = new Redactor();
  r.register("ANTHROPIC_API_KEY", KEY);
  r.register("TAVILY_API_KEY", TAVILY);

  for (const key of [KEY, TAVILY]) {
    for (const [form, text] of Object.entries(echoForms(key))) {
      it(`${key.slice(0, 4)}… ${form}: replaced, and found`, () => {
        const out = r.text(`gateway said: ${text} (request 7)`);
        expect(leaksOf(out, key), out).toEqual([]);
        expect(out).toMatch(/\[redacted (ANTHROPIC|TAVILY)_API_KEY\]/);
        expect(out).toMatch(/^gateway said: .*\(request 7\)$/);
        expect(r.find(text).length, text).toBeGreaterThan(0);
      });
    }
  }

  it("a key used as an object's property name is redacted too", () => {
    expect(r.value({ [KEY]: "x", nested: [{ [`prefix ${TAVILY}`]: 1 }] })).toEqual({
      "[redacted ANTHROPIC_API_KEY]": "x",
      nested: [{ "prefix [redacted TAVILY_API_KEY]": 1 }],
    });
  });

  it("leaves ordinary text (escapes, hex-looking numbers, base64-looking words) alone", () => {
    const plain = 'ALFA 101.5 \\u00e9 %20 &#43; deadbeef QWxmYQ== {"a":"b\\/c"} \\\\n';
    expect(r.text(plain)).toBe(plain);
  });
});

describe("a text that arrives in pieces (streamed model text)", () => {
  const r = new Redactor();
  r.register("ANTHROPIC_API_KEY", KEY);
  const run = (pieces: string[]) => {
    const s = new StreamRedactor(r);
    const out = pieces.map((p) => s.push(p));
    out.push(s.flush());
    return out;
  };

  for (const [form, text] of Object.entries(echoForms(KEY))) {
    it(`${form}: split at every place, no piece and no joined output holds the key; the whole equals the text redacted at once`, () => {
      const whole = `Thinking: ${text} — done.`;
      for (let cut = 1; cut < whole.length; cut++) {
        const out = run([whole.slice(0, cut), whole.slice(cut)]);
        for (const piece of out) expect(leaksOf(piece, KEY), `cut ${cut}`).toEqual([]);
        expect(out.join(""), `cut ${cut}`).toBe(r.text(whole));
      }
      const one = run([...whole]);
      expect(one.join("")).toBe(r.text(whole));
    });
  }

  it("text that cannot begin a key goes out at once (the console still streams)", () => {
    const s = new StreamRedactor(r);
    expect(s.push("ALFA looks strong; ")).toBe("ALFA looks strong; ");
    expect(s.push("holding.")).toBe("holding.");
    // "sk-" could begin the key: held back until the next piece settles it.
    expect(s.push("ask-")).toBe("a");
    expect(s.push("ed twice")).toBe("sk-ed twice");
    expect(s.flush()).toBe("");
  });

  it("with no secret known, every piece passes unchanged", () => {
    const s = new StreamRedactor(new Redactor());
    expect(s.push("sk-ant-")).toBe("sk-ant-");
  });
});

describe("a stream cut off in the middle of a key", () => {
  it("does not show the part of the key it got; a short ordinary tail is shown as it is", () => {
    const r = new Redactor();
    r.register("ANTHROPIC_API_KEY", KEY);
    const cut = new StreamRedactor(r);
    const out = [cut.push("The key: "), cut.push(KEY.slice(0, 14)), cut.flush()].join("");
    expect(out).toBe("The key: [redacted ANTHROPIC_API_KEY]");
    const short = new StreamRedactor(r);
    expect([short.push("ask"), short.flush()].join("")).toBe("ask");
  });
});
