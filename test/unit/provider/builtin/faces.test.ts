// The autopilot and builtin/random play both SpaceMolt faces from the tool list alone: the same scripted game on the
// real v1 (flat) and v2 (grouped) catalogues gives the same ops, spelled for each face, with no argument the server
// does not accept; registration is tried once; a tool list of neither face is refused.
import { describe, expect, it } from 'vitest';
import {
  canAutopilot,
  createAutopilotProvider,
  createRandomProvider,
} from '../../../../internal/provider/builtin/index.js';
import type { Message, Provider, ToolCall, ToolSpec } from '../../../../internal/shared/index.js';
import type { FaceId, GameOp } from '../../../../internal/spacemolt/index.js';
import { FatalError } from '../../../../internal/shared/index.js';
import { fromFaceCall } from '../../../../internal/spacemolt/index.js';
import { fakeGame, realFace } from './fake-game.js';

interface Played {
  calls: ToolCall[];
  ops: Array<GameOp | undefined>;
  results: Message[];
  endings: string[];
  fatal?: FatalError;
}

/** Plays up to `turns` autoplay turns against the fake game; stops after the first successful refuel. */
async function play(
  provider: Provider,
  face: FaceId,
  tools: ToolSpec[],
  turns = 12,
  stopAfter: GameOp = 'refuel',
): Promise<Played> {
  const game = fakeGame(face);
  const messages: Message[] = [
    { id: 'sys', role: 'system', content: 'You are a captain. Your goal: earn credits.', createdAt: 0 },
  ];
  const played: Played = { calls: [], ops: [], results: [], endings: [] };
  let n = 0;
  for (let turn = 1; turn <= turns; turn += 1) {
    messages.push({ id: `u${turn}`, role: 'user', content: `Autoplay turn ${turn}.`, createdAt: (n += 1) });
    for (let round = 0; round < 30; round += 1) {
      const response = await provider.complete({ messages: structuredClone(messages), tools });
      messages.push({
        id: `a${(n += 1)}`,
        role: 'assistant',
        content: response.message.content,
        toolCalls: response.message.toolCalls,
        createdAt: n,
      });
      if (response.message.toolCalls.length === 0) {
        played.endings.push(response.message.content);
        break;
      }
      for (const call of response.message.toolCalls) {
        const answer = game(call);
        played.calls.push(call);
        played.ops.push(answer.op);
        const result: Message = {
          id: `t${(n += 1)}`,
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: answer.text,
          data: answer.data,
          isError: answer.isError,
          createdAt: n,
        };
        played.results.push(result);
        messages.push(result);
        if (answer.op === stopAfter && !answer.isError) return played;
      }
    }
  }
  return played;
}

const succeeded = (played: Played): Array<GameOp | undefined> =>
  played.ops.filter(
    (op, i) => !played.results[i]!.isError && op !== undefined && !op.startsWith('get_') && op !== 'view_market',
  );

