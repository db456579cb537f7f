// Small text helpers wanted on more than one level.

/** At most `max` characters: a longer text keeps its first `max - 1` and ends with "…". */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `text` as a literal inside a regular expression (secrets are matched as written, whatever they contain). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
