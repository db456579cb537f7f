// The tool list fits its budget (a quarter of the context): measured on the real SpaceMolt v1 catalogue (203 flat
// tools from the public docs, given descriptions as long as the real ones: ~46 KB of schemas in all).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitToolList, gameToolsTool, toolTokens, compactSpec } from '../../../internal/llm/tool-budget.js';
import { FACES, type ToolSpec } from '../../../internal/shared/index.js';

interface CatalogTool { name: string; mutation: boolean; params: Record<string, { required?: boolean; type?: string }> }
const catalog = JSON.parse(readFileSync(new URL('../../fixtures/spacemolt/catalog-v1.json', import.meta.url), 'utf8')) as { tools: CatalogTool[] };

function realisticV1(): ToolSpec[] {
  return catalog.tools.map((tool) => ({
    name: tool.name,
    description: `${tool.name.replace(/_/g, ' ')}: does what its name says in the SpaceMolt galaxy. ` +
      'It answers with a text dashboard of the result and your ship. '.repeat(2) + (tool.mutation ? 'Mutation: one per tick.' : 'Query: free.'),
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(Object.entries(tool.params).map(([name, param]) => [name, {
        type: param.type ?? 'string', description: `The ${name.replace(/_/g, ' ')} to use for this command; see the game guide for valid values.`,
      }])),
      required: Object.entries(tool.params).filter(([, param]) => param.required).map(([name]) => name),
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
    for (const spelled of Object.values(FACES.v1)) expect(offered.has(spelled?.tool ?? '?')).toBe(true);
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
      name: 'sell', readOnly: false,
      description: 'Sell cargo at the station. Walks down the bid 0.5% per unit. Returns the total earned and more prose here.',
      inputSchema: { type: 'object', properties: { id: { type: 'string', enum: ['iron_ore'], description: 'Item id. Long explanation follows here that goes on and on for a while, past eighty characters.' } }, required: ['id'] },
    };
    const compact = compactSpec(spec);
    expect(compact.description).toBe('Sell cargo at the station.');
    expect(compact.inputSchema.required).toEqual(['id']);
    expect((compact.inputSchema.properties?.id as { enum: string[]; description: string }).enum).toEqual(['iron_ore']);
    expect((compact.inputSchema.properties?.id as { description: string }).description).toBe('Item id.');
    expect(spec.description).toContain('Walks down'); // the original is not touched
  });
});
