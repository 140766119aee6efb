/**
 * Tool-use ids as the conversation needs them: every tool_use block of the whole transcript has its
 * own id, because each tool_result answers exactly one of them (both providers refuse a conversation
 * where two results share an id, or an id has none). An answer whose ids are missing, or repeat an id
 * of the same turn or an earlier one, has them repaired here, deterministically (from the turn and
 * the block's place only), so the loop run again on the recorded answers (replay) makes the same
 * ids and sends the same requests. Pure.
 */
import type { ContentBlock } from "./types.js";

/** Anthropic's pattern for a tool_use id (OpenAI's ids are free text); repaired ids follow it. */
const USABLE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The answer's content with each tool_use id unique among `taken` (the ids of earlier turns), and
 * `taken` grown by them. Blocks whose id is usable and new are kept as they are (same object).
 */
export function uniqueToolUseIds(content: readonly ContentBlock[], taken: Set<string>, turn: number): ContentBlock[] {
  return content.map((block, i) => {
    if (block.type !== "tool_use") return block;
    // A hostile endpoint may send any id (or none): it is checked, not assumed.
    const id = typeof block.id === "string" ? block.id : "";
    if (id !== "" && !taken.has(id)) {
      taken.add(id);
      return block;
    }
    const base = `tw_${turn}_${i}${USABLE.test(id) ? `_${id}`.slice(0, 40) : ""}`;
    let fresh = base;
    for (let n = 2; taken.has(fresh); n++) fresh = `${base}_${n}`;
    taken.add(fresh);
    return { ...block, id: fresh };
  });
}
