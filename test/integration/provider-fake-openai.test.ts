// The fake OpenAI server itself, over plain fetch: other helpers rely on it rejecting invalid transcripts,
// failing loudly when its script runs out, and speaking both plain JSON and SSE.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const post = async (body: unknown): Promise<Response> =>
  fetch(`${fake!.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('fake OpenAI server', () => {
  it('answers plain JSON and SSE with [DONE] and a usage chunk', async () => {
    fake = await startFakeOpenAI({
      script: [
        { content: 'plain' },
        { content: 'streamed', toolCalls: [{ id: 'c1', name: 'mine', arguments: { a: 1 } }] },
      ],
    });
    const plain = (await (await post({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).json()) as {
      choices: Array<{ message: { content: string } }>;
    };
    expect(plain.choices[0]!.message.content).toBe('plain');
    const response = await post({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map(
      (event) =>
        JSON.parse(event) as {
          choices: Array<{ delta: { content?: string }; finish_reason: string | null }>;
          usage?: unknown;
        },
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('streamed');
    expect(chunks.at(-1)!.usage).toBeDefined();
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'tool_calls')).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });

  it('serves /v1/models', async () => {
    fake = await startFakeOpenAI({ models: ['a', 'b'] });
    const body = (await (await fetch(`${fake.url}/models`)).json()) as { data: Array<{ id: string }> };
    expect(body.data.map((model) => model.id)).toEqual(['a', 'b']);
  });

  it('rejects invalid transcripts with 400 and records them without consuming the script', async () => {
    fake = await startFakeOpenAI({ script: [{ content: 'ok' }] });
    const dangling = await post({
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'mine', arguments: '{}' } }],
        },
        { role: 'user', content: 'again' },
      ],
    });
    expect(dangling.status).toBe(400);
    expect(await dangling.text()).toContain("must be followed by tool messages responding to each 'tool_call_id'");
    const orphan = await post({
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'tool', tool_call_id: 'zz', content: 'x' },
      ],
    });
    expect(orphan.status).toBe(400);
    const emptyCalls = await post({
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: 'x', tool_calls: [] },
      ],
    });
    expect(emptyCalls.status).toBe(400);
    const emptyTools = await post({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools: [] });
    expect(emptyTools.status).toBe(400);
    expect(fake.invalid).toHaveLength(4);
    expect(fake.remaining).toBe(1);
  });

  it('fails loudly when the script runs out', async () => {
    fake = await startFakeOpenAI({ script: [] });
    const response = await post({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('fake-openai: script exhausted');
    expect(fake.exhausted).toBe(true);
  });

  it('sends Retry-After on injected 429s and checks the API key when told to', async () => {
    fake = await startFakeOpenAI({ script: [{ fault: 'status', status: 429, retryAfter: 2 }], apiKey: 'k' });
    expect((await post({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(401);
    const limited = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
  });
});
