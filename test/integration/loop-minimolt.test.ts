// The agent loop playing minimolt for real, on both SpaceMolt faces (v2 grouped, what the embedded game plays, and v1
// flat): the real game layer (MCP over the in-memory transport), the real OpenAI-compatible provider and the strict
// fake OpenAI server. Checks what reaches the model (results in order, state text, no password, no session id, no
// data) and that a turn cancelled inside a blocking mutation stays valid.
import { afterEach, describe, expect, it } from 'vitest';
import { connectGame, type GameConnection } from '../../internal/game/index.js';
import { buildSystemPrompt, createHistory, runTurn, type History, type TurnResult } from '../../internal/llm/index.js';
import { createOpenAIProvider, type OpenAIProvider } from '../../internal/provider/index.js';
import {
  type CredentialStore,
  type Game,
  type GameCallOptions,
  type ToolResult,
  type ToolSpec,
} from '../../internal/shared/index.js';
import {
  toFaceCall,
  type FaceId,
  type GameObservation,
  type GameOp,
  type OpArgs,
} from '../../internal/spacemolt/index.js';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import {
  modelAt,
  startFakeOpenAI,
  type FakeStep,
  type FakeToolCall,
  type FakeOpenAI,
  type RecordedRequest,
} from '../fakes/fake-openai.js';

const CODE = 'mm-loop-minimolt-test';

type WireMessage = { role: string; content?: unknown; tool_call_id?: string };
const messagesOf = (request: RecordedRequest | undefined): WireMessage[] =>
  (request?.body?.messages ?? []) as WireMessage[];

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

function memoryCredentials(): CredentialStore {
  const entries = new Map<string, { username: string; password: string }>();
  let latest: { username: string; password: string } | undefined;
  let list: readonly string[] = [];
  return {
    get: (url, username) => Promise.resolve(entries.get(`${url} ${username}`)),
    latest: () => Promise.resolve(latest),
    put: (url, username, password) => {
      latest = { username, password };
      entries.set(`${url} ${username}`, latest);
      list = Object.freeze([...entries.values()].map((entry) => entry.password));
      return Promise.resolve();
    },
    passwordList: () => list,
  };
}

async function setup(
  face: FaceId,
  script: FakeStep[],
  tickMs: number,
): Promise<{ fake: FakeOpenAI; provider: OpenAIProvider; game: GameConnection; sim: Minimolt; tools: ToolSpec[] }> {
  const sim = await createMinimolt({ tickMs, seed: 7, hostileChat: 0, registrationCode: CODE });
  cleanup.push(() => sim.close());
  const game = await connectGame({
    target: { kind: 'transport', label: 'embedded', url: 'embedded://minimolt', connect: () => sim.connect({ face }) },
    credentials: memoryCredentials(),
    registrationCode: CODE,
  });
  cleanup.push(() => game.close());
  const fake = await startFakeOpenAI({ script });
  cleanup.push(() => fake.close());
  const provider = createOpenAIProvider(modelAt(fake), { retry: { maxAttempts: 1, baseMs: 5, maxMs: 10 } });
  cleanup.push(() => provider.close());
  return { fake, provider, game, sim, tools: await game.listTools() };
}

/** The model's tool call for an op, spelled as the face spells it (the model sees only the face's tools). */
function modelCall(face: FaceId, id: string, op: GameOp, args: OpArgs = {}): FakeToolCall {
  const call = toFaceCall(face, op, args);
  if (!call) throw new Error(`the ${face} face has no ${op}`);
  return { id, name: call.name, arguments: call.args };
}

