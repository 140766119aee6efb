/**
 * Key bindings: one table per screen mode drives the handling (`matchKey`), the help line drawn
 * on screen (`KeyHelp`) and the `?` overlay (`HelpOverlay`), so what is shown is what is bound.
 */
import type { Keys } from "./input.js";

export interface Binding<A extends string = string> {
  action: A;
  /** How the key is shown in the help line. */
  label: string;
  help: string;
  match(input: string, key: Keys): boolean;
  /** Bound but not listed (e.g. a second key for the same action). */
  hidden?: boolean;
  /** Listed in the `?` overlay only (the help line keeps to the essentials). */
  overlayOnly?: boolean;
}

export type KeyTable<A extends string = string> = readonly Binding<A>[];

export function matchKey<A extends string>(table: KeyTable<A>, input: string, key: Keys): A | undefined {
  for (const b of table) if (b.match(input, key)) return b.action;
  return undefined;
}

/** Entries of the help line (`all`: every listed entry, for the overlay). */
export function helpEntries(table: KeyTable, all = false): Array<{ label: string; help: string }> {
  return table.filter((b) => !b.hidden && (all || !b.overlayOnly)).map((b) => ({ label: b.label, help: b.help }));
}

const plain = (k: Keys) => !k.ctrl && !k.meta;
export const char =
  (c: string) =>
  (input: string, key: Keys): boolean =>
    plain(key) && input === c;

export const isCtrlC = (input: string, key: Keys): boolean => key.ctrl && input === "c";

const interrupt = <A extends string>(help: string): Binding<A | "interrupt"> => ({ action: "interrupt", label: "Ctrl+C", help, match: isCtrlC });
export const helpKey = <A extends string>(): Binding<A | "help"> => ({ action: "help", label: "?", help: "help: every key", match: char("?") });

// ── Moving through lists and long views (the same keys everywhere) ────────────────────────────
export type MoveAction = "up" | "down" | "pageUp" | "pageDown" | "top" | "bottom";
export function moveKeys(what: string): KeyTable<MoveAction> {
  return [
    { action: "up", label: "↑/↓ j/k", help: what, match: (i, k) => k.upArrow || char("k")(i, k) },
    { action: "down", label: "↓", help: what, match: (i, k) => k.downArrow || char("j")(i, k), hidden: true },
    { action: "pageUp", label: "PgUp/PgDn", help: "page", match: (_i, k) => k.pageUp, overlayOnly: true },
    { action: "pageDown", label: "PgDn", help: "page", match: (_i, k) => k.pageDown, hidden: true },
    { action: "top", label: "g/G Home/End", help: "first/last", match: (i, k) => k.home || char("g")(i, k), overlayOnly: true },
    { action: "bottom", label: "G", help: "last", match: (i, k) => k.end || char("G")(i, k), hidden: true },
  ];
}
export const isMove = (a: string | undefined): a is MoveAction =>
  a === "up" || a === "down" || a === "pageUp" || a === "pageDown" || a === "top" || a === "bottom";

// ── Run screen ───────────────────────────────────────────────────────────────────────────────
export type RunAction = "interrupt" | "help";
export const RUN_KEYS: KeyTable<RunAction> = [helpKey<RunAction>(), interrupt<RunAction>("stop the run (nothing more is placed)")];
/** The run has finished: the console is closing, nothing is bound. */
export const RUN_FINISHED_KEYS: KeyTable<never> = [];

// ── Approval screen ──────────────────────────────────────────────────────────────────────────
export type ApprovalAction =
  | MoveAction
  | "details"
  | "portfolio"
  | "approve"
  | "edit"
  | "drop"
  | "restore"
  | "restoreAll"
  | "reject"
  | "kill"
  | "quit"
  | "help"
  | "interrupt";
export const APPROVAL_KEYS: KeyTable<ApprovalAction> = [
  ...moveKeys("select"),
  { action: "details", label: "Enter", help: "full reason & evidence", match: (_i, k) => k.return },
  { action: "portfolio", label: "p", help: "portfolio", match: char("p"), overlayOnly: true },
  { action: "approve", label: "a", help: "approve…", match: char("a") },
  { action: "edit", label: "e", help: "edit qty/limit", match: char("e") },
  { action: "drop", label: "d", help: "drop/keep", match: char("d") },
  { action: "restore", label: "u", help: "undo this order", match: char("u") },
  { action: "restoreAll", label: "U", help: "undo all edits", match: char("U"), overlayOnly: true },
  { action: "reject", label: "r", help: "reject all…", match: char("r") },
  { action: "kill", label: "K", help: "kill switch…", match: char("K") },
  { action: "quit", label: "q", help: "how to leave", match: char("q"), overlayOnly: true },
  helpKey<ApprovalAction>(),
  interrupt<ApprovalAction>("stop the run (nothing placed)"),
];

/** An order's full reason and evidence. */
export type DetailsAction = MoveAction | "back" | "help" | "interrupt";
export const APPROVAL_DETAIL_KEYS: KeyTable<DetailsAction> = [
  ...moveKeys("scroll"),
  { action: "back", label: "Esc/Enter", help: "back to the orders", match: (i, k) => k.escape || k.return || char("q")(i, k) },
  helpKey<DetailsAction>(),
  interrupt<DetailsAction>("stop the run (nothing placed)"),
];

