// Images keep their base64 bytes (to show models that accept them) only in a format chat APIs take and only up to
// MAX_MODEL_IMAGE_BYTES; a larger one stays a description that says why. Audio and resources never keep bytes.
import { describe, expect, it } from 'vitest';
import { fromCallResult } from '../../../internal/game/index.js';
import { readContentParts } from '../../../internal/game/parts.js';
import { MAX_MODEL_IMAGE_BYTES } from '../../../internal/shared/index.js';

const base64 = (bytes: number): string => Buffer.alloc(bytes, 7).toString('base64');

describe('image bytes in content parts', () => {
  it('keeps an image at the cap, with line breaks taken out', () => {
    const data = base64(MAX_MODEL_IMAGE_BYTES);
    const wrapped = data.replace(/(.{76})/g, '$1\n');
    expect(readContentParts([{ type: 'image', data: wrapped, mimeType: 'image/webp' }])).toEqual([
      { type: 'image', mimeType: 'image/webp', bytes: MAX_MODEL_IMAGE_BYTES, data },
    ]);
  });

  it('drops the bytes of a larger image and says so in the line the model and the terminal read', () => {
    const result = fromCallResult({
      content: [
        { type: 'text', text: 'Map:' },
        { type: 'image', data: base64(MAX_MODEL_IMAGE_BYTES + 1), mimeType: 'image/jpeg' },
      ],
    });
    expect(result.parts).toEqual([
      { type: 'image', mimeType: 'image/jpeg', bytes: MAX_MODEL_IMAGE_BYTES + 1, tooLarge: true },
    ]);
    expect(result.text).toBe('Map:\n[image jpeg 256.0 KB (too large to show the model)]');
  });

  it('keeps no bytes for formats chat APIs refuse, for broken base64, for audio or for resources', () => {
    const parts = readContentParts([
      { type: 'image', data: base64(10), mimeType: 'image/svg+xml' },
      { type: 'image', data: 'not base64!', mimeType: 'image/png' },
      { type: 'audio', data: base64(10), mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///a.bin', blob: base64(10) } },
    ]);
    expect(parts.map((part) => 'data' in part)).toEqual([false, false, false, false]);
  });
});
