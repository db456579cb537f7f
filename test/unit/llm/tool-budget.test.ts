// The tool list fits its budget (a quarter of the context): measured on the real SpaceMolt v1 catalogue (203 flat
// tools from the public docs, given descriptions as long as the real ones: ~46 KB of schemas in all).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  fitPlayTools,
  fitToolList,
  gameToolsTool,
  toolTokens,
  compactSpec,
} from '../../../internal/llm/tool-budget.js';
import { type ToolSpec } from '../../../internal/shared/index.js';
import { FACES } from '../../../internal/spacemolt/index.js';

interface CatalogTool {
  name: string;
  mutation: boolean;
  params: Record<string, { required?: boolean; type?: string }>;
}
const catalog = JSON.parse(
  readFileSync(new URL('../../fixtures/spacemolt/catalog-v1.json', import.meta.url), 'utf8'),
) as { tools: CatalogTool[] };

function realisticV1(): ToolSpec[] {
  return catalog.tools.map((tool) => ({
    name: tool.name,
    description:
      `${tool.name.replace(/_/g, ' ')}: does what its name says in the SpaceMolt galaxy. ` +
      'It answers with a text dashboard of the result and your ship. '.repeat(2) +
      (tool.mutation ? 'Mutation: one per tick.' : 'Query: free.'),
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(tool.params).map(([name, param]) => [
          name,
          {
            type: param.type ?? 'string',
            description: `The ${name.replace(/_/g, ' ')} to use for this command; see the game guide for valid values.`,
          },
        ]),
      ),
      required: Object.entries(tool.params)
        .filter(([, param]) => param.required)
        .map(([name]) => name),
    },
    readOnly: !tool.mutation,
  }));
}

describe('tool list budget', () => {
  it('keeps the real v1 catalogue under a quarter of a 16k context, core tools first, the rest listed on demand', async () => {
    const specs = realisticV1();
    const before = toolTokens(specs);
    expect(before).toBeGreaterThan(10_000); // what a model would pay per request unfitted
    const fitted = fitToolList(specs, 4_000);
    expect(fitted.tokens).toBeLessThanOrEqual(4_000);
    expect(toolTokens(fitted.offered)).toBeLessThanOrEqual(4_000);
    const offered = new Set(fitted.offered.map((spec) => spec.name));
    // Every core tool the catalogue has is offered (login_token is spelled for v1 but not in v0.547's flat list).
    const listed = new Set(specs.map((spec) => spec.name));
    const core = Object.values(FACES.v1).filter((spelled) => listed.has(spelled?.tool ?? '?'));
    expect(core.length).toBe(Object.keys(FACES.v1).length - 1);
    for (const spelled of core) expect(offered.has(spelled?.tool ?? '?')).toBe(true);
    expect(fitted.hidden.length + fitted.offered.length).toBe(specs.length);
    expect(fitted.hidden.length).toBeGreaterThan(0);
    const listing = await gameToolsTool(fitted.hidden).run({ filter: fitted.hidden[0]?.name ?? '' });
    expect(listing.text).toContain(`${fitted.hidden[0]?.name}(`);
  });

  it('sends a list that fits as it is, untouched', () => {
    const specs = realisticV1().slice(0, 5);
    const fitted = fitToolList(specs, 4_000);
    expect(fitted.offered).toEqual(specs);
    expect(fitted.hidden).toEqual([]);
  });

  it('compacts descriptions before hiding anything, keeping every field, enum and required list', () => {
    const spec: ToolSpec = {
      name: 'sell',
      readOnly: false,
      description:
        'Sell cargo at the station. Walks down the bid 0.5% per unit. Returns the total earned and more prose here.',
      inputSchema: {
        type: 'object',
        properties: {
          id: {
            type: 'string',
            enum: ['iron_ore'],
            description:
              'Item id. Long explanation follows here that goes on and on for a while, past eighty characters.',
          },
        },
        required: ['id'],
      },
    };
    const compact = compactSpec(spec);
    expect(compact.description).toBe('Sell cargo at the station.');
    expect(compact.inputSchema.required).toEqual(['id']);
    expect((compact.inputSchema.properties?.id as { enum: string[]; description: string }).enum).toEqual(['iron_ore']);
    expect((compact.inputSchema.properties?.id as { description: string }).description).toBe('Item id.');
    expect(spec.description).toContain('Walks down'); // the original is not touched
  });
});

