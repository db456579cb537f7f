// An image whose bytes a message carries counts as MODEL_IMAGE_TOKENS in the context budget (not its base64 length,
// and not nothing): the current turn's images may be shown to the model, so the window leaves room for them.
import { describe, expect, it } from 'vitest';
import { estimateMessageTokens } from '../../../internal/llm/index.js';
import { MODEL_IMAGE_TOKENS, type Message } from '../../../internal/shared/index.js';

describe('image tokens', () => {
  it('count a fixed amount per image with bytes, nothing for a description-only one', () => {
    const tool: Message = { id: 't', role: 'tool', content: '[image png 3 B]', toolCallId: 'c1', createdAt: 0 };
    const plain = estimateMessageTokens(tool);
    const withBytes = estimateMessageTokens({
      ...tool,
      parts: [{ type: 'image', mimeType: 'image/png', bytes: 200_000, data: 'A'.repeat(266_668) }],
    });
    const withoutBytes = estimateMessageTokens({
      ...tool,
      parts: [{ type: 'image', mimeType: 'image/png', bytes: 2_000_000, tooLarge: true }],
    });
    expect(withBytes - plain).toBe(MODEL_IMAGE_TOKENS);
    expect(withoutBytes).toBe(plain);
  });
});
