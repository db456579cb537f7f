// Which older results become stubs is the game layer's call (ToolSpec kind, per-action kinds and the op it read),
// never a guess from the tool's name.
import { describe, expect, it } from 'vitest';
import { queryResults } from '../../../internal/llm/index.js';
import type { Message, ToolSpec } from '../../../internal/shared/index.js';

const spec = (name: string, extra: Partial<ToolSpec>): ToolSpec => ({
  name,
  description: '',
  inputSchema: { type: 'object' },
  readOnly: false,
  ...extra,
});
const result = (toolName: string, data?: unknown): Message => ({
  id: toolName,
  role: 'tool',
  content: 'x',
  toolName,
  createdAt: 0,
  ...(data !== undefined ? { data } : {}),
});

const tools = new Map<string, ToolSpec>([
  ['get_status', spec('get_status', { readOnly: true, kind: 'query' })],
  ['scan', spec('scan', { readOnly: true, kind: 'query' })],
  ['get_rich', spec('get_rich', { kind: 'mutation' })],
  ['chat', spec('chat', { kind: 'free' })],
  ['spacemolt', spec('spacemolt', { actions: { get_status: 'query', mine: 'mutation' } })],
  ['lookup_all', spec('lookup_all', { actions: { a: 'query', b: 'query' }, readOnly: true })],
]);
const isQuery = queryResults({ tools, local: new Set(['remember']) });

describe('queryResults', () => {
  it('follows the spec of a flat tool, whatever its name suggests', () => {
    expect(isQuery('get_status', result('get_status'))).toBe(true);
    expect(isQuery('scan', result('scan'))).toBe(true);
    expect(isQuery('get_rich', result('get_rich'))).toBe(false);
    expect(isQuery('chat', result('chat'))).toBe(false);
  });

  it('reads a grouped tool by the op the game layer read from the result, else by the whole tool', () => {
    expect(isQuery('spacemolt', result('spacemolt', { op: 'get_status' }))).toBe(true);
    expect(isQuery('spacemolt', result('spacemolt', { op: 'mine' }))).toBe(false);
    expect(isQuery('spacemolt', result('spacemolt'))).toBe(false);
    expect(isQuery('lookup_all', result('lookup_all'))).toBe(true);
  });

  it('counts local tools as queries and a tool the list does not hold as an action', () => {
    expect(isQuery('remember', result('remember'))).toBe(true);
    expect(isQuery('get_weather', result('get_weather'))).toBe(false);
  });
});
