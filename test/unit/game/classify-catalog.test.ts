// Classification against the public SpaceMolt catalogues (test/fixtures/spacemolt/catalog-*.json): every v1 tool
// and every v2 action gets the kind the catalogue marks (mutation or not), through profile detection as a live
// connection does it; the faces table's ops agree; config overrides name a tool or one action.
import { callKind } from '../../../internal/shared/index.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toToolSpec, type McpToolLike } from '../../../internal/game/classify.js';
import { detectProfile } from '../../../internal/game/profile.js';
import { FACES, OP_KINDS, type GameOp } from '../../../internal/spacemolt/index.js';

interface Catalog<T> {
  tools: T[];
}
type Params = Record<string, { type?: string; required?: boolean }>;
interface V1Tool {
  name: string;
  mutation: boolean;
  params: Params;
}
interface V2Tool {
  name: string;
  actions: Array<{ name: string; mutation: boolean; params: Params }>;
  no_action?: boolean;
  params?: Params;
}

const dir = fileURLToPath(new URL('../../fixtures/spacemolt/', import.meta.url));
const v1 = JSON.parse(readFileSync(`${dir}catalog-v1.json`, 'utf8')) as Catalog<V1Tool>;
const v2 = JSON.parse(readFileSync(`${dir}catalog-v2.json`, 'utf8')) as Catalog<V2Tool>;
const v547 = JSON.parse(readFileSync(`${dir}catalog-v0.547.json`, 'utf8')) as Catalog<V2Tool>;

const schema = (params: Params): Record<string, unknown> => ({
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(params).map(([name, param]) => [name, param.type ? { type: param.type } : {}]),
  ),
});

function v1Tools(): McpToolLike[] {
  return v1.tools.map((tool) => ({ name: tool.name, inputSchema: schema(tool.params) }));
}

/** v2 as the server lists it: one schema per tool, `action` with (or without) its enum and every action's params. */
function v2Tools(withEnum: boolean, catalog: Catalog<V2Tool> = v2): McpToolLike[] {
  return catalog.tools.map((tool) => {
    if (tool.no_action) return { name: tool.name, inputSchema: schema(tool.params ?? {}) };
    const params = Object.assign({}, ...tool.actions.map((action) => action.params)) as Params;
    const base = schema(params) as { properties: Record<string, unknown> };
    base.properties.action = withEnum
      ? { type: 'string', enum: tool.actions.map((action) => action.name) }
      : { type: 'string' };
    return { name: tool.name, inputSchema: base };
  });
}

function specsOf(tools: McpToolLike[], overrides?: Record<string, 'query' | 'free' | 'mutation'>) {
  const profile = detectProfile({ serverName: 'spacemolt', tools });
  return {
    profile,
    specs: new Map(
      tools.map((tool) => [
        tool.name,
        toToolSpec(tool, { shipped: profile.id !== 'generic', ...(overrides ? { overrides } : {}) }),
      ]),
    ),
  };
}

