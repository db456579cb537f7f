// Tool-result images for models that accept them: after the tool messages that answer one assistant message comes
// one user message with the current turn's images as data URLs; text-only models, older turns and images whose
// bytes were not kept get none. The strict fake server's validator accepts the result and refuses images where the
// real API does (in tool messages).
import { describe, expect, it } from 'vitest';
import { acceptsImages, estimatePromptTokens, toChatRequest } from '../../../internal/provider/index.js';
import { MAX_MODEL_IMAGE_BYTES, type ContentPart, type Message } from '../../../internal/shared/index.js';
import { validateChatRequest } from '../../fakes/openai-validate.js';

const message = (fields: Partial<Message> & Pick<Message, 'role'>): Message => ({
  id: 'x',
  content: '',
  createdAt: 0,
  ...fields,
});
const image = (data: string, extra: Partial<ContentPart> = {}): ContentPart =>
  ({ type: 'image', mimeType: 'image/png', bytes: 3, data, ...extra }) as ContentPart;
const call = (id: string): { id: string; name: string; arguments: string } => ({ id, name: 'scan', arguments: '{}' });
const result = (id: string, parts?: ContentPart[]): Message =>
  message({
    role: 'tool',
    toolCallId: id,
    toolName: 'scan',
    content: 'Scan complete.\n[image png 3 B]',
    ...(parts ? { parts } : {}),
  });

/** Turn 1 (older): one image. Turn 2 (current): two calls in one round, each with an image, then a third call. */
const transcript: Message[] = [
  message({ role: 'system', content: 'sys' }),
  message({ role: 'user', content: 'scan' }),
  message({ role: 'assistant', toolCalls: [call('old')] }),
  result('old', [image('T0xE')]),
  message({ role: 'assistant', content: 'Seen.', toolCalls: [] }),
  message({ role: 'user', content: 'scan twice' }),
  message({ role: 'assistant', toolCalls: [call('c1'), call('c2')] }),
  result('c1', [image('QUFB')]),
  result('c2', [image('QkJC', { mimeType: 'image/jpeg' })]),
  message({ role: 'assistant', toolCalls: [call('c3')] }),
  result('c3'),
];

const wireImages = (body: ReturnType<typeof toChatRequest>): string[] =>
  body.messages
    .flatMap((wire): unknown[] => (Array.isArray(wire.content) ? wire.content : []))
    .flatMap((part) => {
      const image = part as { type?: string; image_url?: { url: string } };
      return image.type === 'image_url' && image.image_url ? [image.image_url.url] : [];
    });

describe('tool-result images in the OpenAI mapping', () => {
  it('a vision model gets one user message with the current turn images right after their tool messages', () => {
    const body = toChatRequest(transcript, [], 'gpt-4o', { vision: true });
    expect(body.messages.map((wire) => wire.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
      'tool',
    ]);
    expect(body.messages[9]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images from the tool results above (call ids c1, c2):' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,QUFB' } },
        { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,QkJC' } },
      ],
    });
    // Tool messages themselves stay text (what the real API takes there).
    expect(body.messages[7]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'Scan complete.\n[image png 3 B]' });
    expect(validateChatRequest(body)).toBeUndefined();
  });

  it('does not resend an older turn images: those stay the one-line description', () => {
    const urls = wireImages(toChatRequest(transcript, [], 'gpt-4o', { vision: true }));
    expect(urls).not.toContain('data:image/png;base64,T0xE');
    expect(urls).toHaveLength(2);
  });

  it('a text-only model gets no image and no extra message', () => {
    const body = toChatRequest(transcript, [], 'gpt-3.5-turbo');
    expect(body.messages).toHaveLength(transcript.length);
    expect(wireImages(body)).toEqual([]);
    expect(JSON.stringify(body)).not.toContain('base64');
    expect(toChatRequest(transcript, [], 'gpt-4o', { vision: false }).messages).toHaveLength(transcript.length);
  });

  it('sends an image at the end of the transcript (the latest round), and none whose bytes were not kept or are over the cap', () => {
    const big = 'A'.repeat(Math.ceil(MAX_MODEL_IMAGE_BYTES / 3) * 4 + 4);
    const body = toChatRequest(
      [
        message({ role: 'user', content: 'scan' }),
        message({ role: 'assistant', toolCalls: [call('c1'), call('c2'), call('c3')] }),
        result('c1', [
          { type: 'image', mimeType: 'image/png', bytes: 2_000_000, width: 2000, height: 2000, tooLarge: true },
        ]),
        result('c2', [image(big, { bytes: MAX_MODEL_IMAGE_BYTES + 3 })]),
        result('c3', [image('Q0ND')]),
      ],
      [],
      'gpt-4o',
      { vision: true },
    );
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images from the tool results above (call ids c3):' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,Q0ND' } },
      ],
    });
    expect(JSON.stringify(body)).not.toContain(big);
    expect(validateChatRequest(body)).toBeUndefined();
  });

  it('counts an image as a fixed number of tokens when the server reports no usage, not its base64 length', () => {
    const big = 'A'.repeat(200_000);
    const body = toChatRequest(
      [
        message({ role: 'user', content: 'scan' }),
        message({ role: 'assistant', toolCalls: [call('c1')] }),
        result('c1', [image(big)]),
      ],
      [],
      'gpt-4o',
      { vision: true },
    );
    expect(estimatePromptTokens(body)).toBeLessThan(1_200);
    expect(estimatePromptTokens(body)).toBeGreaterThanOrEqual(800);
  });
});

describe('the strict validator on content parts', () => {
  const base = [message({ role: 'user', content: 'scan' }), message({ role: 'assistant', toolCalls: [call('c1')] })];
  it('refuses an image inside a tool message, as the real API does', () => {
    const body = toChatRequest([...base, result('c1')], [], 'gpt-4o');
    const wire = body.messages.at(-1) as { content: unknown };
    wire.content = [{ type: 'image_url', image_url: { url: 'data:image/png;base64,QUFB' } }];
    expect(validateChatRequest(body)).toMatch(/not allowed in a tool message/);
  });

  it('refuses an image part without a usable url', () => {
    const body = toChatRequest(base.slice(0, 1), [], 'gpt-4o');
    (body.messages[0] as { content: unknown }).content = [
      { type: 'image_url', image_url: { url: 'data:image/png;base64,@@' } },
    ];
    expect(validateChatRequest(body)).toMatch(/image_url\.url/);
  });
});

describe('acceptsImages', () => {
  it.each([
    ['gpt-4o', true],
    ['gpt-4o-mini', true],
    ['openai/gpt-4.1-nano', true],
    ['gpt-5-mini', true],
    ['o3', true],
    ['o4-mini', true],
    ['o3-mini', false],
    ['claude-3-5-sonnet-20241022', true],
    ['anthropic/claude-sonnet-4', true],
    ['claude-opus-4-1', true],
    ['google/gemini-2.5-flash', true],
    ['qwen2.5vl:7b', true],
    ['qwen2.5-vl-7b-instruct', true],
    ['llava:13b', true],
    ['llama3.2-vision', true],
    ['gpt-4o-audio-preview', false],
    ['gpt-3.5-turbo', false],
    ['qwen2.5:7b', false],
    ['deepseek-chat', false],
    ['claude-2.1', false],
  ])('%s → %s', (model, expected) => {
    expect(acceptsImages(model)).toBe(expected);
  });
});
