// A game's HTTP answer read with its long strings cut as the bytes arrive (issue 48: peak memory). A JSON-RPC answer
// (a JSON body, or the `data:` lines of an event stream) carries a tool result as one JSON string; read whole, a
// 20 MB result is held three times over (the bytes, the text, the parsed string) before the game layer keeps a
// megabyte of it. Here every JSON string literal longer than the limit keeps its head (a third) and its tail (two
// thirds) with the same `[… N chars omitted …]` marker the game layer writes (truncateHeadTail), so what the layer
// reads is what it would have kept, and the answer is never more than the limit per string in memory. The output is
// valid JSON wherever the input was: cuts fall between characters and outside escapes.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { GAME_STRING_MAX_BYTES } from '../shared/index.js';

/** While a long string is being cut, the young generation is collected after every this many bytes of it. */
const COLLECT_EVERY_BYTES = 1024 * 1024;
let youngCollector: ((options: { type: 'minor' }) => void) | null | undefined;

/**
 * Collects V8's young generation now. The bytes a runaway answer passes through (the socket's buffers, already cut
 * and let go) are garbage a young collection frees, but V8 waits for its young generation to fill first — long enough
 * for ~35 MB of them to pile up on a 20 MB answer (issue 48: peak memory). Only a string being cut calls it, once a
 * megabyte of it. V8's `gc` is taken from a context made with --expose-gc (the flag set for that moment only); where that is
 * refused, nothing is collected early.
 */
function collectYoung(): void {
  if (youngCollector === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      youngCollector = runInNewContext('gc') as (options: { type: 'minor' }) => void;
    } catch {
      youngCollector = null;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  youngCollector?.({ type: 'minor' });
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/** The marker as it sits inside a JSON string (its newlines escaped). */
function markerBytes(omitted: number): Uint8Array {
  return encoder.encode(`\\n[… ${omitted.toLocaleString('en-US')} chars omitted …]\\n`);
}

/**
 * How many UTF-16 units (what a JS string's length counts) the byte at the current position starts, given the escape
 * state: an escape (`\n`, `\u00e9`) is one unit, its following bytes none; a UTF-8 lead byte one unit (a 4-byte one
 * two: a surrogate pair), continuation bytes none.
 */
function unitsOf(byte: number, inEscape: boolean, hexLeft: number): number {
  if (inEscape || hexLeft > 0) return 0;
  if ((byte & 0xc0) === 0x80) return 0;
  return byte >= 0xf0 ? 2 : 1;
}

/** The byte-level cutter: feed chunks in, take bytes out. Exposed for the tests. */
export class LongStringCutter {
  private readonly head: number;
  private readonly tail: number;
  private inString = false;
  private escape = false;
  private hexLeft = 0;
  /** Bytes of the current string seen so far. */
  private length = 0;
  /** Past the head: the string's later bytes go to the ring until it ends. */
  private cutting = false;
  /** Made at the first cut (most answers have no long string: a game call's answer is a few hundred bytes). */
  private ring = new Uint8Array(0);
  private units = new Uint8Array(0);
  private ringStart = 0;
  private ringSize = 0;
  /** UTF-16 units of the bytes that fell out of the ring (omitted). */
  private omitted = 0;
  /** Bytes of long strings read since the young generation was last collected. */
  private sinceCollected = 0;

  /** `collect`: what collects the young generation while a string is cut (the tests count its calls). */
  constructor(
    maxBytes: number = GAME_STRING_MAX_BYTES,
    private readonly collect: () => void = collectYoung,
  ) {
    this.head = Math.max(16, Math.floor(maxBytes / 3));
    this.tail = Math.max(16, maxBytes - this.head);
  }

  push(chunk: Uint8Array): Uint8Array {
    const parts: Uint8Array[] = [];
    let from = 0;
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index] as number;
      if (!this.inString) {
        if (byte === QUOTE) this.startString();
        continue;
      }
      // A raw newline never sits inside a JSON string: the string was broken (an event stream's next line). It ends.
      const closes = (byte === QUOTE && !this.escape && this.hexLeft === 0) || byte === NEWLINE;
      if (this.cutting) {
        if (closes) {
          // The string ends here: the marker and the kept tail, then the closing quote goes out with what follows.
          parts.push(this.endCut());
          from = index;
        } else this.keep(byte);
      } else if (!closes && this.length >= this.head && unitsOf(byte, this.escape, this.hexLeft) > 0) {
        // The head is full and this byte starts a character outside any escape: the head ends before it.
        parts.push(chunk.subarray(from, index));
        if (this.ring.length === 0) {
          this.ring = new Uint8Array(this.tail);
          this.units = new Uint8Array(this.tail);
        }
        this.cutting = true;
        this.keep(byte);
      }
      this.step(byte, closes);
      if (this.cutting) from = index + 1;
    }
    if (!this.cutting && from < chunk.length) parts.push(chunk.subarray(from));
    if (this.cutting) this.collectNowAndThen(chunk.length);
    return concat(parts);
  }

  private collectNowAndThen(bytes: number): void {
    this.sinceCollected += bytes;
    if (this.sinceCollected < COLLECT_EVERY_BYTES) return;
    this.sinceCollected = 0;
    this.collect();
  }

  /** What is held when the body ends (an unterminated string's kept tail). */
  end(): Uint8Array {
    return this.cutting ? this.endCut() : new Uint8Array(0);
  }

  private startString(): void {
    this.inString = true;
    this.escape = false;
    this.hexLeft = 0;
    this.length = 0;
    this.cutting = false;
    this.ringStart = 0;
    this.ringSize = 0;
    this.omitted = 0;
  }

  /** Advances the escape state past `byte` (the string's own bytes only). */
  private step(byte: number, closes: boolean): void {
    this.length += 1;
    if (closes) {
      this.inString = false;
      this.cutting = false;
      return;
    }
    if (this.hexLeft > 0) this.hexLeft -= 1;
    else if (this.escape) {
      this.escape = false;
      if (byte === 0x75) this.hexLeft = 4; // \uXXXX
    } else if (byte === BACKSLASH) this.escape = true;
  }

  private keep(byte: number): void {
    const units = unitsOf(byte, this.escape, this.hexLeft);
    if (this.ringSize === this.tail) {
      this.omitted += this.units[this.ringStart] as number;
      this.ring[this.ringStart] = byte;
      this.units[this.ringStart] = units;
      this.ringStart = (this.ringStart + 1) % this.tail;
      return;
    }
    const at = (this.ringStart + this.ringSize) % this.tail;
    this.ring[at] = byte;
    this.units[at] = units;
    this.ringSize += 1;
  }

  /** The marker (when something fell out) and the ring from its first character, so the kept tail is valid JSON
   * string content on its own. */
  private endCut(): Uint8Array {
    this.cutting = false;
    const bytes = new Uint8Array(this.ringSize);
    const units = new Uint8Array(this.ringSize);
    for (let index = 0; index < this.ringSize; index += 1) {
      bytes[index] = this.ring[(this.ringStart + index) % this.tail] as number;
      units[index] = this.units[(this.ringStart + index) % this.tail] as number;
    }
    if (this.omitted === 0) return bytes; // nothing fell out: the string is whole
    // The units were worked out with the stream's exact escape state: a byte with units starts a character outside any
    // escape (or starts an escape), a safe first byte for the kept tail.
    let start = 0;
    while (start < bytes.length && (units[start] as number) === 0) start += 1;
    let omitted = this.omitted;
    for (let index = 0; index < start; index += 1) omitted += units[index] as number;
    return concat([markerBytes(omitted), bytes.subarray(start)]);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A body with its long JSON strings cut as it streams. */
export function cutLongStrings(body: ReadableStream<Uint8Array>, maxBytes?: number): ReadableStream<Uint8Array> {
  const cutter = new LongStringCutter(maxBytes);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const out = cutter.push(chunk);
        if (out.length > 0) controller.enqueue(out);
      },
      flush(controller) {
        const out = cutter.end();
        if (out.length > 0) controller.enqueue(out);
      },
    }),
  );
}

