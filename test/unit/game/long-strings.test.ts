// A game's answer with its long JSON strings cut as the bytes arrive: valid JSON out, the head and tail of each long
// string kept with an exact count of what was left out, short strings and everything else byte for byte, whatever
// the chunking.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LongStringCutter, cuttingFetch, readCut } from '../../../internal/game/long-strings.js';
import { truncateHeadTail } from '../../../internal/shared/index.js';
import { repoRoot } from '../../fakes/cli-process.js';

const REAL = join(repoRoot, 'test', 'fixtures', 'spacemolt', 'real');

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function cut(text: string, maxBytes: number, chunkSizes: number[] = [text.length * 4]): string {
  const bytes = encode(text);
  const cutter = new LongStringCutter(maxBytes);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (let index = 0; at < bytes.length; index += 1) {
    const size = Math.max(1, chunkSizes[index % chunkSizes.length] as number);
    parts.push(Uint8Array.from(cutter.push(bytes.subarray(at, at + size))));
    at += size;
  }
  parts.push(cutter.end());
  return Buffer.concat(parts).toString('utf8');
}

const MARKER = /\n\[… ([\d,]+) chars omitted …\]\n/;

/** The cut string's head, count and tail, checked against the original. */
function expectCutOf(original: string, kept: string): void {
  const match = MARKER.exec(kept);
  expect(match, 'a marker').not.toBeNull();
  const head = kept.slice(0, match!.index);
  const tail = kept.slice(match!.index + match![0].length);
  const omitted = Number(match![1]!.replace(/,/g, ''));
  expect(original.startsWith(head)).toBe(true);
  expect(original.endsWith(tail)).toBe(true);
  expect(head.length + omitted + tail.length).toBe(original.length);
}

/** A string of every awkward kind of character: escapes, \\u escapes, 2-, 3- and 4-byte UTF-8, quotes, backslashes. */
function awkward(length: number, seed: number): string {
  const pieces = ['a', 'é', '€', '😀', '"', '\\', '\n', '\t', '\u0001', 'z', ' '];
  let state = seed;
  let out = '';
  while (out.length < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += pieces[state % pieces.length];
  }
  return out;
}

describe('long strings cut as they arrive', () => {
  it('leaves short strings and all the rest byte for byte', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: awkward(200, 1) }] },
    });
    expect(cut(body, 1000)).toBe(body);
    expect(cut(body, 1000, [1])).toBe(body);
  });

  it('keeps a long string as head, marker and tail with the exact count, valid JSON, whatever the chunking', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const text = awkward(5000, seed);
      const body = JSON.stringify({ result: { content: [{ type: 'text', text }], other: 'short "one"' } });
      const whole = cut(body, 600);
      for (const sizes of [[1], [7, 3, 1], [64], [4096]]) expect(cut(body, 600, sizes)).toBe(whole);
      const parsed = JSON.parse(whole) as { result: { content: Array<{ text: string }>; other: string } };
      expect(parsed.result.other).toBe('short "one"');
      const kept = parsed.result.content[0]!.text;
      expectCutOf(text, kept);
      expect(Buffer.byteLength(kept)).toBeLessThan(700);
    }
  });

  it('cuts the data lines of an event stream and leaves its framing', () => {
    const text = 'x'.repeat(3000);
    const event = `event: message\nid: 1\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text } })}\n\n`;
    const out = cut(event, 300, [50]);
    expect(out.startsWith('event: message\nid: 1\ndata: {')).toBe(true);
    expect(out.endsWith('}\n\n')).toBe(true);
    const data = JSON.parse(out.split('\n')[2]!.slice('data: '.length)) as { result: { text: string } };
    expectCutOf(text, data.result.text);
  });

  it('a text cut on arrival and cut again says in its one marker all that is missing', () => {
    const original = 'h'.repeat(10_000) + 'm'.repeat(50_000) + 't'.repeat(20_000);
    const once = JSON.parse(cut(JSON.stringify(original), 30_000)) as string;
    const twice = truncateHeadTail(once, 3000);
    expect(twice.length).toBeLessThanOrEqual(3000);
    expectCutOf(original, twice);
  });

  it('collects the young generation every 1 MB of a string it cuts, and never for an answer it leaves whole', () => {
    let collections = 0;
    const cutter = new LongStringCutter(1024 * 1024, () => (collections += 1));
    const chunk = encode('x'.repeat(64 * 1024));
    cutter.push(encode('{"text":"'));
    for (let sent = 0; sent < 5.5 * 1024 * 1024; sent += chunk.length) cutter.push(chunk);
    cutter.push(encode('"}'));
    cutter.end();
    // 5.5 MB of string, the first ~0.33 MB of it the kept head: 5 MB and more read while cutting.
    expect(collections).toBe(5);
    let none = 0;
    const whole = new LongStringCutter(1024 * 1024, () => (none += 1));
    for (let answer = 0; answer < 100; answer += 1) whole.push(encode(JSON.stringify({ text: 'y'.repeat(60_000) })));
    expect(none).toBe(0);
  });

  it('reads a fetch answer and an iterable body cut', async () => {
    const text = 'y'.repeat(10_000);
    const body = JSON.stringify({ text });
    const fetched = await cuttingFetch(
      async () => new Response(body, { headers: { 'content-type': 'application/json' } }),
      900,
    )('http://game.invalid/mcp');
    expectCutOf(text, ((await fetched.json()) as { text: string }).text);
    const plain = await cuttingFetch(
      async () => new Response(body, { headers: { 'content-type': 'text/plain' } }),
      900,
    )('http://game.invalid/mcp');
    expect(await plain.text()).toBe(body); // not JSON: untouched
    async function* chunks(): AsyncIterable<Uint8Array> {
      for (let at = 0; at < body.length; at += 333) yield encode(body.slice(at, at + 333));
    }
    expectCutOf(text, (JSON.parse((await readCut(chunks(), 900)).toString('utf8')) as { text: string }).text);
  });

  it("leaves the real server's published answers byte for byte, and cut small they stay valid JSON", () => {
    const files = readdirSync(REAL).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThan(3);
    for (const name of files) {
      const text = readFileSync(join(REAL, name), 'utf8');
      expect(cut(text, 1024 * 1024, [4096]), name).toBe(text);
      const small = cut(text, 240, [333]);
      expect(() => JSON.parse(small) as unknown, name).not.toThrow();
      expect(small.length, name).toBeLessThan(text.length);
    }
  });
});
