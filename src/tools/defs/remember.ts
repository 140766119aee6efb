import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { SymbolField } from "./order.js";

export const NoteKind = Type.Union([Type.Literal("observation"), Type.Literal("lesson"), Type.Literal("plan"), Type.Literal("watch")], {
  description: "observation (a fact seen), lesson (what to do differently), plan (an intention), watch (something to re-check).",
});

const Input = Type.Object(
  {
    kind: NoteKind,
    text: Type.String({ minLength: 1, maxLength: 500, description: "The note, at most 500 characters." }),
    symbol: Type.Optional(SymbolField),
    supersedes: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, pattern: "^n-[0-9]+$", description: 'Id of an older note this one replaces (e.g. "n-4").' }),
    ),
    keep_existing: Type.Optional(
      Type.Boolean({
        description:
          "Save even though live notes on the same symbol and kind exist (they stay live). Without it, such notes are returned as conflict candidates and nothing is saved.",
      }),
    ),
  },
  { additionalProperties: false, description: "A short note that persists across runs." },
);

/** The note as the journal saved it (src/journal/types.ts, `Note`). */
const SavedNote = Type.Object(
  {
    id: Type.String(),
    kind: NoteKind,
    text: Type.String(),
    symbol: Type.Optional(Type.String()),
    supersedes: Type.Optional(Type.String()),
    superseded_by: Type.Optional(Type.String()),
    status: Type.Union([Type.Literal("live"), Type.Literal("superseded")]),
    run_id: Type.String(),
    created_at: Type.String(),
    evidence_ids: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

const Output = Type.Object({ success: Type.Literal(true), note: SavedNote }, { additionalProperties: false });

export const remember = defineTool({
  name: "remember",
  group: "memory",
  kind: "write",
  description:
    "Save a short typed note for future runs (they persist in the journal). Replace an outdated note by passing its id in `supersedes` rather than adding a contradicting one. A note on a symbol that already has live notes of the same kind is not saved at first: the answer (memory_conflict) lists them as conflict candidates with a complete retry argument object to supersede each, or to keep both. Notes are capped in number.",
  example: { kind: "lesson", text: "ALFA gapped below my limit twice; use limits nearer the last close.", symbol: "ALFA" },
  successSummary:
    "success=true with note {id, kind, text, symbol, created_at, supersedes}; a possible contradiction instead fails with memory_conflict and correction.conflict_candidates[] and correction.retry_argument_choices[].",
  input: Input,
  output: Output,
  mutates: true,
  grounded: false,
  callLimit: 5,
  summarize: (r) => {
    const n = r.note;
    return `note ${n.id} saved (${n.kind}${n.symbol ? `, ${n.symbol}` : ""})${n.supersedes ? `, supersedes ${n.supersedes}` : ""}`;
  },
});
