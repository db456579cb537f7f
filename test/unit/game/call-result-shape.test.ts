import { readFileSync } from 'node:fs';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { callResultCheck, isPlainCallResult } from '../../../internal/game/call-result-shape.js';

/** Every tools/call result the real server answered in the published MCP probe (test/fixtures/spacemolt/real),
 * verbatim: the login greeting, the read-only calls and the refused mine. */
function realResults(): unknown[] {
  const file = new URL('../../fixtures/spacemolt/real/mcp-probe-2026-07-12.json', import.meta.url);
  const probe = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const found: unknown[] = [];
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    const result = (record.raw as { result?: unknown } | undefined)?.result;
    if (result !== undefined && typeof result === 'object' && result !== null && 'content' in result)
      found.push(result);
    for (const inner of Object.values(record)) walk(inner);
  };
  walk(probe);
  return found;
}

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

  it("takes the short path for the real server's answers, as the schema reads them", () => {
    const real = realResults();
    expect(real.length).toBeGreaterThanOrEqual(8);
    for (const data of real) {
      expect(isPlainCallResult(data)).toBe(true);
      const theirs = CallToolResultSchema.safeParse(data);
      expect(theirs.success).toBe(true);
      expect(callResultCheck.safeParse(data)).toEqual({ success: true, data: theirs.success && theirs.data });
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
