// The block of the game's events in a turn's input: written by the game layer (eventsBlock), read back by the
// terminal's renderer and the built-in autopilot. One heading and one reading of a line, so they cannot drift apart.

export const EVENTS_HEADING = 'Events since your last turn:';

/** An event line's kind (as the game layer writes it: "[tick N] chat (system): …", "market: …"), or undefined. */
export function eventKind(line: string): string | undefined {
  return /^(?:\[tick \d+\] )?([^\s:(]+)(?: \([^)]*\))?:/.exec(line)?.[1];
}

/** The kinds of the events a turn's input lists, in order (undefined for a line of no known shape); none without
 * the block. The block is its heading's "- " lines. */
export function eventKinds(text: string): Array<string | undefined> {
  const at = text.indexOf(EVENTS_HEADING);
  if (at < 0) return [];
  const kinds: Array<string | undefined> = [];
  for (const line of text
    .slice(at + EVENTS_HEADING.length)
    .split('\n')
    .slice(1)) {
    if (!line.startsWith('- ')) break;
    kinds.push(eventKind(line.slice(2)));
  }
  return kinds;
}