/** Answers whose bytes were cut as they arrived by whoever read them (the game calls' fetch, lean-fetch.ts), with the
 * limit they were cut to: cuttingFetch hands them on as they are, so an answer is cut once. */
const cutAnswers = new WeakMap<Response, number>();

/** Marks an answer whose long strings were cut to `maxBytes` as its bytes arrived. */
export function markCut(response: Response, maxBytes: number = GAME_STRING_MAX_BYTES): Response {
  cutAnswers.set(response, maxBytes);
  return response;
}

/** fetch with a JSON or event-stream answer's long strings cut as they arrive (other answers untouched; one already
 * cut to this limit or less, as it is). */
export function cuttingFetch(inner: FetchLike, maxBytes: number = GAME_STRING_MAX_BYTES): FetchLike {
  return async (input, init) => {
    const response = await inner(input, init);
    if ((cutAnswers.get(response) ?? Number.POSITIVE_INFINITY) <= maxBytes) return response;
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !/json|event-stream/i.test(type)) return response;
    return new Response(cutLongStrings(response.body, maxBytes), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** A body read whole with its long strings cut as it arrives (an undici body, any async iterable of bytes). */
export async function readCut(body: AsyncIterable<Uint8Array>, maxBytes?: number): Promise<Buffer> {
  const cutter = new LongStringCutter(maxBytes);
  const parts: Uint8Array[] = [];
  for await (const chunk of body) {
    const out = cutter.push(chunk);
    // A copy: the cutter may hand back a view of the chunk, which the stream may reuse.
    if (out.length > 0) parts.push(Uint8Array.from(out));
  }
  parts.push(cutter.end());
  return Buffer.concat(parts);
}
