import { describe, expect, it } from 'vitest';
import { createRandomProvider } from '../../../../internal/provider/builtin/index.js';
import type { Provider } from '../../../../internal/shared/index.js';
import { Conversation, SOL_SYSTEM, TOOLS, dashboard, errorData } from './conversation.js';

/** Plays `turns` turns against a fake that answers every call with a dashboard; returns every call made. */
async function play(provider: Provider, turns: number): Promise<Array<{ name: string; args: Record<string, unknown>; id: string }>> {
  const conversation = new Conversation();
  const calls: Array<{ name: string; args: Record<string, unknown>; id: string }> = [];
  for (let turn = 1; turn <= turns; turn += 1) {
    conversation.user(`Autoplay turn ${turn}.`);
    let rounds = 0;
    for (;;) {
      const response = await provider.complete({ messages: structuredClone(conversation.messages), tools: TOOLS });
      conversation.reply(response);
      if (response.message.toolCalls.length === 0) break;
      rounds += 1;
      expect(rounds).toBeLessThanOrEqual(3);
      for (const call of response.message.toolCalls) {
        calls.push({ name: call.name, args: JSON.parse(call.arguments) as Record<string, unknown>, id: call.id });
        conversation.answer(call.id, call.name, { ...dashboard(), ...SOL_SYSTEM });
      }
    }
  }
  return calls;
}

describe('builtin/random', () => {
  it('makes 1–3 rounds of schema-shaped calls per turn, never chats, seeded', async () => {
    const calls = await play(createRandomProvider({ seed: 5 }), 40);
    expect(calls.length).toBeGreaterThanOrEqual(40);
    expect(calls.length).toBeLessThanOrEqual(120);
    expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
    const names = new Set(calls.map((c) => c.name));
    for (const forbidden of ['chat', 'captains_log_add', 'logout', 'login', 'register']) expect(names.has(forbidden)).toBe(false);
    expect(names.size).toBeGreaterThan(8);
    for (const call of calls) {
      const tool = TOOLS.find((t) => t.name === call.name)!;
      for (const field of tool.inputSchema.required ?? []) expect(call.args).toHaveProperty(field);
      if (call.name === 'sell') expect(Number.isInteger(call.args.quantity) && (call.args.quantity as number) >= 1).toBe(true);
      if (call.name === 'travel') expect(['sol_central', 'sol_belt']).toContain(call.args.target_poi);
      if (call.name === 'jump') expect(['sol', 'wilds']).toContain(call.args.target_system);
    }
    const again = await play(createRandomProvider(5), 40);
    expect(again.map((c) => [c.name, c.args])).toEqual(calls.map((c) => [c.name, c.args]));
  });

  it('registers when the game says it is not logged in', async () => {
    const provider = createRandomProvider({ seed: 2 });
    const conversation = new Conversation().user().result('get_status', errorData('not_authenticated'));
    const response = await provider.complete({ messages: conversation.messages, tools: TOOLS });
    expect(response.message.toolCalls[0]?.name).toBe('register');
  });
});
