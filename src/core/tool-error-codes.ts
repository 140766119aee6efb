/**
 * The closed set of tool error codes. Each has a stable meaning, a retryable flag (true: repair the
 * call and try again in this run; false: do not repeat the call) and a default repair instruction.
 * This table drives the envelope, the pending bookkeeping and the docs.
 */
export interface ErrorCodeSpec {
  retryable: boolean;
  meaning: string;
  instruction: string;
}

export const TOOL_ERROR_CODES = {
  unknown_tool: {
    retryable: false,
    meaning: "The tool name is not in the catalogue.",
    instruction: "Call one of the tools listed in `available_tools`; do not repeat this call.",
  },
  invalid_tool_arguments_json: {
    retryable: true,
    meaning: "The arguments are not a JSON object (malformed JSON, or not an object).",
    instruction: "Send the arguments as one JSON object shaped like `valid_arguments_example`.",
  },
  invalid_tool_arguments: {
    retryable: true,
    meaning: "The arguments break the tool's input schema; every issue is listed.",
    instruction: "Fix every listed issue (and add the missing fields), then call the tool again.",
  },
  tool_call_limit_reached: {
    retryable: false,
    meaning: "The tool's per-run call limit is used up.",
    instruction: "Do not call this tool again in this run; work with what you have, then call submit_orders.",
  },
  tool_execution_failed: {
    retryable: false,
    meaning: "The tool failed while running; the message says what failed.",
    instruction: "Do not repeat this call; continue without its result.",
  },
  unknown_symbol: {
    retryable: true,
    meaning: "The symbol is not in the allowlisted universe.",
    instruction: "Use a symbol returned by list_universe.",
  },
  unknown_sector: {
    retryable: true,
    meaning: "The sector is not one of the universe's sectors.",
    instruction: "Use one of `valid_sectors`.",
  },
  data_unavailable: {
    retryable: false,
    meaning: "The data needed is not available before the run's trading day.",
    instruction: "Do not repeat this call; choose another instrument or hold.",
  },
  unknown_evidence_id: {
    retryable: true,
    meaning: "An order cites an evidence id that no tool returned in this run.",
    instruction: "Cite only `evidence_id` values returned by get_portfolio, get_price_history or other tools in this run.",
  },
  ungrounded_order: {
    retryable: true,
    meaning:
      "An order's evidence includes nothing about its own instrument (its get_price_history result, or a search_news result that names it); undated evidence never grounds an order alone.",
    instruction:
      "Cite, for each order, the evidence_id of that instrument's get_price_history result or of a dated search_news result that names it (call the tool first if needed), then call again.",
  },
  unknown_check_id: {
    retryable: true,
    meaning: "submit_orders names a check_id that no check_orders call of this run returned (tw-tools/3).",
    instruction: "Send the orders themselves in `orders`, or the `check_id` a check_orders call of this run returned.",
  },
  search_failed: {
    retryable: false,
    meaning: "The news provider failed (network, quota, or an error answer); nothing was returned.",
    instruction: "Do not repeat this search; decide from the other evidence or hold.",
  },
  ambiguous_masked_symbol: {
    retryable: true,
    meaning: "A partial instrument alias matches several instruments.",
    instruction: "Call again with one of `retry_argument_choices` (each a complete arguments object), choosing the instrument you meant.",
  },
  orders_blocked: {
    retryable: true,
    meaning: "The risk gate blocked at least one order of submit_orders; nothing was submitted.",
    instruction:
      "This is your only revision: fix or drop the blocked orders and call submit_orders again. Next time blocked orders are dropped and the rest go ahead.",
  },
  pending_corrections: {
    retryable: true,
    meaning: "submit_orders was refused because retryable errors are still pending.",
    instruction: "Repair each pending call, or list its error code in `abandon_error_codes` with an `abandon_explanation`, then call submit_orders again.",
  },
  already_submitted: {
    retryable: false,
    meaning: "submit_orders already succeeded in this run.",
    instruction: "The run is over; do not call any more tools.",
  },
  note_not_found: {
    retryable: true,
    meaning: "A memory note id does not exist.",
    instruction: "Use an id returned by recall.",
  },
  memory_full: {
    retryable: false,
    meaning: "The memory holds its maximum number of live notes.",
    instruction: "Supersede an existing note (pass `supersedes`) instead of adding a new one.",
  },
  memory_conflict: {
    retryable: true,
    meaning: "Live notes on the same instrument and kind may contradict the new note; it was not saved.",
    instruction:
      "Pick one of `retry_argument_choices`: supersede a conflicting note (its `supersedes` is set), or keep both (`keep_existing: true`), and call remember with it.",
  },
  watchlist_full: {
    retryable: false,
    meaning: "The watchlist holds its maximum number of live entries.",
    instruction: "Remove an entry (remove_watchlist) before adding another.",
  },
  not_on_watchlist: {
    retryable: true,
    meaning: "The symbol is not on the live watchlist.",
    instruction: "Use a symbol listed in `watched` (or returned by get_watchlist).",
  },
  not_allowed_in_mode: {
    retryable: true,
    meaning: "The run's mode does not allow this (watch mode places no order).",
    instruction: "In watch mode call submit_orders with an empty order list; keep ideas on the watchlist.",
  },
  standing_orders_full: {
    retryable: false,
    meaning: "The maximum number of open standing orders is reached.",
    instruction: "Cancel a standing order (cancel_standing_order) before proposing another.",
  },
  standing_order_not_found: {
    retryable: true,
    meaning: "The id names no open (proposed or active) standing order.",
    instruction: "Use an id listed in `open` (or returned by list_standing_orders).",
  },
  sandbox_error: {
    retryable: true,
    meaning: "The sandboxed code threw; `correction.traceback` holds the error and its frames.",
    instruction: "Fix the code as the traceback shows and call execute_code again, or abandon the code.",
  },
  sandbox_timeout: {
    retryable: true,
    meaning: "The sandboxed code ran past its wall-clock deadline and was terminated.",
    instruction: "Make the code do less (fewer symbols, shorter windows, no unbounded loops) and call execute_code again.",
  },
  sandbox_memory_exceeded: {
    retryable: true,
    meaning: "The sandboxed code exceeded the sandbox's memory cap.",
    instruction: "Hold less data at once (use `limit`, aggregate as you go) and call execute_code again.",
  },
  sandbox_retry_budget_exhausted: {
    retryable: false,
    meaning: "execute_code failed as often as a run allows; the sandbox refuses further code this run.",
    instruction: "Do not call execute_code again in this run; continue with the other tools.",
  },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ToolErrorCode = keyof typeof TOOL_ERROR_CODES;

export const TOOL_ERROR_CODE_LIST = Object.keys(TOOL_ERROR_CODES) as ToolErrorCode[];

export function isToolErrorCode(code: string): code is ToolErrorCode {
  return Object.hasOwn(TOOL_ERROR_CODES, code);
}
