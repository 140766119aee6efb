/**
 * A text that arrives in pieces (a model's streamed text) through the one redactor: each piece
 * goes out as soon as it cannot be part of a secret. A tail that could be the beginning of a secret
 * (in any form the redactor knows) is held back until the next piece settles it, or `flush` ends
 * the text. Whole forms are replaced in the assembled text, so a key split across pieces is caught.
 * Pure: no I/O, no clock.
 */
import { type Redactor, redactor } from "./redact.js";

export class StreamRedactor {
  private held = "";

  constructor(private readonly r: Redactor = redactor) {}

  /** The part of the text so far that can be shown now (redacted); the rest is held. */
  push(piece: string): string {
    if (this.r.size === 0) return piece;
    const text = this.r.text(this.held + piece);
    const cut = this.r.heldFrom(text);
    this.held = text.slice(cut);
    return text.slice(0, cut);
  }

  /** The held tail (redacted; a tail that is the beginning of a key too): the text has ended. */
  flush(): string {
    const rest = this.r.ending(this.held);
    this.held = "";
    return rest;
  }
}
