/**
 * `tradewarden doctor` on an account that cannot trade, through the CLI's entry (src/cli.tsx `main`, in
 * this process): HALTED and REDUCING are failed checks with what to do (exit 1), never "all N checks
 * passed"; a used-up spend cap too.
 */
import { afterAll, expect, test } from "vitest";
import type { DoctorReport } from "../../src/run/doctor/index.js";
import { cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";

afterAll(cleanupHomes);

async function doctor(home: string): Promise<{ report: DoctorReport; exit: number | undefined; text: string }> {
  const json = await twIn(home, ["doctor", "--json"]);
  const plain = await twIn(home, ["doctor"]);
  expect(plain.exitCode).toBe(json.exitCode);
  return { report: JSON.parse(String(json.stdout)) as DoctorReport, exit: json.exitCode, text: String(plain.stdout) };
}

const check = (r: DoctorReport, id: string) => r.checks.find((c) => c.id === id);

test("ACTIVE passes; HALTED and then REDUCING fail with their fix; exit 1", async () => {
  const home = freshHome();
  expectExit(await twIn(home, ["run", "--yes"]), 0);
  const active = await doctor(home);
  expect(active.exit).toBe(0);
  expect(check(active.report, "account.trading")).toMatchObject({ ok: true, summary: expect.stringContaining("trading is ACTIVE") });

  expectExit(await twIn(home, ["killswitch", "trip", "--reason", "doctor test"]), 0);
  const halted = await doctor(home);
  expect(halted.exit).toBe(1);
  expect(check(halted.report, "account.trading")).toMatchObject({
    ok: false,
    summary: expect.stringContaining("trading is HALTED by the kill switch: operator tripped the kill switch: doctor test"),
    fix: expect.stringContaining('tradewarden killswitch reset --yes --reason "…"'),
  });
  expect(halted.text).toMatch(/✖ trading is HALTED/);
  expect(halted.text).toMatch(/fix: review the trip with `tradewarden killswitch`, then `tradewarden killswitch reset/);
  expect(halted.text).not.toMatch(/all \d+ checks passed/);
  expect(halted.text).toMatch(/1 of \d+ checks failed/);

  expectExit(await twIn(home, ["killswitch", "reset", "--yes", "--reason", "reviewed"]), 0);
  const reducing = await doctor(home);
  expect(reducing.exit).toBe(1);
  expect(check(reducing.report, "account.trading")).toMatchObject({
    ok: false,
    summary: expect.stringMatching(/trading is REDUCING after a kill-switch reset: sells only for \d+ more run\(s\)/),
    fix: expect.stringContaining("buying resumes by itself"),
  });
}, 120_000);

test("a used-up monthly spend cap: the account cannot trade, a failed check with the fix", async () => {
  const home = freshHome("[model]\nmonthly_budget_usd = 0\n");
  await twIn(home, ["run", "--yes"]);
  const r = await doctor(home);
  expect(r.exit).toBe(1);
  expect(check(r.report, "account.spend")).toMatchObject({ ok: false, fix: expect.stringContaining("model.monthly_budget_usd") });
}, 60_000);