describe('a turn on a game with too many tools', () => {
  it('offers a fitted list plus game_tools, and a hidden tool is still callable by name', async () => {
    const { runTurn } = await import('../../../internal/llm/index.js');
    const { ScriptedProvider } = await import('../../fakes/scripted-provider.js');
    const { FakeGame } = await import('../../fakes/fake-game.js');
    const specs = realisticV1();
    const game = new FakeGame(
      specs.map((spec) => ({ name: spec.name, readOnly: spec.readOnly, result: `${spec.name} done` })),
    );
    const gameSpecs = game.specs().map((spec) => ({
      ...spec,
      description: specs.find((s) => s.name === spec.name)!.description,
      inputSchema: specs.find((s) => s.name === spec.name)!.inputSchema,
    }));
    const hiddenName = fitToolList(gameSpecs, 4_000).hidden[0]!.name;
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'list', name: 'game_tools', arguments: { filter: hiddenName } }] },
      (request) => {
        expect(request.messages.at(-1)?.content).toContain(`${hiddenName}(`);
        return { toolCalls: [{ id: 'call', name: hiddenName, arguments: {} }] };
      },
      { content: 'done' },
    ]);
    const history = (await import('./helpers.js')).newHistory();
    const result = await runTurn({
      provider,
      game,
      tools: gameSpecs,
      history,
      input: { kind: 'user', text: 'go' },
      systemPrompt: 's',
      contextTokens: 16_000,
    });
    expect(result.outcome).toBe('answered');
    const sent = provider.requests[0]!.tools;
    expect(toolTokens(sent)).toBeLessThanOrEqual(4_000); // a quarter of the 16k context, game_tools included
    expect(sent.some((spec) => spec.name === 'game_tools')).toBe(true);
    expect(sent.some((spec) => spec.name === hiddenName)).toBe(false);
    expect(game.calls.map((call) => call.name)).toEqual([hiddenName]);
  });

  it('offers a SpaceMolt face only the tools a captain plays with; the others are listed on demand', async () => {
    const grouped = (name: string, actions: string[]): ToolSpec => ({
      name,
      description: `${name}: ${actions.join(', ')}.`,
      inputSchema: { type: 'object', properties: { action: { type: 'string', enum: actions } }, required: ['action'] },
      readOnly: false,
    });
    const specs = [
      grouped('spacemolt_auth', ['register', 'login']),
      grouped('spacemolt', ['get_status', 'mine', 'travel']),
      grouped('spacemolt_market', ['view_market']),
      grouped('spacemolt_social', ['chat', 'captains_log_add']),
      grouped('spacemolt_storage', ['view']),
    ];
    const fitted = fitPlayTools(specs, { maxTokens: 4_000 });
    // The account tool stays: a captain without an account registers itself.
    expect(fitted.offered.map((spec) => spec.name)).toEqual(['spacemolt_auth', 'spacemolt', 'spacemolt_market']);
    expect(fitted.hidden.map((spec) => spec.name)).toEqual(['spacemolt_social', 'spacemolt_storage']);
    expect(fitted.tokens).toBeLessThan(toolTokens(specs));
    const listing = await gameToolsTool(fitted.hidden).run({});
    expect(listing.text).toContain('spacemolt_social(action)');
    // Logged in, the account tool is listed on demand too (Skipper logs in again by code).
    const playing = fitPlayTools(specs, { maxTokens: 4_000, loggedIn: true });
    expect(playing.offered.map((spec) => spec.name)).toEqual(['spacemolt', 'spacemolt_market']);
    expect(playing.hidden.map((spec) => spec.name)).toContain('spacemolt_auth');
    // A game that is not SpaceMolt keeps its whole list.
    const other = [grouped('dig', ['hole']), grouped('shout', ['loud'])];
    expect(fitPlayTools(other, { maxTokens: 4_000 }).offered.map((spec) => spec.name)).toEqual(['dig', 'shout']);
  });
});
