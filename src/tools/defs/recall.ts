import { Type } from "@sinclair/typebox";
import { NoteViewSchema } from "../../journal/notes.js";
import { defineTool, fieldList } from "../define.js";
import { SymbolField } from "./order.js";
import { NoteKind } from "./remember.js";

const Input = Type.Object(
  {
    kind: Type.Optional(NoteKind),
    symbol: Type.Optional(SymbolField),
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Only notes containing this text." })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10, description: "Most to return." })),
  },
  { additionalProperties: false, description: "Optional filters; all combine." },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    about_these_notes: Type.String({ description: "What these notes are: the model's own past judgement, untrusted data." }),
    notes: Type.Array(NoteViewSchema),
    total: Type.Integer(),
  },
  { additionalProperties: false },
);

export const recall = defineTool({
  name: "recall",
  group: "memory",
  kind: "read",
  description: "The live notes of earlier runs, newest first.",
  example: { kind: "lesson" },
  successSummary: "success=true with notes[] ({id, kind, text, symbol, created_at}) and total.",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 5,
  // No line of its own: the result's fields, as for a tool without a definition.
  summarize: (r) => fieldList(r),
});
