/** A home whose broker is the loopback Alpaca fake, with AAA and BBB imported (in this process). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cmdDataImport } from "../../src/commands/data-import.js";
import type { FakeAlpaca } from "../broker/fake-alpaca.js";
import { risingBarsCsv } from "../real-parts/alpaca-bars.js";
import { tempHome } from "./harness.js";

export const KEY = "PKRECOVERYKEY0123456";
export const SECRET = "recoverySeCrEt-0123456789-abcdefghij";
export const SYMBOLS = ["AAA", "BBB"] as const;
export const ALPACA_ENV = { APCA_API_KEY_ID: KEY, APCA_API_SECRET_KEY: SECRET };
/** The executor's wait: an intent younger than this may still be on its way to the broker. */
export const WAIT_S = 1;

export function alpacaHome(fake: FakeAlpaca, home = tempHome()): string {
  writeFileSync(join(home, "universe.csv"), `symbol,currency,exchange,name\n${SYMBOLS.map((s) => `${s},USD,SIM,${s} test instrument`).join("\n")}\n`);
  const io = { stdout: () => {}, stderr: (t: string) => process.stderr.write(t), env: {} };
  for (const [i, s] of SYMBOLS.entries()) {
    const csv = join(home, `${s}-bars.csv`);
    writeFileSync(csv, risingBarsCsv(40 + 30 * i));
    if (cmdDataImport({ home, csv, symbol: s }, io) !== 0) throw new Error(`import of ${s} failed`);
  }
  writeFileSync(
    join(home, "tradewarden.toml"),
    `[universe]\nfiles = ["universe.csv"]\n\n[broker]\nkind = "alpaca"\n\n[broker.alpaca]\nbase_url = "${fake.url}"\n\n[executor]\nwait_s = ${WAIT_S}\nsettle_s = 1\npoll_ms = 50\n`,
  );
  return home;
}

/** No client order id was posted twice. */
export function postedOnce(fake: FakeAlpaca): boolean {
  const ids = fake.posts().map((p) => JSON.parse(p.body).client_order_id as string);
  return new Set(ids).size === ids.length;
}
