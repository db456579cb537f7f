// Small text helpers wanted on more than one level.

/** At most `max` characters: a longer text keeps its first `max - 1` and ends with "…". */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `text` as a literal inside a regular expression (secrets are matched as written, whatever they contain). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text.replace(/\s+/g, ' ').trim().slice(0, max)`, reading only as much of the text as it needs: a long tool result
 * is not flattened whole for its first few hundred characters. A head of the text flattens to a head of the whole, so
 * once a head gives more than `max` characters (and one to spare for a trailing space the trim would drop), its
 * first `max` are the answer.
 */
export function flatHead(text: string, max: number): string {
  for (let take = Math.max(64, max * 2); take < text.length; take *= 4) {
    const head = text.slice(0, take).replace(/\s+/g, ' ').trimStart();
    if (head.length >= max + 2) return head.slice(0, max);
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, max);
}
