/**
 * Bad homes and currency codes through the real CLI (issue #23): a home that cannot be one (a
 * system folder, a path too long, a file on the way, a folder this user cannot write) is refused
 * with exit 2 and a sentence naming the home and what is wrong, never an internal error; a base
 * currency must be a real ISO 4217 code.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ROOT, childEnv, cleanupHomes, freshHome, text, twIn } from "./helpers.js";

afterAll(cleanupHomes);

function expectHomeRefused(r: { exitCode?: number; stdout?: unknown; stderr?: unknown }, home: string, says: string): void {
  expect(r.exitCode, text(r)).toBe(2);
  expect(String(r.stderr)).toContain(`--home ${home} ${says}`);
  expect(String(r.stderr)).not.toContain("internal error");
}

describe("bad homes: exit 2 naming the home and what is wrong", () => {
  it("/proc/self and a folder under it: a system folder", async () => {
    for (const home of ["/proc/self", "/proc/self/tw"]) {
      for (const args of [
        ["config", "check"],
        ["run", "--yes"],
      ]) {
        const r = await twIn(home, args);
        expectHomeRefused(r, home, home === "/proc/self" ? "is /proc/self, a system folder" : "is under /proc/self, a system folder");
      }
    }
  }, 240_000);

  it("a path too long, or with a name too long", async () => {
    const base = freshHome();
    const deep = join(base, ...Array.from({ length: 20 }, () => "d".repeat(200)));
    const r1 = await twIn(deep, ["config", "check"]);
    expectHomeRefused(r1, deep, "is too long a path");
    const wide = join(base, "n".repeat(300));
    const r2 = await twIn(wide, ["run", "--yes"]);
    expectHomeRefused(r2, wide, "has a folder name longer than 255 bytes");
  }, 120_000);

  it("a file on the way to the home", async () => {
    const base = freshHome();
    writeFileSync(join(base, "file"), "x");
    const home = join(base, "file", "home");
    const r = await twIn(home, ["run", "--yes"]);
    expectHomeRefused(r, home, "cannot be created: a part of the path is a file, not a folder");
  }, 120_000);

  it("a folder this user cannot write (as root: the CLI runs as nobody, since root ignores permission bits)", async () => {
    const base = freshHome();
    const home = join(base, "ro");
    mkdirSync(home);
    const root = process.getuid?.() === 0;
    // Root: the folder stays root's (0755) and the CLI runs as nobody; otherwise the folder is made read-only.
    if (root) chmodSync(base, 0o755);
    else chmodSync(home, 0o555);
    const asUser = root ? { uid: 65534, gid: 65534 } : {};
    try {
      for (const [h, says] of [
        [home, "is not writable: permission denied"],
        [join(home, "sub"), `cannot be created in ${home}: permission denied`],
      ] as const) {
        const r = await execa(process.execPath, [BIN, "--home", h, "run", "--yes"], {
          cwd: ROOT,
          reject: false,
          extendEnv: false,
          env: childEnv(),
          timeout: 45_000,
          ...asUser,
        });
        expectHomeRefused(r, h, says);
      }
    } finally {
      chmodSync(home, 0o755);
    }
  }, 120_000);
});

describe("currency codes are real ISO 4217 codes", () => {
  it('base_currency "QQQ" and "ABC" are refused by config check and run; "JPY" loads', async () => {
    for (const code of ["QQQ", "ABC"]) {
      const home = freshHome(`[account]\nbase_currency = "${code}"\n`);
      for (const args of [
        ["config", "check"],
        ["run", "--yes"],
      ]) {
        const r = await twIn(home, args);
        expect(r.exitCode, text(r)).toBe(2);
        expect(String(r.stderr)).toContain(`account.base_currency: must be an ISO 4217 currency code in use (e.g. USD, EUR, JPY), got "${code}"`);
      }
    }
    const ok = await twIn(freshHome(`[account]\nbase_currency = "JPY"\n`), ["config", "check"]);
    expect(ok.exitCode, text(ok)).toBe(0);
  }, 120_000);

  it("a universe row or an import in currency QQQ is refused", async () => {
    const home = freshHome(`[universe]\nfiles = ["u.csv"]\n`);
    writeFileSync(join(home, "u.csv"), "symbol,currency\nSPX,QQQ\n");
    const r = await twIn(home, ["config", "check"]);
    expect(r.exitCode, text(r)).toBe(2);
    expect(String(r.stderr)).toContain('u.csv: row 2.currency: must be an ISO 4217 currency code in use (e.g. USD, EUR, JPY), got "QQQ"');
    writeFileSync(join(home, "bars.csv"), "Date,Open,High,Low,Close,Volume\n2024-01-05,10,11,9,10.5,1000\n");
    const i = await twIn(home, ["data", "import", "--csv", join(home, "bars.csv"), "--symbol", "ABC", "--currency", "QQQ"]);
    expect(i.exitCode, text(i)).toBe(2);
    expect(String(i.stderr)).toContain('currency "QQQ" is not an ISO 4217 currency code in use');
  }, 120_000);
});