describe('builtin providers on both SpaceMolt faces', () => {
  const faces = { v1: realFace('v1'), v2: realFace('v2') };

  it('canAutopilot: yes on the real v1 and v2 catalogues, no on a generic tool list', () => {
    expect(canAutopilot(faces.v1.tools)).toEqual({ ok: true, face: 'v1' });
    expect(canAutopilot(faces.v2.tools)).toEqual({ ok: true, face: 'v2' });
    const generic: ToolSpec[] = [
      { name: 'search', description: '', inputSchema: { type: 'object' }, readOnly: true },
      {
        name: 'spacemolt',
        description: '',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
        readOnly: false,
      },
    ];
    const refused = canAutopilot(generic);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.reason).toMatch(/mine.*travel.*spacemolt/);
  });

  it('plays register → status → survey → travel → mine ×4 → travel → dock → sell → refuel the same way on v1 and v2', async () => {
    const runs = {
      v1: await play(createAutopilotProvider({ seed: 11 }), 'v1', faces.v1.tools),
      v2: await play(createAutopilotProvider({ seed: 11 }), 'v2', faces.v2.tools),
    };
    expect(runs.v2.ops).toEqual(runs.v1.ops);
    expect(runs.v1.ops[0]).toBe('get_status');
    expect(succeeded(runs.v1)).toEqual([
      'register',
      'undock',
      'travel',
      'mine',
      'mine',
      'mine',
      'mine',
      'travel',
      'dock',
      'sell',
      'refuel',
    ]);
    for (const face of ['v1', 'v2'] as const) {
      const { calls } = runs[face];
      // Every argument is one the real server accepts for that tool (and action).
      for (const call of calls) {
        const accepted = faces[face].accepts(call);
        for (const key of Object.keys(JSON.parse(call.arguments) as object))
          expect(accepted, `${call.name} ${call.arguments}`).toContain(key);
      }
      expect(calls.filter((c) => fromFaceCall(face, c.name, JSON.parse(c.arguments))?.op === 'register')).toHaveLength(
        1,
      );
    }
    const travel = (face: FaceId): unknown =>
      runs[face].calls
        .map((c) => [c.name, JSON.parse(c.arguments)])
        .find(([name, args]) => name === 'travel' || (args as { action?: string }).action === 'travel');
    expect(travel('v1')).toEqual(['travel', { target_poi: 'sol_belt' }]);
    expect(travel('v2')).toEqual(['spacemolt', { action: 'travel', id: 'sol_belt' }]);
    expect(
      runs.v2.calls.some((c) => c.name === 'spacemolt_auth' && JSON.parse(c.arguments).action === 'register'),
    ).toBe(true);
    expect(
      runs.v2.calls.some((c) => c.name === 'spacemolt_market' && JSON.parse(c.arguments).action === 'view_market'),
    ).toBe(true);
  });

  it('a refused register is not retried: the run ends with the game’s words and the flag to pass', async () => {
    for (const face of ['v1', 'v2'] as const) {
      const game = fakeGame(face);
      const words = 'registration_code_missing: SpaceMolt needs a registration code: pass --registration-code <code>';
      const provider = createAutopilotProvider({ seed: 3 });
      const refusing = (call: ToolCall): ReturnType<typeof game> => {
        const answer = game(call);
        if (answer.op !== 'register') return answer;
        return {
          op: 'register',
          isError: true,
          text: `Error: ${words}`,
          data: { op: 'register', error: { code: 'registration_code_missing', message: words } },
        };
      };
      const played = await playWith(provider, face, refusing);
      expect(played.ops.filter((op) => op === 'register')).toHaveLength(1);
      expect(played.fatal?.message).toMatch(/registration_code_missing.*--registration-code/);
    }
  });

  it('builtin/random calls only tools, actions and arguments each real face accepts', async () => {
    for (const face of ['v1', 'v2'] as const) {
      const played = await play(createRandomProvider({ seed: 9 }), face, faces[face].tools, 15, 'help');
      expect(played.calls.length).toBeGreaterThan(10);
      for (const call of played.calls) {
        const args = JSON.parse(call.arguments) as Record<string, unknown>;
        const tool = faces[face].tools.find((t) => t.name === call.name);
        expect(tool, call.name).toBeDefined();
        if (tool?.actions) expect(Object.keys(tool.actions)).toContain(args.action);
        for (const key of Object.keys(args))
          expect(faces[face].accepts(call), `${call.name} ${call.arguments}`).toContain(key);
      }
    }
  });
});

/** Four turns against a game whose answers `answer` gives. */
async function playWith(provider: Provider, face: FaceId, answer: ReturnType<typeof fakeGame>): Promise<Played> {
  const tools = realFace(face).tools;
  const messages: Message[] = [{ id: 'sys', role: 'system', content: 'You are a captain.', createdAt: 0 }];
  const played: Played = { calls: [], ops: [], results: [], endings: [] };
  let n = 0;
  for (let turn = 1; turn <= 4; turn += 1) {
    messages.push({ id: `u${turn}`, role: 'user', content: `Autoplay turn ${turn}.`, createdAt: (n += 1) });
    for (let round = 0; round < 10; round += 1) {
      let response: Awaited<ReturnType<Provider['complete']>>;
      try {
        response = await provider.complete({ messages: structuredClone(messages), tools });
      } catch (error) {
        // A fatal error ends the run, as it ends the CLI.
        if (!(error instanceof FatalError)) throw error;
        played.fatal = error;
        return played;
      }
      messages.push({
        id: `a${(n += 1)}`,
        role: 'assistant',
        content: response.message.content,
        toolCalls: response.message.toolCalls,
        createdAt: n,
      });
      if (response.message.toolCalls.length === 0) {
        played.endings.push(response.message.content);
        break;
      }
      for (const call of response.message.toolCalls) {
        const result = answer(call);
        played.calls.push(call);
        played.ops.push(result.op);
        messages.push({
          id: `t${(n += 1)}`,
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: result.text,
          data: result.data,
          isError: result.isError,
          createdAt: n,
        });
      }
    }
  }
  return played;
}
