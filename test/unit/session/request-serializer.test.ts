// The request serialiser reuses the JSON text of a message it has seen (a fresh copy equal key for key), and writes
// exactly what JSON.stringify writes: a change anywhere, even in key order, is a new text.
import { describe, expect, it } from 'vitest';
import { RequestSerializer, sameJson } from '../../../internal/session/request-serializer.js';
import type { Message, ToolSpec } from '../../../internal/shared/index.js';

const message: Message = {
  id: 't1',
  role: 'tool',
  content: 'Mined 6 ore',
  toolCallId: 'c1',
  toolName: 'spacemolt',
  createdAt: 3,
  turn: 1,
  round: 1,
  data: { op: 'mine', cargo: [{ item: 'ore', quantity: 6 }], fuel: null },
};
const tools: ToolSpec[] = [{ name: 'spacemolt', description: 'd', inputSchema: { type: 'object' }, readOnly: false }];

describe('request serialiser', () => {
  it("gives the same text object for an equal copy, and JSON.stringify's text for anything new", () => {
    const serializer = new RequestSerializer();
    const first = serializer.serialize([message], tools);
    expect(first).toEqual({ messages: [JSON.stringify(message)], tools: JSON.stringify(tools) });
    const again = serializer.serialize([structuredClone(message)], [...tools]);
    expect(again.messages[0]).toBe(first.messages[0]);
    expect(again.tools).toBe(first.tools);
    const changed = { ...message, data: { op: 'mine', cargo: [{ item: 'ore', quantity: 7 }], fuel: null } };
    expect(serializer.serialize([changed], tools).messages[0]).toBe(JSON.stringify(changed));
    const reordered: Message = { role: 'tool', id: 't1', content: 'Mined 6 ore', createdAt: 3 };
    expect(serializer.serialize([reordered], tools).messages[0]).toBe(JSON.stringify(reordered));
    // Both renderings of t1 are remembered.
    expect(serializer.serialize([structuredClone(message)], tools).messages[0]).toBe(first.messages[0]);
    const otherTools = [{ ...tools[0]!, description: 'shorter' }];
    expect(serializer.serialize([message], otherTools).tools).toBe(JSON.stringify(otherTools));
  });

  it('compares as JSON does: key order, arrays, nested values', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'x' }] })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    expect(sameJson({ a: null }, { a: undefined })).toBe(false);
  });
});
