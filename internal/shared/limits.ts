// Limits on what comes in (issue 48): text a person or a file gives (a goal, an order), what the game answers (a tool
// result), what the model answers (a reply), a fleet file, and what the bridge reads off the network. One place for
// the values, so the README's "Limits" section, the checks and their tests name the same numbers. Text the person
// gave is refused whole with one line (it was theirs to shorten); text from a game or a model is kept as head and
// tail with a marker (rule 4: it ends with what matters), so a run goes on.
import { UsageError } from './errors.js';

/** A goal (`--autoplay GOAL`, `/autoplay GOAL`, a fleet file's `goal:`), in characters. */
export const GOAL_MAX_CHARS = 4000;
/** An order for a fleet captain (`skipper fleet order`, the bridge's order box) or one chat line, in characters. */
export const ORDER_MAX_CHARS = 4000;
/**
 * What the game layer reads of one answer, in characters (head and tail kept): room for the largest real answers
 * (a galaxy map) to be read whole into data, while a runaway answer is cut before anything reads it.
 */
export const GAME_ANSWER_MAX_CHARS = 1024 * 1024;
/**
 * A JSON string in a game's HTTP answer, in bytes, cut as the answer arrives (internal/game/long-strings.ts): just
 * under what the game layer reads, so that layer never cuts again, and a runaway answer never sits whole in memory.
 */
export const GAME_STRING_MAX_BYTES = GAME_ANSWER_MAX_CHARS - 128;
/** A tool result as stored and as the model may see it, in characters (head and tail kept, a marker between). */
export const TOOL_RESULT_MAX_CHARS = 64 * 1024;
/** A model reply's text, its reasoning and each tool call's arguments, in characters (head and tail kept). */
export const MODEL_REPLY_MAX_CHARS = 64 * 1024;
/**
 * A streamed model reply read before it is stopped, in characters (text, reasoning and arguments together): no model
 * writes this much in one reply (128K output tokens is about 512K characters), so one that does is not stopping.
 */
export const MODEL_REPLY_READ_MAX_CHARS = 2 * 1024 * 1024;
/** A fleet file, in bytes. */
export const FLEET_FILE_MAX_BYTES = 1024 * 1024;
/** YAML aliases (`*name`) a fleet file may use: a few are handy for shared settings, a bomb needs thousands. */
export const FLEET_FILE_MAX_ALIASES = 100;
/** A request body the bridge (`skipper web`) reads, in bytes. */
export const WEB_BODY_MAX_BYTES = 16 * 1024;
/** How long the bridge waits for a request's headers and body, in milliseconds. */
export const WEB_REQUEST_TIMEOUT_MS = 10_000;
/** Event streams the bridge serves at once; one more is answered 503 with Retry-After. */
export const WEB_EVENT_STREAMS_MAX = 64;

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Keeps the first ~1/3 and the last ~2/3 of `maxChars` with a `[… N chars omitted …]` marker in between (rule 4):
 * tool results end with what matters (totals, errors, warnings), so the tail gets the larger share. Never splits a
 * surrogate pair. A text within `maxChars` is returned as it is.
 */
export function truncateHeadTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const markerFor = (omitted: number): string => `\n[… ${count(omitted)} chars omitted …]\n`;
  const cut = (markerLength: number): { head: number; tailStart: number; omitted: number } => {
    const available = Math.max(0, maxChars - markerLength);
    let head = Math.floor(available / 3);
    let tailStart = text.length - (available - head);
    if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head -= 1;
    if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart += 1;
    return { head, tailStart, omitted: tailStart - head + omittedBefore(text, head, tailStart) };
  };
  // The marker's length depends on the omitted count: bounded by the text's length, unless a cut before (whose
  // marker is in the middle) left out more.
  const first = cut(markerFor(text.length).length);
  const { head, tailStart, omitted } =
    markerFor(first.omitted).length > markerFor(text.length).length ? cut(markerFor(first.omitted).length) : first;
  return copied(text.slice(0, head) + markerFor(omitted) + text.slice(tailStart));
}

const MARKER = /\n\[… ([\d,]+) chars omitted …\]\n/g;

/**
 * What earlier cuts left out inside [from, to): a text cut once already (a game's answer cut as it arrived) keeps
 * that cut's marker; cut again, the one marker left says how much is missing in all.
 */
function omittedBefore(text: string, from: number, to: number): number {
  let more = 0;
  MARKER.lastIndex = from;
  for (let match = MARKER.exec(text); match && match.index + match[0].length <= to; match = MARKER.exec(text)) {
    more += Number((match[1] ?? '0').replace(/,/g, '')) - match[0].length;
  }
  return Math.max(0, more);
}

/**
 * A fresh copy of `text`: V8 keeps a slice of a long string as a view of it, so a head and tail kept in a stored
 * message would hold the whole 20 MB answer in memory for as long as the message lives.
 */
function copied(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Why a text a person gave is refused, or undefined when it fits: `what` names it as the person typed it. */
export function textTooLong(text: string, what: string, maxChars: number): string | undefined {
  if (text.length <= maxChars) return undefined;
  return `${what} is ${count(text.length)} characters; the most is ${count(maxChars)}: shorten it`;
}

/** A goal over GOAL_MAX_CHARS is a usage error (exit 2) naming where it came from. */
export function checkGoalText(goal: string, what = 'the goal'): void {
  const problem = textTooLong(goal, what, GOAL_MAX_CHARS);
  if (problem) throw new UsageError(problem);
}

/** An order over ORDER_MAX_CHARS is a usage error (exit 2). */
export function checkOrderText(text: string, what = 'the order'): void {
  const problem = textTooLong(text, what, ORDER_MAX_CHARS);
  if (problem) throw new UsageError(problem);
}
