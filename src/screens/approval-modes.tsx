/** The approval screen's modes: their state, their key tables and the prompt line each draws. */
import { Box, Text } from "ink";
import type { ApprovalRow } from "./approval-model.js";
import { APPROVAL_DETAIL_KEYS, APPROVAL_KEYS, CONFIRM_KEYS, EDIT_KEYS, type KeyTable, overlayKeys } from "./keys.js";
import { LineField, type LineState, type PromptAction, promptKeys } from "./line-editor.js";
import { type Tone, useTheme } from "./theme.js";

export const HALT_WORD = "HALT";

export type ApprovalMode =
  | { kind: "browse" }
  | { kind: "details"; offset: number }
  | { kind: "portfolio"; offset: number }
  | { kind: "confirm"; armed: boolean; since: number }
  | { kind: "edit"; field: "quantity" | "limit"; quantity: LineState; limit: LineState }
  | { kind: "reject"; line: LineState }
  | { kind: "haltWord"; line: LineState }
  | { kind: "haltReason"; line: LineState }
  | { kind: "done"; text: string };

export interface ApprovalScreenState {
  rows: ApprovalRow[];
  selected: number;
  mode: ApprovalMode;
  message: { tone: Tone; text: string } | null;
  /** The `?` overlay is open. */
  help: boolean;
  /** Keys of this read are dropped (the rest of a burst that cancelled a confirmation). */
  swallowRead: number;
  /** Until then (epoch ms) keys other than Ctrl+C are dropped: type-ahead after a cancelled confirmation. */
  quietUntil: number;
}

const STOP = "stop the run (nothing placed)";
const REJECT_KEYS = promptKeys("reject all", "back to the orders", STOP);
const HALT_WORD_KEYS = promptKeys("continue", "back to the orders", STOP);
const HALT_REASON_KEYS = promptKeys("trip the kill switch", "back to the orders", STOP);
export const OVERLAY_KEYS = overlayKeys(STOP);

export function promptTable(kind: "reject" | "haltWord" | "haltReason"): KeyTable<PromptAction> {
  return kind === "reject" ? REJECT_KEYS : kind === "haltWord" ? HALT_WORD_KEYS : HALT_REASON_KEYS;
}

export function modeKeys(mode: ApprovalMode): KeyTable {
  switch (mode.kind) {
    case "browse":
      return APPROVAL_KEYS;
    case "details":
    case "portfolio":
      return APPROVAL_DETAIL_KEYS;
    case "confirm":
      return CONFIRM_KEYS;
    case "edit":
      return EDIT_KEYS;
    case "reject":
      return REJECT_KEYS;
    case "haltWord":
      return HALT_WORD_KEYS;
    case "haltReason":
      return HALT_REASON_KEYS;
    case "done":
      return [];
  }
}

export function ModeLine({ mode, approvable, excluded, width }: { mode: ApprovalMode; approvable: number; excluded: number; width: number }) {
  const th = useTheme();
  switch (mode.kind) {
    case "browse":
    case "details":
    case "portfolio":
      return (
        <Text dimColor wrap="truncate-end">
          Orders reach the broker only after you approve them; blocked orders are never sent.
        </Text>
      );
    case "confirm":
      return mode.armed ? (
        <Text bold color={th.c("warn")} wrap="truncate-end">
          Press Enter to SEND {approvable} order(s) to the broker (any other key cancels).
        </Text>
      ) : (
        <Text bold color={th.c("warn")} wrap="truncate-end">
          Send {approvable} order(s){excluded ? ` (${excluded} left out)` : ""}? Cannot be undone: y, then Enter; any other key cancels.
        </Text>
      );
    case "edit":
      return (
        <Box>
          <Text bold color={th.c("accent")}>
            Edit:{" "}
          </Text>
          <LineField label={`${mode.field === "quantity" ? "▸" : " "}quantity`} line={mode.quantity} focused={mode.field === "quantity"} />
          <Text> </Text>
          <LineField label={`${mode.field === "limit" ? "▸" : " "}limit`} line={mode.limit} focused={mode.field === "limit"} />
          <Text dimColor wrap="truncate-end">
            {" "}
            (quantity can only shrink; the edit is re-gated)
          </Text>
        </Box>
      );
    case "reject":
      return <LineField label="Reject all orders. Reason (optional):" line={mode.line} width={width} />;
    case "haltWord":
      return <LineField tone="error" label={`KILL SWITCH halts trading and liquidates holdings. Type ${HALT_WORD}:`} line={mode.line} width={width} />;
    case "haltReason":
      return <LineField tone="error" label="Reason for tripping the kill switch (required):" line={mode.line} width={width} />;
    case "done":
      return (
        <Text bold color={th.c("accent")}>
          {mode.text}
        </Text>
      );
  }
}
