/**
 * `tradewarden reconcile`: recovers every order with a known client order id (as every run does
 * first), then shows each difference between the journal and the broker and what it proves. A
 * difference nothing explains is resolved only by an operator adopting the broker's side — on a
 * terminal with type-to-confirm and a reason, headless with `--adopt-broker --yes --reason "…"` —
 * as append-only adjustments. Headless without `--adopt-broker` it is refused (exit 3).
 */
import { noticeTo } from "../journal/load.js";
import { assertPaperAccount, assertPaperEndpoint } from "../broker/guard.js";
import { loopbackAllowedForTests } from "../broker/loopback.js";
import { acquireLock } from "../journal/lock.js";
import { EXIT } from "../core/exit-codes.js";
import type { ReconcileDifference, RunEvent, RunEventBody } from "../core/events.js";
import { operatorName } from "../run/killswitch.js";
import { recoverAndReconcile } from "../run/phases/recover-reconcile.js";
import { type AccountServices, createAccountServices } from "../run/services.js";
import { sanitizeLine } from "../util/sanitize.js";
import { prepareInkForTerminal } from "../util/terminal-env.js";
import type { CommandIO } from "./io.js";

export interface ReconcileOptions {
  home: string;
  adoptBroker: boolean;
  yes: boolean;
  reason?: string;
  who?: string;
  json: boolean;
  interactive: boolean;
}

type Recovered = Extract<RunEvent, { type: "order.recovered" }>;

function recoveredLine(e: Omit<Recovered, "seq" | "at" | "run_id">): string {
  return `${e.client_order_id} (${e.side} ${e.quantity} ${e.symbol}, run ${e.from_run}): ${e.status_before} → ${e.status}, ${e.fills_booked} fill(s) booked: ${e.message}`;
}

function differenceLines(d: ReconcileDifference): string {
  return `  - ${d.kind} ${d.symbol}: ${sanitizeLine(d.message)}\n    proves: ${sanitizeLine(d.proves ?? "—")}${d.adoptable ? "" : " (not adoptable)"}\n`;
}

async function check(svc: AccountServices, emit: (e: RunEventBody) => void) {
  return recoverAndReconcile({
    journal: svc.journal,
    broker: svc.broker,
    emit,
    executor: svc.config.executor,
  });
}

export async function cmdReconcile(opts: ReconcileOptions, io: CommandIO): Promise<number> {
  if (opts.adoptBroker && !opts.yes) {
    io.stderr("tradewarden reconcile: adopting the broker's side changes the books; confirm with --yes (or run `tradewarden reconcile` on a terminal)\n");
    return EXIT.USAGE_OR_CONFIG;
  }
  if (opts.adoptBroker && !opts.reason?.trim()) {
    io.stderr('tradewarden reconcile: a reason is required to adopt the broker\'s side: --reason "…"\n');
    return EXIT.USAGE_OR_CONFIG;
  }
  // Recovery writes the journal and may cancel orders: one process at a time.
  const lock = await acquireLock(opts.home, "reconcile");
  try {
    // A fresh home is refused before the broker is opened: a fresh simulated broker would write its
    // book while the journal stays uninitialised (cash 0 against the broker's capital). The first
    // `run` (or `init`) initialises both, under this same lock.
    const svc = await createAccountServices(opts.home, io.env, { requireInitialised: true, notice: noticeTo(io.stderr) });
    const endpoint = svc.broker.endpoint();
    assertPaperEndpoint(endpoint, { allowLoopback: loopbackAllowedForTests() });
    assertPaperAccount(endpoint, await svc.broker.account());

    const recovered: Omit<Recovered, "seq" | "at" | "run_id">[] = [];
    const report = await check(svc, (e) => {
      if (e.type === "order.recovered") recovered.push(e);
    });
    const { differences } = report;
    if (opts.json && !opts.adoptBroker) {
      io.stdout(`${JSON.stringify({ recovered, differences, agree: differences.length === 0 }, null, 2)}\n`);
      return differences.length === 0 ? EXIT.OK : EXIT.RECONCILE_FAILED;
    }
    if (opts.interactive && !opts.adoptBroker && !opts.json) return await screen(svc, recovered.map(recoveredLine), differences, io);

    if (!opts.json) {
      for (const r of recovered) io.stdout(`recovered ${recoveredLine(r)}\n`);
      if (differences.length === 0) {
        io.stdout(`journal and broker agree (${report.positions} position(s))\n`);
        return EXIT.OK;
      }
      io.stdout(`${differences.length} difference(s) between the journal and the broker:\n${differences.map(differenceLines).join("")}`);
    }
    if (differences.length === 0) {
      io.stdout(`${JSON.stringify({ recovered, differences, agree: true, adjustments: [] }, null, 2)}\n`);
      return EXIT.OK;
    }
    const adoptable = differences.filter((d) => d.adoptable);
    if (!opts.adoptBroker) {
      io.stderr(
        `tradewarden reconcile: refused: ${adoptable.length} difference(s) need an operator's decision. Adopt the broker's side with --adopt-broker --yes --reason "…" (recorded as append-only adjustments), or run \`tradewarden reconcile\` on a terminal.\n`,
      );
      return EXIT.RECONCILE_FAILED;
    }
    const adjustments = await svc.journal.recordAdjustments({
      differences: adoptable,
      reason: opts.reason ?? "",
      by: opts.who ?? operatorName(io.env),
      at: new Date(),
    });
    const after = await check(svc, () => {});
    if (opts.json) {
      io.stdout(`${JSON.stringify({ recovered, differences, adjustments, remaining: after.differences, agree: after.differences.length === 0 }, null, 2)}\n`);
    } else {
      for (const a of adjustments) io.stdout(`adjustment ${a.id} by ${a.by}: ${a.kind} (${sanitizeLine(a.difference)}); reason: ${sanitizeLine(a.reason)}\n`);
      io.stdout(
        after.differences.length === 0
          ? "journal and broker agree\n"
          : `${after.differences.length} difference(s) remain:\n${after.differences.map(differenceLines).join("")}`,
      );
    }
    return after.differences.length === 0 ? EXIT.OK : EXIT.RECONCILE_FAILED;
  } finally {
    await lock.release();
  }
}

async function screen(svc: AccountServices, recovered: string[], differences: ReconcileDifference[], io: CommandIO): Promise<number> {
  prepareInkForTerminal();
  const { mountReconcile } = await import("../screens/run-app.js");
  let left = differences;
  const mounted = mountReconcile(
    {
      recovered,
      differences,
      onAdopt: async ({ reason }) => {
        await svc.journal.recordAdjustments({ differences: differences.filter((d) => d.adoptable), reason, by: operatorName(io.env), at: new Date() });
        left = (await check(svc, () => {})).differences;
        return left;
      },
      onExit: () => {},
    },
    { env: io.env },
  );
  await mounted.waitUntilExit();
  io.stdout(left.length === 0 ? "journal and broker agree\n" : `${left.length} difference(s) remain\n`);
  return left.length === 0 ? EXIT.OK : EXIT.RECONCILE_FAILED;
}