/** The approval confirmation: only `y` arms it, only Enter after `y` sends; every other key cancels. */
export type ConfirmAction = "yes" | "send" | "interrupt" | "cancel";
export const CONFIRM_KEYS: KeyTable<ConfirmAction> = [
  { action: "yes", label: "y", help: "yes", match: char("y") },
  { action: "send", label: "Enter", help: "send (after y)", match: (_i, k) => k.return },
  interrupt<ConfirmAction>("stop the run (nothing placed)"),
  { action: "cancel", label: "any other key", help: "cancel (default no)", match: () => true },
];

export type EditAction = "switch" | "apply" | "cancel" | "interrupt" | "type";
export const EDIT_KEYS: KeyTable<EditAction> = [
  { action: "switch", label: "Tab", help: "quantity ⇄ limit", match: (_i, k) => k.tab },
  { action: "apply", label: "Enter", help: "apply & re-gate", match: (_i, k) => k.return },
  { action: "cancel", label: "Esc", help: "cancel edit", match: (_i, k) => k.escape },
  interrupt<EditAction>("stop the run (nothing placed)"),
  { action: "type", label: "←/→ Home/End", help: "move", match: (_i, k) => k.leftArrow || k.rightArrow || k.home || k.end },
  { action: "type", label: "Ctrl+U", help: "clear", match: (i, k) => k.ctrl && i === "u" },
  { action: "type", label: "0-9 . ⌫", help: "type", match: () => true },
];

/** While the `?` overlay is open: any key closes it (Ctrl+C still interrupts). */
export type OverlayAction = "close" | "interrupt";
export const overlayKeys = (interruptHelp: string): KeyTable<OverlayAction> => [
  interrupt<OverlayAction>(interruptHelp),
  { action: "close", label: "any key", help: "close help", match: () => true },
];

// ── Kill-switch reset screen ─────────────────────────────────────────────────────────────────
export type KillSwitchIdleAction = "exit" | "help" | "interrupt";
export const KILLSWITCH_DONE_KEYS: KeyTable<KillSwitchIdleAction> = [
  { action: "exit", label: "q/Esc/Enter", help: "leave", match: (i, k) => k.escape || k.return || char("q")(i, k) },
  helpKey<KillSwitchIdleAction>(),
  interrupt<KillSwitchIdleAction>("leave (exit 130)"),
];

// ── Journal browser ──────────────────────────────────────────────────────────────────────────
export type JournalListAction = MoveAction | "open" | "filter" | "account" | "clear" | "quit" | "help" | "interrupt";
export const JOURNAL_LIST_KEYS: KeyTable<JournalListAction> = [
  ...moveKeys("select"),
  { action: "open", label: "Enter", help: "open run", match: (_i, k) => k.return },
  { action: "filter", label: "/", help: "filter", match: char("/") },
  { action: "clear", label: "Esc", help: "clear filter", match: (_i, k) => k.escape },
  { action: "account", label: "v", help: "account chart", match: char("v") },
  { action: "quit", label: "q", help: "quit", match: char("q") },
  helpKey<JournalListAction>(),
  interrupt<JournalListAction>("quit (exit 130)"),
];

export type ScrollAction = MoveAction | "transcript" | "search" | "next" | "previous" | "back" | "quit" | "help" | "interrupt";
const back: Binding<ScrollAction> = { action: "back", label: "Esc/b", help: "back", match: (i, k) => k.escape || char("b")(i, k) };
const quit: Binding<ScrollAction> = { action: "quit", label: "q", help: "quit", match: char("q") };
const searchKeys: KeyTable<ScrollAction> = [
  { action: "search", label: "/", help: "search", match: char("/") },
  { action: "next", label: "n/N", help: "next/previous match", match: char("n") },
  { action: "previous", label: "N", help: "previous match", match: char("N"), hidden: true },
];
export const JOURNAL_DETAIL_KEYS: KeyTable<ScrollAction> = [
  ...moveKeys("scroll"),
  ...searchKeys,
  { action: "transcript", label: "t", help: "transcript", match: char("t") },
  back,
  quit,
  helpKey<ScrollAction>(),
  interrupt<ScrollAction>("quit (exit 130)"),
];
export const JOURNAL_TRANSCRIPT_KEYS: KeyTable<ScrollAction> = [
  ...moveKeys("scroll"),
  ...searchKeys,
  back,
  quit,
  helpKey<ScrollAction>(),
  interrupt<ScrollAction>("quit (exit 130)"),
];

export type AccountAction = "back" | "quit" | "help" | "interrupt";
export const JOURNAL_ACCOUNT_KEYS: KeyTable<AccountAction> = [
  { action: "back", label: "Esc/b", help: "back", match: (i, k) => k.escape || char("b")(i, k) || char("v")(i, k) },
  { action: "quit", label: "q", help: "quit", match: char("q") },
  helpKey<AccountAction>(),
  interrupt<AccountAction>("quit (exit 130)"),
];
