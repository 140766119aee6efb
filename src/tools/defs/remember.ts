import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { SymbolField } from "./order.js";

export const NoteKind = Type.Union([Type.Literal("observation"), Type.Literal("lesson"), Type.Literal("plan"), Type.Literal("watch")], {
  description: "The note's kind.",
});

const Input = Type.Object(
  {
    kind: NoteKind,
    text: Type.String({ minLength: 1, maxLength: 500, description: "The note." }),
    symbol: Type.Optional(SymbolField),
    supersedes: Type.Optional(Type.String({ minLength: 1, maxLength: 20, pattern: "^n-[0-9]+$", description: "Id of the note this one replaces." })),
    keep_existing: Type.Optional(
      Type.Boolean({
        description: "Save beside live notes of the same symbol and kind.",
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
    "Save a short note for later runs; replace an outdated one with `supersedes`. Live notes of the same symbol and kind are answered as memory_conflict, with retry arguments.",
  example: { kind: "lesson", text: "Use limits nearer the last close.", symbol: "ALFA" },
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
