// Dispatch decides parallel or serial per call, not per tool: one grouped tool (SpaceMolt /mcp/v2) holds queries,
// free actions and mutations, told apart by `action`.
import { describe, expect, it } from 'vitest';
import { dispatchCalls, prepareCall, type CallOutcome } from '../../../internal/llm/dispatch.js';
import type { ToolResult, ToolSpec } from '../../../internal/shared/index.js';

const spacemolt: ToolSpec = {
  name: 'spacemolt',
  description: 'grouped',
  inputSchema: { type: 'object', properties: { action: { type: 'string' } } },
  readOnly: false,
  actions: { get_status: 'query', get_system: 'query', mine: 'mutation', chat: 'free' },
};
const flat: ToolSpec = {
  name: 'get_map',
  description: 'flat',
  inputSchema: { type: 'object' },
  readOnly: true,
  kind: 'query',
};
const catalog = {
  tools: new Map([
    [spacemolt.name, spacemolt],
    [flat.name, flat],
  ]),
  local: new Map(),
};

const call = (id: string, name: string, args: Record<string, unknown>) =>
  prepareCall({ id, name, arguments: JSON.stringify(args) }, catalog);

describe('dispatch by call kind', () => {
  it('marks each call of a grouped tool by its action', () => {
    expect(call('1', 'spacemolt', { action: 'get_status' }).readOnly).toBe(true);
    expect(call('2', 'spacemolt', { action: 'mine' }).readOnly).toBe(false);
    expect(call('3', 'spacemolt', { action: 'chat' }).readOnly).toBe(false);
    expect(call('4', 'spacemolt', { action: 'unknown' }).readOnly).toBe(false);
    expect(call('5', 'get_map', {}).readOnly).toBe(true);
  });

  it('runs grouped queries together and a grouped mutation alone, in order', async () => {
    const calls = [
      call('a', 'spacemolt', { action: 'get_status' }),
      call('b', 'spacemolt', { action: 'get_system' }),
      call('c', 'spacemolt', { action: 'mine' }),
      call('d', 'get_map', {}),
    ];
    const log: string[] = [];
    let running = 0;
    const game = {
      call: async (_name: string, args: Record<string, unknown>): Promise<ToolResult> => {
        running += 1;
        log.push(`start ${String(args.action ?? 'get_map')} (${running} running)`);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return { text: 'ok', isError: false };
      },
    };
    const outcomes: Array<CallOutcome | undefined> = [];
    await dispatchCalls({ calls, game, outcomes, deliver: async () => {} });
    expect(log).toEqual([
      'start get_status (1 running)',
      'start get_system (2 running)',
      'start mine (1 running)',
      'start get_map (1 running)',
    ]);
  });
});
