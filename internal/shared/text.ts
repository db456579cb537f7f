// Small text helpers wanted on more than one level.

/** At most `max` characters: a longer text keeps its first `max - 1` and ends with "…". */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
