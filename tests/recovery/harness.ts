/**
 * In-process harness for the recovery tests: whole daily runs through the real pipeline, journal
 * and broker (the simulated one, or the loopback Alpaca fake), without a CLI process. A "crash" at
 * a point of execution is the state a SIGKILL leaves there: the run is stopped for good right after
 * that write (its promise never settles, so nothing after it is written) and the next run opens the
 * home afresh from disk, as the next process would. The CLI's own part of an interruption (signals,
 * a closed pipe, a real SIGKILL) is covered by a few real CLI runs elsewhere.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { loopbackAllowedForTests } from "../../src/broker/loopback.js";
import type { RunEvent } from "../../src/core/events.js";
import { AutoApprover } from "../../src/run/approval.js";
import { EventSink } from "../../src/run/event-sink.js";
import { runDaily } from "../../src/run/pipeline.js";
import { createAccountServices, createRunServices, type RunServices, accountDeps } from "../../src/run/services.js";

const homes: string[] = [];

export function tempHome(toml?: string): string {
  const home = mkdtempSync(join(tmpdir(), "tw-recovery-"));
  homes.push(home);
  if (toml !== undefined) writeFileSync(join(home, "tradewarden.toml"), toml);
  return home;
}

export function cleanupTempHomes(): void {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Patches the run's services (journal, broker) before the run starts. */
  patch?: (svc: RunServices, controller: AbortController) => void;
  /** Called with every event as it is emitted. */
  onEvent?: (e: RunEvent, controller: AbortController) => void;
  /** The run's wall clock (default: now). */
  now?: () => Date;
}

/** One daily run (`run --yes`) in this process. */
export async function runIn(home: string, opts: RunOptions = {}) {
  const svc = await createRunServices(home, opts.env ?? {});
  const controller = new AbortController();
  opts.patch?.(svc, controller);
  const sink = new EventSink();
  if (opts.onEvent) sink.subscribe((e) => opts.onEvent?.(e, controller));
  const summary = await runDaily({
    home,
    mode: "paper",
    ...accountDeps(svc),
    model: svc.model,
    approver: new AutoApprover(),
    sink,
    signal: controller.signal,
    secretsRead: svc.secretsRead,
    allowLoopbackBroker: loopbackAllowedForTests(),
    research: svc.research,
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { summary, events: sink.events as RunEvent[] };
}

export type CrashPoint = "after_intent" | "after_send" | "after_fill";

/** A run stopped for good right after `point` (the state a SIGKILL there leaves on disk). */
export async function crashAt(home: string, point: CrashPoint, env?: NodeJS.ProcessEnv): Promise<void> {
  let crashed = () => {};
  const hit = new Promise<void>((resolve) => {
    crashed = resolve;
  });
  const never = new Promise<never>(() => {});
  const run = runIn(home, {
    ...(env ? { env } : {}),
    patch: (svc) => {
      const { journal, broker } = svc;
      if (point === "after_intent") {
        const orig = journal.recordOrderIntent.bind(journal);
        journal.recordOrderIntent = async (i) => {
          await orig(i);
          crashed();
          return never;
        };
      } else if (point === "after_send") {
        const orig = broker.placeLimitDayOrder.bind(broker);
        broker.placeLimitDayOrder = async (o) => {
          await orig(o);
          crashed();
          return never;
        };
      } else {
        const orig = journal.bookFill.bind(journal);
        journal.bookFill = async (id, f) => {
          await orig(id, f);
          crashed();
          return never;
        };
      }
    },
  });
  await Promise.race([hit, run.then((r) => Promise.reject(new Error(`the run ended (${r.summary.outcome}: ${r.summary.message}) before reaching ${point}`)))]);
}

const nonZero = (m: Record<string, { quantity: number }>) =>
  Object.fromEntries(
    Object.entries(m)
      .filter(([, p]) => Math.abs(p.quantity) > 1e-9)
      .map(([s, p]) => [s, p.quantity])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );

/** `journal verify` finds nothing, and the journal's holdings are the broker's positions. */
export async function expectAgreement(home: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const svc = await createAccountServices(home, env, { readOnly: true });
  expect(svc.journal.verify()).toEqual([]);
  const positions = await svc.broker.positions();
  expect(nonZero(svc.journal.holdings())).toEqual(nonZero(Object.fromEntries(positions.map((p) => [p.symbol, { quantity: p.quantity }]))));
}

export const ofType = <T extends RunEvent["type"]>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
