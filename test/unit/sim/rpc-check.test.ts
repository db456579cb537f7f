// rpc-check: which requests the transport answers itself instead of handing them to the SDK, as a table.
import { describe, expect, test } from 'vitest';
import { answerableId, refuseRequest } from '../../../internal/sim/rpc-check.js';

describe('answerableId', () => {
  test.each([
    ['a string', 'abc', 'abc'],
    ['a whole number', 7, 7],
    ['a fraction', 1.5, 1.5],
    ['infinity (1e400 as parsed)', Infinity, null],
    ['past the safe integers', 2 ** 60, null],
    ['an object', { a: 1 }, null],
  ])('%s', (_what, id, expected) => {
    expect(answerableId(id)).toBe(expected);
  });
});

describe('refuseRequest', () => {
  test.each([
    ['a plain request', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, null],
    ['a string id', { jsonrpc: '2.0', id: 'a', method: 'ping' }, null],
    ['id -0', { jsonrpc: '2.0', id: -0, method: 'ping' }, null],
    ['tools/call with params', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'help' } }, null],
    ['id 1.5', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, { id: 1.5, code: -32600 }],
    ['id Infinity', { jsonrpc: '2.0', id: Infinity, method: 'ping' }, { id: null, code: -32600 }],
    ['params a string', { jsonrpc: '2.0', id: 2, method: 'ping', params: 'x' }, { id: 2, code: -32602 }],
    ['tools/call without params', { jsonrpc: '2.0', id: 3, method: 'tools/call' }, { id: 3, code: -32602 }],
    ['an unknown member', { jsonrpc: '2.0', id: 4, method: 'ping', extra: true }, { id: 4, code: -32600 }],
    ['_meta not an object', { jsonrpc: '2.0', id: 5, method: 'ping', params: { _meta: 1 } }, { id: 5, code: -32602 }],
  ])('%s', (_what, message, expected) => {
    const refused = refuseRequest(message) as { id: unknown; error: { code: number; message: string } } | null;
    if (expected === null) {
      expect(refused).toBeNull();
      return;
    }
    expect(refused).toMatchObject({ jsonrpc: '2.0', id: expected.id, error: { code: expected.code } });
    expect(refused?.error.message).toMatch(/^\S.*\S$/);
    expect(refused?.error.message).not.toContain('\n');
  });

  test('tools/call without params says what is required', () => {
    expect(refuseRequest({ jsonrpc: '2.0', id: 3, method: 'tools/call' })).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'params: required (name and arguments)' },
    });
  });
});
