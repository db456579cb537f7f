import { describe, expect, it } from 'vitest';
import { createRandomProvider } from '../../../../internal/provider/builtin/index.js';
import type { Provider, ToolSpec } from '../../../../internal/shared/index.js';
import type { FaceId } from '../../../../internal/spacemolt/index.js';
import { fromFaceCall } from '../../../../internal/spacemolt/index.js';
import { Conversation, SOL_SYSTEM, dashboard, errorData, toolsFor } from './conversation.js';

type Made = { name: string; args: Record<string, unknown>; id: string };

/** Plays `turns` turns against a fake that answers every call with a status block and Sol's layout. */
async function play(provider: Provider, tools: ToolSpec[], turns: number): Promise<Made[]> {
  const conversation = new Conversation();
  const calls: Made[] = [];
  for (let turn = 1; turn <= turns; turn += 1) {
    conversation.user(`Autoplay turn ${turn}.`);
    let rounds = 0;
    for (;;) {
      const response = await provider.complete({ messages: structuredClone(conversation.messages), tools });
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

describe.each(['v1', 'v2'] as FaceId[])('builtin/random on %s', (face) => {
  const tools = toolsFor(face);

  it('makes 1–3 rounds of valid calls per turn (known tools, actions and arguments only), never chats, seeded', async () => {
    const calls = await play(createRandomProvider({ seed: 5 }), tools, 40);
    expect(calls.length).toBeGreaterThanOrEqual(40);
    expect(calls.length).toBeLessThanOrEqual(120);
    expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
    const ops = calls.map((c) => fromFaceCall(face, c.name, c.args)?.op);
    for (const forbidden of ['chat', 'captains_log_add', 'logout', 'login', 'register'])
      expect(ops).not.toContain(forbidden);
    expect(new Set(ops).size).toBeGreaterThan(8);
    for (const [i, call] of calls.entries()) {
      const tool = tools.find((t) => t.name === call.name)!;
      expect(tool).toBeDefined();
      const declared = Object.keys(tool.inputSchema.properties ?? {});
      for (const key of Object.keys(call.args)) expect(declared).toContain(key);
      if (tool.actions) expect(Object.keys(tool.actions)).toContain(call.args.action);
      const read = fromFaceCall(face, call.name, call.args)!;
      expect(read).toBeDefined();
      if (read.op === 'sell')
        expect(Number.isInteger(read.args.quantity) && (read.args.quantity as number) >= 1).toBe(true);
      if (read.op === 'travel') expect(['sol_central', 'sol_belt']).toContain(read.args.target);
      if (read.op === 'jump') expect(['sol', 'wilds']).toContain(read.args.target);
      expect(ops[i]).toBe(read.op);
    }
    const again = await play(createRandomProvider(5), tools, 40);
    expect(again.map((c) => [c.name, c.args])).toEqual(calls.map((c) => [c.name, c.args]));
  });

  it('registers (once per run) when the game says it is not logged in', async () => {
    const provider = createRandomProvider({ seed: 2 });
    const conversation = new Conversation(face).user().result('get_status', errorData('not_authenticated'));
    const response = await provider.complete({ messages: conversation.messages, tools });
    const call = response.message.toolCalls[0]!;
    expect(fromFaceCall(face, call.name, JSON.parse(call.arguments))?.op).toBe('register');
    conversation
      .reply(response)
      .answer(call.id, call.name, errorData('invalid_registration_code'))
      .result('get_status', errorData('not_authenticated'));
    const again = await provider.complete({ messages: conversation.messages, tools });
    expect(again.message.toolCalls.map((c) => fromFaceCall(face, c.name, JSON.parse(c.arguments))?.op)).not.toContain(
      'register',
    );
  });
});
