import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { callResultCheck, isPlainCallResult } from '../../../internal/game/call-result-shape.js';

// Answers as a game may send them: the usual text-only ones take the short path, the rest go to the SDK's schema.
const PLAIN: unknown[] = [
  { content: [{ type: 'text', text: 'Docked at Sol Central.' }] },
  { content: [{ type: 'text', text: 'Error: no_fuel: tank empty' }], isError: true },
  {
    content: [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ],
    isError: false,
  },
  { content: [] },
];
const OTHER: unknown[] = [
  { content: [{ type: 'text', text: 'x', annotations: { priority: 0.5 } }] },
  { content: [{ type: 'text', text: 'x', extra: 1 }] },
  { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
  { content: [{ type: 'text', text: 'x' }], structuredContent: { credits: 5 } },
  { content: [{ type: 'text', text: 'x' }], _meta: { note: 'y' } },
  { content: [{ type: 'text', text: 'x' }], other: true },
  {},
  { structuredContent: { credits: 5 } },
  // malformed: the schema refuses them, so the call fails as it did before the short path
  { content: [{ type: 'text', text: 5 }] },
  { content: 'text' },
  { content: [{ type: 'text', text: 'x' }], isError: 'yes' },
  { content: [null] },
  { content: [{ type: 'nope', text: 'x' }] },
  null,
  'text',
  [],
];

describe('the tools/call result check', () => {
  it('passes text-only answers as they are, without the schema', () => {
    for (const data of PLAIN) {
      expect(isPlainCallResult(data)).toBe(true);
      const checked = callResultCheck.safeParse(data);
      expect(checked.success).toBe(true);
      expect(checked.success && checked.data).toBe(data);
    }
  });

  it('leaves every other answer to the schema', () => {
    for (const data of OTHER) expect(isPlainCallResult(data)).toBe(false);
  });

  it('agrees with the SDK schema on every answer, accepted or refused', () => {
    for (const data of [...PLAIN, ...OTHER]) {
      const ours = callResultCheck.safeParse(data);
      const theirs = CallToolResultSchema.safeParse(data);
      expect(ours.success, JSON.stringify(data)).toBe(theirs.success);
      if (ours.success && theirs.success) expect(ours.data).toEqual(theirs.data);
    }
  });
});
