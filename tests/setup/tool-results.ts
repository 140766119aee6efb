/**
 * Every tool result the suite's real handlers produce is checked against its tool's output schema:
 * the run's handler map hands each successful answer to this checker (src/tools/result-check.ts),
 * and tests that call a handler directly wrap it in `checked` (tests/tools/checked.ts), which uses
 * the same check. A result with a field its schema lacks, a missing field or a wrong type throws
 * where it is produced, and fails the test that produced it here, by name, even where the caller
 * turned the throw into an error envelope. (CLI children the tests spawn run the same check,
 * armed by TRADEWARDEN_CHECK_TOOL_RESULTS from tests/global-setup.ts, and fail by their exit code.)
 */
import { afterEach, expect } from "vitest";
import { schemaCheck, TOOL_RESULT_CHECK } from "../../src/tools/result-schema.js";

const violations: string[] = [];

export const checkResult = schemaCheck((message) => violations.push(message));

(globalThis as Record<symbol, unknown>)[TOOL_RESULT_CHECK] = checkResult;

/** The violations recorded so far (and forgets them): for a test that provokes one on purpose. */
export function takeViolations(): string[] {
  return violations.splice(0);
}

afterEach(() => {
  expect(takeViolations(), "tool results outside their output schemas").toEqual([]);
});
