// Streams in the shapes real servers send them, read by the OpenAI provider through the SDK's own stream: CRLF line
// ends, keep-alive comments, events split across TCP writes, multi-line data, SSE under a content type that is not
// text/event-stream, and when a reply counts as finished now that the SDK consumes `[DONE]` itself.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider, type OpenAIProvider } from '../../internal/provider/index.js';
import type { Message, SkipperError, StreamDelta } from '../../internal/shared/index.js';

type Play = (res: ServerResponse) => Promise<void> | void;

let server: Server | undefined;
let provider: OpenAIProvider | undefined;
afterEach(async () => {
  await provider?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  provider = undefined;
});

const user: Message = { id: 'm1', role: 'user', content: 'hi', createdAt: 0 };
const chunk = (delta: object, finish: string | null = null): string =>
  JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'raw-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const usage = JSON.stringify({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'raw-model',
  choices: [],
  usage: { prompt_tokens: 7, completion_tokens: 3 },
});

/** A server that answers each chat request with the next `plays` entry, writing exactly the bytes it is told to. */
async function setup(plays: Play[]): Promise<{ provider: OpenAIProvider; requests: () => number }> {
  let count = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const play = plays[count];
      count += 1;
      if (!play) return void res.writeHead(500).end('{"error":{"message":"raw server: no play left"}}');
      void play(res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  provider = createOpenAIProvider(
    { id: 'custom/raw', provider: 'custom', model: 'raw-model', baseUrl: url, local: false },
    { retry: { maxAttempts: 2, baseMs: 5, maxMs: 10 } },
  );
  return { provider, requests: () => count };
}

/** Writes the pieces one by one, each flushed before the next, so the client sees them as separate reads. */
function writes(contentType: string, pieces: string[]): Play {
  return async (res) => {
    res.writeHead(200, { 'content-type': contentType });
    for (const piece of pieces) await new Promise<void>((resolve) => res.write(piece, () => setTimeout(resolve, 5)));
    res.end();
  };
}

describe('OpenAI provider: SSE shapes read through the SDK stream', () => {
  it('reads CRLF line ends, comments, events split across writes and multi-line data', async () => {
    const first = chunk({ role: 'assistant', content: 'Hel' });
    const { provider } = await setup([
      writes('text/event-stream; charset=utf-8', [
        ': keep-alive\r\n\r\n',
        `data: ${first.slice(0, 25)}`,
        `${first.slice(25)}\r\n\r\n`,
        // One event's data over two lines: joined with "\n", still one JSON value.
        `data: ${chunk({ content: 'lo' }).replace('"choices"', '\r\ndata: "choices"')}\r\n\r\n`,
        `event: ping\r\ndata: ${chunk({}, 'stop')}\r\n\r\ndata: ${usage}\r\n\r\n`,
        'data: [DONE]\r\n\r\n',
      ]),
    ]);
    const deltas: StreamDelta[] = [];
    const response = await provider.complete({ messages: [user], tools: [], onDelta: (delta) => deltas.push(delta) });
    expect(response.message.content).toBe('Hello');
    expect(deltas).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
    ]);
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toMatchObject({ promptTokens: 7, completionTokens: 3, estimated: false });
    expect(response.model).toBe('raw-model');
  });

  it('reads SSE sent under another content type, and a plain JSON body sent as text', async () => {
    const completion = {
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'raw-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }],
    };
    const { provider } = await setup([
      writes('text/plain', [
        `data: ${chunk({ content: 'plain ' })}\n\ndata: ${chunk({ content: 'sse' }, 'stop')}\n\ndata: [DONE]\n\n`,
      ]),
      writes('text/plain', [JSON.stringify(completion)]),
    ]);
    expect((await provider.complete({ messages: [user], tools: [] })).message.content).toBe('plain sse');
    expect((await provider.complete({ messages: [user], tools: [] })).message.content).toBe('whole');
  });

  it('a reply is finished by its finish_reason or its usage chunk; with neither, the stream was cut', async () => {
    const { provider, requests } = await setup([
      // No [DONE]: the finish_reason says the reply is whole.
      writes('text/event-stream', [`data: ${chunk({ content: 'no done' }, 'stop')}\n\n`]),
      // No finish_reason, but the usage chunk servers send last.
      writes('text/event-stream', [
        `data: ${chunk({ content: 'usage only' })}\n\n`,
        `data: ${usage}\n\n`,
        'data: [DONE]\n\n',
      ]),
      // Neither: text, then the connection closes cleanly. Text was shown, so it is not retried.
      writes('text/event-stream', [`data: ${chunk({ content: 'cut' })}\n\n`]),
    ]);
    expect((await provider.complete({ messages: [user], tools: [] })).message.content).toBe('no done');
    const second = await provider.complete({ messages: [user], tools: [] });
    expect(second.message.content).toBe('usage only');
    expect(second.finishReason).toBe('other');
    const error = await provider
      .complete({ messages: [user], tools: [], onDelta: () => {} })
      .catch((caught: unknown) => caught);
    expect((error as SkipperError).code).toBe('stream_interrupted');
    expect(requests()).toBe(3);
  });

  it('data that does not parse is a bad_response that quotes the parser, retried while nothing was shown', async () => {
    const broken = writes('text/event-stream', ['data: {"choices": [ this is not json\n\n', 'data: [DONE]\n\n']);
    const { provider, requests } = await setup([broken, broken]);
    const error = await provider.complete({ messages: [user], tools: [] }).catch((caught: unknown) => caught);
    expect((error as SkipperError).code).toBe('bad_response');
    expect((error as Error).message).toMatch(
      /custom\/raw at http:\/\/127\.0\.0\.1:\d+\/v1 sent data that is not valid JSON \(.*JSON.*\) — gave up after 2 attempts/,
    );
    expect(requests()).toBe(2);
  });
});
