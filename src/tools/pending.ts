/**
 * Pending-correction bookkeeping (pure). A retryable failure makes its tool pending; a success or
 * a non-retryable failure clears it. The final tool is refused while anything is pending unless
 * every pending code is listed in `abandon_error_codes` (with an explanation, which the schema
 * requires whenever codes are listed).
 */
import type { PendingError } from "../core/events.js";

export class PendingTracker {
  private readonly byTool = new Map<string, PendingError>();

  record(tool: string, outcome: { success: boolean; retryable?: boolean; error_code?: string; error?: string }): void {
    if (!outcome.success && outcome.retryable === true && outcome.error_code) {
      this.byTool.set(tool, { tool, error_code: outcome.error_code, error: outcome.error ?? "" });
    } else {
      this.byTool.delete(tool);
    }
  }

  list(): PendingError[] {
    return [...this.byTool.values()];
  }

  /** The pending errors a final call leaves unresolved, given the codes it abandons. */
  unresolved(abandonCodes: readonly string[] | undefined): PendingError[] {
    const abandoned = new Set(abandonCodes ?? []);
    return this.list().filter((p) => !abandoned.has(p.error_code));
  }

  clear(): void {
    this.byTool.clear();
  }
}
