/**
 * The console's `Approver`: a promise queue joining the async pipeline to keystrokes (after
 * codex-cli's use-confirmation). The pipeline awaits `decide(req)`; the Ink tree subscribes, shows
 * the head request, and settles it with `resolve`. An aborted request (Ctrl+C) settles itself as a
 * rejection, so nothing is placed.
 */
import type { ApprovalDecision, ApprovalRequest, Approver, StandingApprovalRequest, StandingDecision } from "../run/approval.js";

/** Nothing decided: every standing order stays proposed (for `tradewarden standing approve`). */
const LEAVE_ALL: StandingDecision = { by: "operator", approved: [], rejected: [] };

interface StandingEntry {
  req: StandingApprovalRequest;
  settle: (d: StandingDecision) => void;
}

interface Entry {
  req: ApprovalRequest;
  settle: (d: ApprovalDecision) => void;
}

export class ApprovalQueue implements Approver {
  readonly name = "console";
  private readonly entries: Entry[] = [];
  private readonly standingEntries: StandingEntry[] = [];
  private readonly listeners = new Set<() => void>();

  decide(req: ApprovalRequest): Promise<ApprovalDecision> {
    return new Promise<ApprovalDecision>((resolvePromise) => {
      const entry: Entry = {
        req,
        settle: (d) => {
          const i = this.entries.indexOf(entry);
          if (i < 0) return; // already settled
          this.entries.splice(i, 1);
          req.signal?.removeEventListener("abort", onAbort);
          resolvePromise(d);
          this.notify();
        },
      };
      const onAbort = () => entry.settle({ kind: "reject", reason: "run interrupted before a decision", by: "operator" });
      if (req.signal?.aborted) {
        resolvePromise({ kind: "reject", reason: "run interrupted before a decision", by: "operator" });
        return;
      }
      req.signal?.addEventListener("abort", onAbort, { once: true });
      this.entries.push(entry);
      this.notify();
    });
  }

  /** The model's proposed standing orders, shown to the operator like an order approval. */
  decideStanding(req: StandingApprovalRequest): Promise<StandingDecision> {
    return new Promise<StandingDecision>((resolvePromise) => {
      const entry: StandingEntry = {
        req,
        settle: (d) => {
          const i = this.standingEntries.indexOf(entry);
          if (i < 0) return;
          this.standingEntries.splice(i, 1);
          req.signal?.removeEventListener("abort", onAbort);
          resolvePromise(d);
          this.notify();
        },
      };
      // An interrupted run decides nothing: they stay proposed.
      const onAbort = () => entry.settle(LEAVE_ALL);
      if (req.signal?.aborted) {
        resolvePromise(LEAVE_ALL);
        return;
      }
      req.signal?.addEventListener("abort", onAbort, { once: true });
      this.standingEntries.push(entry);
      this.notify();
    });
  }

  /** The standing-order request on screen, if any. */
  currentStanding = (): StandingApprovalRequest | undefined => this.standingEntries[0]?.req;

  resolveStanding(req: StandingApprovalRequest, decision: StandingDecision): boolean {
    const entry = this.standingEntries.find((e) => e.req === req);
    if (!entry) return false;
    entry.settle(decision);
    return true;
  }

  /** The request on screen (stable identity until it is settled). */
  current = (): ApprovalRequest | undefined => this.entries[0]?.req;

  /** Settle `req` (only if it is still waiting). Returns whether it was. */
  resolve(req: ApprovalRequest, decision: ApprovalDecision): boolean {
    const entry = this.entries.find((e) => e.req === req);
    if (!entry) return false;
    entry.settle(decision);
    return true;
  }

  /** Settle every waiting request (e.g. on interrupt) with a rejection. */
  rejectAll(reason: string): void {
    for (const e of [...this.entries]) e.settle({ kind: "reject", reason, by: "operator" });
    for (const e of [...this.standingEntries]) e.settle(LEAVE_ALL);
  }

  get size(): number {
    return this.entries.length + this.standingEntries.length;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private notify(): void {
    for (const l of this.listeners) l();
  }
}