describe('classification over the public catalogues', () => {
  it('is right on every v1 tool', () => {
    expect(v1.tools.length).toBeGreaterThan(200);
    const { profile, specs } = specsOf(v1Tools());
    expect(profile.id).toBe('spacemolt-v1');
    const wrong = v1.tools
      .filter((tool) => (callKind(specs.get(tool.name), {}) === 'mutation') !== tool.mutation)
      .map((tool) => tool.name);
    expect(wrong).toEqual([]);
  });

  it.each([true, false])('is right on every v2 action (action enum sent: %s)', (withEnum) => {
    const { profile, specs } = specsOf(v2Tools(withEnum));
    expect(profile.id).toBe('spacemolt-v2');
    let count = 0;
    const wrong: string[] = [];
    for (const tool of v2.tools) {
      const spec = specs.get(tool.name);
      if (tool.no_action) {
        expect(callKind(spec, {})).toBe('query');
        continue;
      }
      for (const action of tool.actions) {
        count += 1;
        if ((callKind(spec, { action: action.name }) === 'mutation') !== action.mutation)
          wrong.push(`${tool.name}.${action.name}`);
      }
    }
    expect(count).toBe(262);
    expect(wrong).toEqual([]);
  });

  it.each([true, false])('is right on every v0.547 action (action enum sent: %s)', (withEnum) => {
    const { specs } = specsOf(v2Tools(withEnum, v547));
    const all = v547.tools.flatMap((tool) => tool.actions.map((action) => ({ tool: tool.name, ...action })));
    expect(all).toHaveLength(281);
    const wrong = all
      .filter(
        (action) => (callKind(specs.get(action.tool), { action: action.name }) === 'mutation') !== action.mutation,
      )
      .map((action) => `${action.tool}.${action.name}`);
    expect(wrong).toEqual([]);
  });

  it("agrees with the faces table's op kinds on both faces", () => {
    for (const [face, tools] of [
      ['v1', v1Tools()],
      ['v2', v2Tools(true)],
    ] as const) {
      const { specs } = specsOf([...tools]);
      for (const [op, spelled] of Object.entries(FACES[face]) as Array<[GameOp, { tool: string; action?: string }]>) {
        // v0.547's flat list has no login_token (test/unit/sim/faces.test.ts checks it is still unlisted).
        if (face === 'v1' && op === 'login_token') continue;
        const kind = callKind(specs.get(spelled.tool), spelled.action ? { action: spelled.action } : {});
        expect(`${face} ${op}: ${kind}`).toBe(`${face} ${op}: ${OP_KINDS[op]}`);
      }
    }
  });

  it('lets config overrides name a tool or one action of a grouped tool', () => {
    const { specs } = specsOf(v2Tools(true), { 'spacemolt.scan': 'query', spacemolt_market: 'free' });
    expect(callKind(specs.get('spacemolt'), { action: 'scan' })).toBe('query');
    expect(callKind(specs.get('spacemolt'), { action: 'mine' })).toBe('mutation');
    expect(callKind(specs.get('spacemolt_market'), { action: 'view_market' })).toBe('free');
    const flat = specsOf(v1Tools(), { mine: 'query' }).specs;
    expect(callKind(flat.get('mine'), {})).toBe('query');
  });

  it("takes the kind the server's own description states before the shipped table", () => {
    // minimolt's labels; a server that says `scan` is a query is believed over v0.547's mutation.
    const grouped: McpToolLike = {
      name: 'spacemolt',
      description:
        'Core.\nActions (pass one as `action`):\n- scan(): Scan [query: free, no tick]\n- warp(id): Warp [mutation: one per tick]\n- wave(): Wave [free action: no tick]',
      inputSchema: { type: 'object', properties: { action: { type: 'string' } } },
    };
    const spec = toToolSpec(grouped, { shipped: true });
    expect(spec.actions).toMatchObject({
      scan: 'query',
      warp: 'mutation',
      wave: 'free',
      mine: 'mutation',
      get_status: 'query',
    });
    const flat = toToolSpec(
      { name: 'get_status', description: 'Status [mutation: one per tick]', inputSchema: { type: 'object' } },
      { shipped: true },
    );
    expect(flat.kind).toBe('mutation');
    // Without a label the table decides; an override still beats the label.
    expect(toToolSpec({ name: 'mine', description: 'Mine.' }, { shipped: true }).kind).toBe('mutation');
    expect(
      toToolSpec({ name: 'mine', description: 'Mine [mutation: x]' }, { shipped: true, overrides: { mine: 'query' } })
        .kind,
    ).toBe('query');
  });

  it('reads unknown actions and tools by their names', () => {
    const tool: McpToolLike = {
      name: 'spacemolt',
      inputSchema: {
        type: 'object',
        properties: { action: { type: 'string', enum: ['get_weather', 'send_chat', 'warp'] } },
      },
    };
    const spec = toToolSpec(tool, { shipped: true });
    expect(spec.actions).toMatchObject({
      get_weather: 'query',
      send_chat: 'free',
      warp: 'mutation',
      mine: 'mutation',
      get_status: 'query',
    });
  });
});
