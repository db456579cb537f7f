// A model without a known price shows "price unknown", never a made-up $0: the autoplay summary, the status line
// and /cost (formatCost on the running usage), and the `sessions` table (from the stored model id).
import { describe, expect, it } from 'vitest';
import { createChalk } from '../../../internal/cli/render.js';
import { sessionsTable } from '../../../internal/cli/sessions.js';
import { formatStatusLine } from '../../../internal/cli/status.js';
import { summaryLines } from '../../../internal/cli/summary.js';
import { formatCost } from '../../../internal/cli/text.js';
import { storedModelPriced } from '../../../internal/provider/index.js';
import { addUsage, emptyUsage } from '../../../internal/shared/index.js';
import { openStore } from '../../../internal/store/index.js';

const usage = { promptTokens: 900, completionTokens: 100, cachedTokens: 0, costUsd: 0 };

describe('price unknown', () => {
  it('formatCost says so; a priced usage keeps its dollars; the flag survives adding usage up', () => {
    expect(formatCost({ costUsd: 0 })).toBe('$0');
    expect(formatCost({ costUsd: 0.5, priced: true })).toBe('$0.50');
    expect(formatCost({ costUsd: 0, priced: false })).toBe('price unknown');
    expect(formatCost({ costUsd: 0.5, priced: false })).toBe('$0.50 + price unknown');
    const total = addUsage(addUsage(emptyUsage(), { ...usage, priced: false }), { ...usage, costUsd: 0 });
    expect(total.priced).toBe(false);
    expect(addUsage(emptyUsage(), usage).priced).toBeUndefined();
  });

  it('the autoplay summary and the status line show "price unknown" for an unpriced model', () => {
    const summary = summaryLines(
      {
        goal: 'g',
        stopReason: { code: 'max_turns', limit: 1 },
        durationMs: 1000,
        turns: 1,
        ticks: 1,
        tickUtilisation: 1,
        actions: 1,
        toolCalls: 1,
        errorsByCode: {},
        outcomes: {},
        start: undefined,
        end: undefined,
        sessionName: 's',
        startTurn: 0,
        usage: { ...usage, priced: false },
      },
      { chalk: createChalk(false) },
    ).join('\n');
    expect(summary).toContain('tokens 1.0k (0 cached) · cost price unknown');
    expect(summary).not.toContain('$0');
    const status = formatStatusLine({
      state: undefined,
      usage: { ...usage, priced: false },
      chalk: createChalk(false),
    });
    expect(status).toContain('price unknown');
  });

  it('the sessions table knows which stored models have a price', async () => {
    expect(storedModelPriced('custom/test-model')).toBe(false);
    expect(storedModelPriced('openai/gpt-4o-mini')).toBe(true);
    expect(storedModelPriced('ollama/llama3')).toBe(true);
    expect(storedModelPriced('builtin/autopilot')).toBe(true);
    // A custom endpoint on this machine is local (free), as resolveModel decides; elsewhere its price is unknown.
    expect(storedModelPriced('custom/test-model', 'http://127.0.0.1:8080/v1')).toBe(true);
    expect(storedModelPriced('custom/test-model', 'https://llm.example.com/v1')).toBe(false);
    const store = await openStore({ path: ':memory:' });
    try {
      for (const model of ['custom/test-model', 'builtin/autopilot']) {
        const session = await store.createSession({ name: model.replace('/', '-'), game: 'embedded', model });
        if (model.startsWith('custom')) await store.recordUsage({ sessionId: session.id, model, usage });
      }
      const local = await store.createSession({
        name: 'local-custom',
        game: 'embedded',
        model: 'custom/test-model',
        extra: { baseUrl: 'http://localhost:8080/v1' },
      });
      await store.recordUsage({ sessionId: local.id, model: 'custom/test-model', usage });
      // Played with --price (not stored): its cost was counted, so it is shown.
      const overridden = await store.createSession({ name: 'with-price', game: 'embedded', model: 'openai/mystery' });
      await store.recordUsage({
        sessionId: overridden.id,
        model: 'openai/mystery',
        usage: { ...usage, costUsd: 0.5 },
      });
      const table = (await sessionsTable(store)).join('\n');
      expect(table).toMatch(/with-price .*1\.0k +\$0\.50$/m);
      expect(table).toMatch(/local-custom .*1\.0k +\$0/);
      expect(table).toMatch(/custom-test-model .*1\.0k +price unknown/);
      expect(table).toMatch(/builtin-autopilot .*\$0/);
    } finally {
      await store.close();
    }
  });
});
