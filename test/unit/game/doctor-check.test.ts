// checkGame as a table of servers: what a tool list says about Skipper's ops, new and gone actions, and the verdict.
import { describe, expect, it } from 'vitest';
import { checkGame, renameCandidate, verdictLine } from '../../../internal/game/doctor-check.js';
import type { McpToolLike } from '../../../internal/game/classify.js';
import { buildFace } from '../../../internal/sim/index.js';

const minimolt = (face: 'v1' | 'v2'): McpToolLike[] => [...buildFace({ face, preset: 'full' }).tools];

function withCore(edit: (tool: McpToolLike) => McpToolLike): McpToolLike[] {
  return minimolt('v2').map((tool) => (tool.name === 'spacemolt' ? edit(tool) : tool));
}

describe('checkGame', () => {
  it.each(['v1', 'v2'] as const)("finds every op on minimolt's %s face", (face) => {
    const report = checkGame({ serverName: 'minimolt', tools: minimolt(face) });
    expect(report.face).toBe(face);
    expect(report.problems).toEqual([]);
    expect(report.newActions).toEqual([]);
    expect(verdictLine(report)).toMatch(/^Skipper can play here/);
  });

  it('names actions its table lacks with the kind the server states, else the one their name suggests', () => {
    const tools = withCore((tool) => ({
      ...tool,
      description: `${tool.description ?? ''}\n- warp(id): Warp [mutation: one per tick]\n- get_weather(): Weather`,
      inputSchema: {
        ...(tool.inputSchema as object),
        properties: {
          ...(tool.inputSchema as { properties: object }).properties,
          action: {
            type: 'string',
            enum: [
              ...(tool.inputSchema as { properties: { action: { enum: string[] } } }).properties.action.enum,
              'warp',
              'get_weather',
            ],
          },
        },
      },
    }));
    const report = checkGame({ tools });
    expect(report.newActions).toEqual([
      { tool: 'spacemolt', action: 'warp', kind: 'mutation', from: 'server' },
      { tool: 'spacemolt', action: 'get_weather', kind: 'query', from: 'name' },
    ]);
    expect(report.canPlay).toBe(true);
  });

  it('cannot play without an essential action; a missing optional one is a warning', () => {
    const drop = (names: string[]) =>
      withCore((tool) => {
        const schema = tool.inputSchema as { properties: { action: { enum: string[] } } };
        const enumValues = schema.properties.action.enum.filter((name) => !names.includes(name));
        return {
          ...tool,
          description: '',
          inputSchema: {
            ...schema,
            properties: { ...schema.properties, action: { type: 'string', enum: enumValues } },
          },
        };
      });
    const noMine = checkGame({ tools: drop(['mine']) });
    expect(noMine.canPlay).toBe(false);
    expect(verdictLine(noMine)).toBe('Skipper cannot play here: mine: spacemolt has no action mine');
    const noRepair = checkGame({ tools: drop(['repair']) });
    expect(noRepair.canPlay).toBe(true);
    expect(noRepair.warnings).toContain('repair: spacemolt has no action repair');
  });

  it('guesses a rename from the words of a name', () => {
    expect(renameCandidate('id', ['item_id', 'poi_id'])).toBe('item_id');
    expect(renameCandidate('target', ['target_system'])).toBe('target_system');
    expect(renameCandidate('id', ['quantity'])).toBeUndefined();
  });

  it('a generic game can be played by a model, with a warning', () => {
    const report = checkGame({ tools: [{ name: 'roll_dice', inputSchema: { type: 'object', properties: {} } }] });
    expect(report.profile).toBe('generic');
    expect(report.canPlay).toBe(true);
    expect(report.warnings[0]).toMatch(/not a SpaceMolt face/);
  });
});
