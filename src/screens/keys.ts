/**
 * Key bindings: one table per screen mode drives both the handling (`matchKey`) and the help line
 * drawn on screen (`KeyHelp`), so what is shown is what is bound.
 */
import type { Key } from "ink";

export interface Binding<A extends string = string> {
  action: A;
  /** How the key is shown in the help line. */
  label: string;
  help: string;
  match(input: string, key: Key): boolean;
  /** Bound but not listed (e.g. a second key for the same action). */
  hidden?: boolean;
}

export type KeyTable<A extends string = string> = readonly Binding<A>[];

export function matchKey<A extends string>(table: KeyTable<A>, input: string, key: Key): A | undefined {
  for (const b of table) if (b.match(input, key)) return b.action;
  return undefined;
}

export function helpEntries(table: KeyTable): Array<{ label: string; help: string }> {
  return table.filter((b) => !b.hidden).map((b) => ({ label: b.label, help: b.help }));
}

const plain = (k: Key) => !k.ctrl && !k.meta;
const char = (c: string) => (input: string, key: Key) => plain(key) && input === c;

export const isCtrlC = (input: string, key: Key): boolean => key.ctrl && input === "c";

const interrupt = (help: string): Binding<"interrupt"> => ({ action: "interrupt", label: "Ctrl+C", help, match: isCtrlC });

// ── Run screen ───────────────────────────────────────────────────────────────────────────────
export const RUN_KEYS: KeyTable<"interrupt"> = [interrupt("cancel the run (nothing more is placed)")];

// ── Approval screen ──────────────────────────────────────────────────────────────────────────
export type ApprovalAction = "up" | "down" | "approve" | "edit" | "drop" | "restore" | "reject" | "kill" | "interrupt";
export const APPROVAL_KEYS: KeyTable<ApprovalAction> = [
  { action: "up", label: "↑/↓", help: "select", match: (_i, k) => k.upArrow },
  { action: "down", label: "↓", help: "select", match: (_i, k) => k.downArrow, hidden: true },
  { action: "approve", label: "a", help: "approve…", match: char("a") },
  { action: "edit", label: "e", help: "edit qty/limit", match: char("e") },
  { action: "drop", label: "d", help: "drop/keep", match: char("d") },
  { action: "restore", label: "u", help: "undo edits", match: char("u") },
  { action: "reject", label: "r", help: "reject all…", match: char("r") },
  { action: "kill", label: "k", help: "kill switch…", match: char("k") },
  interrupt("cancel run"),
];

/** The approval confirmation: only `y` arms it, only Enter after `y` sends; every other key cancels. */
export type ConfirmAction = "yes" | "send" | "interrupt" | "cancel";
export const CONFIRM_KEYS: KeyTable<ConfirmAction> = [
  { action: "yes", label: "y", help: "yes", match: char("y") },
  { action: "send", label: "Enter", help: "send (after y)", match: (_i, k) => k.return },
  interrupt("cancel run"),
  { action: "cancel", label: "any other key", help: "cancel (default no)", match: () => true },
];

export type EditAction = "switch" | "apply" | "cancel" | "interrupt" | "type";
export const EDIT_KEYS: KeyTable<EditAction> = [
  { action: "switch", label: "Tab", help: "quantity ⇄ limit", match: (_i, k) => k.tab },
  { action: "apply", label: "Enter", help: "apply & re-gate", match: (_i, k) => k.return },
  { action: "cancel", label: "Esc", help: "cancel edit", match: (_i, k) => k.escape },
  interrupt("cancel run"),
  { action: "type", label: "0-9 . ⌫", help: "type", match: () => true },
];

export type PromptAction = "submit" | "cancel" | "interrupt" | "type";
export const promptKeys = (submitHelp: string, cancelHelp = "cancel"): KeyTable<PromptAction> => [
  { action: "submit", label: "Enter", help: submitHelp, match: (_i, k) => k.return },
  { action: "cancel", label: "Esc", help: cancelHelp, match: (_i, k) => k.escape },
  interrupt("cancel run"),
  { action: "type", label: "type", help: "text", match: () => true, hidden: true },
];

