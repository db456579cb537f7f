// An image's bytes survive SQLite (they are what a vision model is shown on the next round or after a resume), and
// never reach an export: the JSON Lines and Markdown transcripts keep the part's type and size, not its base64.
import { describe, expect, it } from 'vitest';
import { exportSession, openStore, parseJsonlExport } from '../../../internal/store/index.js';
import type { ContentPart } from '../../../internal/shared/index.js';

const DATA = Buffer.from('a tiny image that stands in for a png').toString('base64');
const PARTS: ContentPart[] = [
  { type: 'image', mimeType: 'image/png', bytes: 37, width: 8, height: 8, data: DATA },
  { type: 'image', mimeType: 'image/png', bytes: 2_000_000, tooLarge: true },
  { type: 'resource_link', uri: 'https://example.com/map' },
];

describe('image bytes in the store', () => {
  it('round-trip through SQLite, and exports carry the description, never the base64', async () => {
    const store = await openStore({ path: ':memory:' });
    try {
      const session = await store.createSession({ name: 'pics', game: 'parts', model: 'openai/gpt-4o' });
      await store.append(session.id, { role: 'user', content: 'scan', turn: 1 });
      await store.append(session.id, {
        role: 'tool',
        content: 'Scan complete.\n[image 8×8 png]\n[image png 1.9 MB (too large to show the model)]',
        toolCallId: 'c1',
        toolName: 'scan',
        data: { op: 'scan' },
        parts: PARTS,
        turn: 1,
      });
      const tool = (await store.messages(session.id))[1];
      expect(tool?.parts).toEqual(PARTS);
      expect(tool?.data).toEqual({ op: 'scan' });

      for (const format of ['jsonl', 'md'] as const) {
        let text = '';
        await exportSession(store, 'pics', { format, write: (chunk) => (text += chunk) });
        expect(text).not.toContain(DATA);
        expect(text).toContain('[image 8×8 png]');
        if (format === 'jsonl') {
          const line = text.split('\n').find((row) => row.includes('"role":"tool"'));
          expect(JSON.parse(line ?? '{}').parts).toEqual([
            { type: 'image', mimeType: 'image/png', bytes: 37, width: 8, height: 8 },
            PARTS[1],
            PARTS[2],
          ]);
          expect(parseJsonlExport(text).messages).toHaveLength(2);
        }
      }
      // The export copied; what the store holds still has the bytes.
      expect((await store.messages(session.id))[1]?.parts).toEqual(PARTS);
    } finally {
      await store.close();
    }
  });
});
