/**
 * Checked orders (tw-tools/3): every successful check_orders answers a `check_id`
 * ("check:<10 hex>", a hash of the real, unmasked orders it dry-ran), and submit_orders takes
 * either the orders themselves or that `check_id` (exactly one of the two), so a model submitting
 * what it has just checked need not send the orders again. Admission puts the checked orders in
 * place of the id before grounding and the handler, so everything after it (the gate, the journal,
 * the audit) sees the orders as if they had been sent. An id that names no check of this run (made
 * up, or from an earlier run) is refused with `unknown_check_id`. tw-tools/1 and /2 have none of this.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../util/canonical-json.js";
import type { FailureSpec } from "./envelope.js";
import type { ContractVersion } from "./versions.js";

const PREFIX = "check:";
const HEX_CHARS = 10;
/** A check id as the schema accepts it. */
export const CHECK_ID_PATTERN = `^${PREFIX}[0-9a-f]{${HEX_CHARS}}$`;

/** The versions without check ids (frozen: a replay of their runs must see the results they recorded). */
const VERSIONS_WITHOUT: ReadonlySet<ContractVersion> = new Set(["tw-tools/1", "tw-tools/2"]);

const CHECK_TOOL = "check_orders";
const SUBMIT_TOOL = "submit_orders";

/** The check id of a batch of orders. */
export function checkIdOf(orders: unknown): string {
  return PREFIX + createHash("sha256").update(canonicalJson(orders)).digest("hex").slice(0, HEX_CHARS);
}

/** A submission's orders resolved from its check id, or the refusal of the call. */
export type Resolved = { ok: true; args: Record<string, unknown> } | { ok: false; spec: FailureSpec };

/**
 * The refusal of a submit_orders that sends both orders and a check_id, or neither (decided by the
 * arguments alone, as the model sent them: a validation refusal). Other tools: none.
 */
export function eitherOrdersOrCheckId(tool: string, args: Record<string, unknown>, example: unknown): FailureSpec | undefined {
  if (tool !== SUBMIT_TOOL) return undefined;
  const hasOrders = args.orders !== undefined;
  if (hasOrders !== (args.check_id !== undefined)) return undefined;
  const message = hasOrders ? "send either orders or check_id, not both" : "send orders (an empty list is a hold) or the check_id of a check_orders result";
  return {
    code: "invalid_tool_arguments",
    tool,
    message: `1 problem in the arguments of ${tool}: ${message}`,
    example,
    received: args,
    issues: [{ path: hasOrders ? "/check_id" : "/orders", message }],
  };
}

/** One run's checked orders, by check id. */
export class CheckedOrders {
  private readonly byId = new Map<string, unknown>();

  /** A successful check_orders' data with its check id (recorded for submit_orders); other tools' data as it is. */
  answered(tool: string, args: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown> {
    if (tool !== CHECK_TOOL || !Array.isArray(args.orders)) return data;
    const id = checkIdOf(args.orders);
    this.byId.set(id, structuredClone(args.orders));
    return { ...data, check_id: id };
  }

  /** submit_orders' arguments with the checked orders in place of a check id; other calls' arguments as they are. */
  resolve(tool: string, args: Record<string, unknown>, example: unknown): Resolved {
    const id = args.check_id;
    if (tool !== SUBMIT_TOOL || id === undefined) return { ok: true, args };
    const orders = this.byId.get(String(id));
    if (orders === undefined) {
      return {
        ok: false,
        spec: {
          code: "unknown_check_id",
          tool,
          message: `check_id ${JSON.stringify(id)} names no check_orders result of this run`,
          example,
          received: args,
          details: { known_check_ids: [...this.byId.keys()].slice(-5) },
        },
      };
    }
    const { check_id: _id, ...rest } = args;
    return { ok: true, args: { ...rest, orders: structuredClone(orders) } };
  }
}

/** The run's checked orders, or none for a version without check ids. */
export function checkedOrdersFor(version: ContractVersion): CheckedOrders | undefined {
  return VERSIONS_WITHOUT.has(version) ? undefined : new CheckedOrders();
}