// ── Kill-switch reset screen ─────────────────────────────────────────────────────────────────
export const KILLSWITCH_PROMPT_KEYS: KeyTable<PromptAction> = [
  { action: "submit", label: "Enter", help: "next", match: (_i, k) => k.return },
  { action: "cancel", label: "Esc", help: "leave without changes", match: (_i, k) => k.escape },
  { ...interrupt("leave without changes") },
  { action: "type", label: "type", help: "text", match: () => true, hidden: true },
];
export type KillSwitchIdleAction = "exit" | "interrupt";
export const KILLSWITCH_DONE_KEYS: KeyTable<KillSwitchIdleAction> = [
  { action: "exit", label: "q/Esc/Enter", help: "leave", match: (i, k) => k.escape || k.return || (plain(k) && i === "q") },
  interrupt("leave"),
];

// ── Journal browser ──────────────────────────────────────────────────────────────────────────
export type JournalListAction = "up" | "down" | "open" | "filter" | "account" | "clear" | "quit" | "interrupt";
export const JOURNAL_LIST_KEYS: KeyTable<JournalListAction> = [
  { action: "up", label: "↑/↓", help: "select", match: (_i, k) => k.upArrow },
  { action: "down", label: "↓", help: "select", match: (_i, k) => k.downArrow, hidden: true },
  { action: "open", label: "Enter", help: "open run", match: (_i, k) => k.return },
  { action: "filter", label: "/", help: "filter", match: char("/") },
  { action: "clear", label: "Esc", help: "clear filter", match: (_i, k) => k.escape },
  { action: "account", label: "v", help: "account chart", match: char("v") },
  { action: "quit", label: "q", help: "quit", match: char("q") },
  interrupt("quit"),
];

export type ScrollAction = "up" | "down" | "pageUp" | "pageDown" | "top" | "bottom" | "transcript" | "back" | "quit" | "interrupt";
const scrollBase: KeyTable<ScrollAction> = [
  { action: "up", label: "↑/↓", help: "scroll", match: (_i, k) => k.upArrow },
  { action: "down", label: "↓", help: "scroll", match: (_i, k) => k.downArrow, hidden: true },
  { action: "pageUp", label: "PgUp/PgDn", help: "page", match: (_i, k) => k.pageUp },
  { action: "pageDown", label: "PgDn", help: "page", match: (_i, k) => k.pageDown, hidden: true },
  { action: "top", label: "g/G", help: "top/end", match: (i, k) => k.home || char("g")(i, k) },
  { action: "bottom", label: "G", help: "end", match: (i, k) => k.end || char("G")(i, k), hidden: true },
];
const back: Binding<ScrollAction> = { action: "back", label: "Esc/b", help: "back", match: (i, k) => k.escape || char("b")(i, k) };
const quit: Binding<ScrollAction> = { action: "quit", label: "q", help: "quit", match: char("q") };
export const JOURNAL_DETAIL_KEYS: KeyTable<ScrollAction> = [
  ...scrollBase,
  { action: "transcript", label: "t", help: "transcript", match: char("t") },
  back,
  quit,
  interrupt("quit"),
];
export const JOURNAL_TRANSCRIPT_KEYS: KeyTable<ScrollAction> = [...scrollBase, back, quit, interrupt("quit")];

export type AccountAction = "back" | "quit" | "interrupt";
export const JOURNAL_ACCOUNT_KEYS: KeyTable<AccountAction> = [
  { action: "back", label: "Esc/b", help: "back", match: (i, k) => k.escape || char("b")(i, k) || char("v")(i, k) },
  { action: "quit", label: "q", help: "quit", match: char("q") },
  interrupt("quit"),
];