function play(options: {
  provider: OpenAIProvider;
  game: Pick<Game, 'call' | 'guide'>;
  tools: ToolSpec[];
  history: History;
  text: string;
  signal?: AbortSignal;
}): Promise<TurnResult> {
  return runTurn({
    provider: options.provider,
    game: options.game,
    tools: options.tools,
    history: options.history,
    input: { kind: 'user', text: options.text },
    systemPrompt: buildSystemPrompt({ game: options.game.guide?.() }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

describe.each(['v2', 'v1'] as const)('agent loop on minimolt, %s face', (face) => {
  it('registers, looks around in parallel, acts, and answers — each round seeing the last one', async () => {
    const { fake, provider, game, tools } = await setup(
      face,
      [
        { toolCalls: [modelCall(face, 'r', 'register', { username: 'loop_nova', empire: 'solarian' })] },
        (request) => {
          const last = request.body.messages.at(-1) as WireMessage;
          expect(last.tool_call_id).toBe('r');
          expect(String(last.content)).toContain('[saved]');
          return { toolCalls: [modelCall(face, 's', 'get_status'), modelCall(face, 'y', 'get_system')] };
        },
        (request) => {
          const results = (request.body.messages as WireMessage[]).filter((message) => message.role === 'tool');
          expect(results.map((message) => message.tool_call_id)).toEqual(['r', 's', 'y']);
          // SpaceMolt's status (the pilot, credits, the system) and the system's POIs reached the model: v2's status
          // block and POI table; the flat v1 face's JSON, as the real /mcp answers
          if (face === 'v2') {
            expect(String(results[1]?.content)).toMatch(/^loop_nova \[solarian\] \| [\d,]+cr \| \S/m);
            expect(String(results[2]?.content)).toMatch(/^System: .* \| Security: [^\n]+$/m);
            expect(String(results[2]?.content)).toMatch(/^id\tname\ttype\tclass\tbase\tonline$/m);
          } else {
            const status = JSON.parse(String(results[1]?.content)) as Record<string, any>;
            expect(status.player).toMatchObject({
              username: 'loop_nova',
              empire: 'solarian',
              credits: expect.any(Number),
            });
            expect(status.system.name).toMatch(/\S/);
            const system = JSON.parse(String(results[2]?.content)) as Record<string, any>;
            expect(system.system.name).toMatch(/\S/);
            expect(system.security_status).toMatch(/^[^\n]+$/);
            expect(system.system.pois.length).toBeGreaterThan(0);
            for (const poi of system.system.pois)
              expect(Object.keys(poi)).toEqual(
                expect.arrayContaining(['id', 'name', 'type', 'class', 'has_base', 'online']),
              );
          }
          return { toolCalls: [modelCall(face, 'u', 'undock')] };
        },
        (request) => {
          const last = request.body.messages.at(-1) as WireMessage;
          expect(last.tool_call_id).toBe('u');
          // The real undock answer is one sentence (in the v1 JSON's message); the state is asked for next.
          const sentence =
            face === 'v2' ? String(last.content) : (JSON.parse(String(last.content)) as Record<string, any>).message;
          expect(sentence).toMatch(/^Undocked from /);
          return { toolCalls: [modelCall(face, 't', 'get_status')] };
        },
        (request) => {
          const last = request.body.messages.at(-1) as WireMessage;
          expect(last.tool_call_id).toBe('t');
          if (face === 'v2') {
            expect(String(last.content)).toMatch(/^loop_nova \[solarian\] \| [\d,]+cr \| \S/m);
            expect(String(last.content)).not.toMatch(/^Docked at: /m);
          } else {
            const status = JSON.parse(String(last.content)) as Record<string, any>;
            expect(status.player).toMatchObject({
              username: 'loop_nova',
              empire: 'solarian',
              credits: expect.any(Number),
            });
            expect(status.system.name).toMatch(/\S/);
            expect(status.player.docked_at_base).toBeNull();
          }
          return { content: 'Registered, looked around Sol and undocked.' };
        },
      ],
      0,
    );
    const history = createHistory({});
    const result = await play({ provider, game, tools, history, text: 'Start playing.' });
    expect(result.outcome).toBe('answered');
    expect(result.failedToolCalls).toBe(0);
    expect(fake.invalid).toEqual([]);
    expect(fake.exhausted).toBe(false);
    const raw = JSON.stringify(fake.chatRequests.map((request) => request.body));
    expect(raw).not.toMatch(/[0-9a-f]{64}/); // neither the password nor the session id reaches the model
    expect(raw).not.toContain(CODE);
    expect(raw).not.toContain('"data"');
    // The real undock answer carries no state; the stored get_status after it carries the observation the autopilot
    // and the status line read.
    const undock = history.snapshot().find((message) => message.toolCallId === 'u');
    expect(undock?.isError).toBe(false);
    const status = history.snapshot().find((message) => message.toolCallId === 't');
    expect(status?.isError).toBe(false);
    expect((status?.data as GameObservation | undefined)?.location?.docked).toBe(false);
  });

  it('cancels inside a blocking mutation and the next turn is a valid transcript', async () => {
    const { fake, provider, game, tools } = await setup(
      face,
      [
        { toolCalls: [modelCall(face, 'r', 'register', { username: 'loop_vega', empire: 'nebula' })] },
        { toolCalls: [modelCall(face, 'u', 'undock'), modelCall(face, 's', 'get_status')] },
        { content: 'The undock was cancelled.' },
      ],
      60_000, // one tick a minute: undock blocks until we cancel it
    );
    let onUndock: () => void = () => undefined;
    const undockStarted = new Promise<void>((resolve) => {
      onUndock = resolve;
    });
    const watched: Pick<Game, 'call'> = {
      call: (name: string, args: Record<string, unknown>, options?: GameCallOptions): Promise<ToolResult> => {
        const pending = game.call(name, args, options);
        if (game.profile().opOf(name, args) === 'undock') onUndock();
        return pending;
      },
    };
    const controller = new AbortController();
    void undockStarted.then(() => setImmediate(() => controller.abort()));
    const history = createHistory({});
    // The undock would block for the 60 s tick, twice the test's timeout: only the cancel ends the turn in time.
    const cancelled = await play({
      provider,
      game: watched,
      tools,
      history,
      text: 'Undock.',
      signal: controller.signal,
    });
    expect(cancelled.outcome).toBe('cancelled');
    const stored = history.snapshot();
    expect(stored.filter((message) => message.role === 'tool').map((message) => message.toolCallId)).toEqual([
      'r',
      'u',
      's',
    ]);
    const next = await play({ provider, game, tools, history, text: 'What happened?' });
    expect(next.outcome).toBe('answered');
    expect(fake.invalid).toEqual([]);
    const results = messagesOf(fake.chatRequests[2]).filter((message) => message.role === 'tool');
    expect(results.map((message) => message.tool_call_id)).toEqual(['r', 'u', 's']);
    expect(String(results[1]?.content)).toMatch(/cancelled/);
  });
});
