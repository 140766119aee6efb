/**
 * The repair budget: a model that sends a refused call again unchanged is not repairing it. A call
 * is identified by its tool and its canonical arguments (a JSON string parsed, keys sorted, no
 * arguments the same as `{}`). When the contract layer refuses a call (unknown tool, parse,
 * validation, unmasking, grounding, pending corrections, call limit; a handler's own failure is not
 * a refusal) with the same error as the last time that identical call was refused, the refusals
 * count up; any other answer starts over. A repeat of a call refused on its arguments alone
 * (unknown tool, parse, validation) is refused again from memory, without validating it again.
 * At `IDENTICAL_REFUSALS_END_RUN` identical refusals the budget is spent and the agent loop ends
 * the run (outcome `repair_budget`) instead of asking the model again.
 */
import type { RepeatedRefusal } from "../agent/loop-types.js";
import { canonicalJson } from "../util/canonical-json.js";
import { nestsDeeperThan } from "../util/json-depth.js";
import type { Admission, DispatchStage } from "./admission.js";
import type { ContractVersion } from "./versions.js";

/** Identical refusals of one call that end the run: the first, and its one unchanged repeat. */
export const IDENTICAL_REFUSALS_END_RUN = 2;

/** The versions without a repair budget (frozen: a replay of their runs asks the model as often as the recorded run did). */
const VERSIONS_WITHOUT: ReadonlySet<ContractVersion> = new Set(["tw-tools/1", "tw-tools/2"]);

/** Refusals decided by the arguments alone (and the run's fixed tool list). */
const ON_ARGUMENTS_ALONE: ReadonlySet<DispatchStage> = new Set(["unknown_tool", "parse", "validation"]);
/** Refusals of the contract layer: the handler never ran. */
const REFUSING_STAGES: ReadonlySet<DispatchStage> = new Set(["unknown_tool", "parse", "validation", "unmask", "grounding", "pending", "limit"]);

/** A refusal as the runtime answers it: admission's (or the call limit's) failure, its stage and the arguments recorded. */
export type Refusal = Omit<Extract<Admission, { ok: false }>, "ok">;

/** A call's last refusal and how many identical ones it has had, this one included. */
type Refused = Refusal & { refusals: number };

/** The run's repair budget, or none for a version that has none. */
export function repairBudgetFor(version: ContractVersion): RepairBudget | undefined {
  return VERSIONS_WITHOUT.has(version) ? undefined : new RepairBudget();
}

/** A call's identity: its tool and canonical arguments (none for arguments nested too deep to key). */
function keyOf(tool: string, rawArgs: unknown): string | undefined {
  let args: unknown = rawArgs ?? {};
  if (typeof rawArgs === "string") {
    try {
      args = rawArgs.trim() === "" ? {} : JSON.parse(rawArgs);
    } catch {
      return `${tool}\u0000${rawArgs}`;
    }
  }
  if (args === null) args = {};
  if (nestsDeeperThan(args)) return undefined;
  return `${tool}\u0000${canonicalJson(args)}`;
}

/**
 * One call as the budget knows it: its identity is computed on first use only, and a call is keyed
 * only when this run has refused some call or refuses this one (most runs refuse nothing, and
 * canonicalising every call's arguments was a third of a dispatch).
 */
export class BudgetCall {
  private keyed = false;
  private value: string | undefined;

  constructor(
    private readonly tool: string,
    private readonly rawArgs: unknown,
  ) {}

  get key(): string | undefined {
    if (!this.keyed) {
      this.value = keyOf(this.tool, this.rawArgs);
      this.keyed = true;
    }
    return this.value;
  }
}

export class RepairBudget {
  private readonly refused = new Map<string, Refused>();
  private spentOn: RepeatedRefusal | undefined;

  /** A repeat of a call refused on its arguments alone: its refusal, counted, without checking it again. */
  repeat(call: BudgetCall): Refusal | undefined {
    if (this.refused.size === 0) return undefined;
    const key = call.key;
    const before = key === undefined ? undefined : this.refused.get(key);
    if (!before || !ON_ARGUMENTS_ALONE.has(before.stage)) return undefined;
    return this.count(before, before.refusals + 1);
  }

  /** How the contract layer answered a call: its refusal (counted when it repeats the last one of this call), or none when admitted. */
  settle(call: BudgetCall, refusal: Refusal | undefined): Refusal | undefined {
    if (!refusal || !REFUSING_STAGES.has(refusal.stage)) {
      const key = this.refused.size === 0 ? undefined : call.key;
      if (key !== undefined) this.refused.delete(key);
      return refusal;
    }
    const key = call.key;
    if (key === undefined) return refusal;
    const before = this.refused.get(key);
    const same = before !== undefined && before.spec.code === refusal.spec.code && before.spec.message === refusal.spec.message;
    const entry: Refused = { ...refusal, refusals: 1 };
    this.refused.set(key, entry);
    return same ? this.count(entry, before.refusals + 1) : refusal;
  }

  /** The call that spent the budget, once one has. */
  spent(): RepeatedRefusal | undefined {
    return this.spentOn;
  }

  /** A repeated refusal: counted, and its message saying so (the run ends when the budget is spent). */
  private count(entry: Refused, refusals: number): Refusal {
    entry.refusals = refusals;
    const spent = refusals >= IDENTICAL_REFUSALS_END_RUN;
    if (spent && !this.spentOn) this.spentOn = { tool: entry.spec.tool, error_code: entry.spec.code, error: entry.spec.message, refusals };
    const note = spent
      ? `this exact call was refused ${refusals} times with the same error; the run ends`
      : "this exact call was refused before with the same error; sent unchanged again, it ends the run";
    return { ...entry, spec: { ...entry.spec, message: `${entry.spec.message} (${note})` } };
  }
}
