// `skipper doctor --model` (issue 48): one tiny request tells a user before a run whether the key is refused, the
// model name is wrong or the endpoint cannot call tools — each with what to fix — against the fake OpenAI server
// over real HTTP, through the built CLI.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeStep, type RecordedRequest } from '../fakes/fake-openai.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const KEY = 'doctor-key-31f0a9c2d7';
const SERVED = ['echo-tools-v2', 'echo-tools-mini', 'words-only'];

/** Like a real endpoint: an unknown model is a 404 model_not_found; "words-only" never calls a tool. */
function endpoint(request: RecordedRequest): ReturnType<Extract<FakeStep, (...args: never[]) => unknown>> {
  const model = String(request.body?.model);
  if (!SERVED.includes(model))
    return {
      fault: 'status',
      status: 404,
      body: {
        error: {
          message: `The model \`${model}\` does not exist or you do not have access to it.`,
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      },
    };
  if (model === 'words-only') return { content: 'I am ready.' };
  return { toolCalls: [{ name: 'report_ready', arguments: {} }] };
}

async function doctor(model: string, key: string): Promise<{ code: number | null; out: string }> {
  const fake = await startFakeOpenAI({
    apiKey: KEY,
    models: SERVED,
    script: Array.from({ length: 5 }, () => endpoint),
  });
  cleanups.push(() => fake.close());
  const cli = runCli(['doctor', '--model', model, '--base-url', fake.url, '--api-key-env', 'DOCTOR_KEY'], {
    home: newHome(),
    env: { DOCTOR_KEY: key },
  });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, out: cli.stdout() + cli.stderr() };
}

describe('skipper doctor --model', () => {
  it('a good model: every step ✓, exit 0', async () => {
    const { code, out } = await doctor('custom/echo-tools-v2', KEY);
    expect(code, out).toBe(0);
    expect(out).toMatch(/✓ API key: accepted/);
    expect(out).toMatch(/✓ streaming: streamed/);
    expect(out).toMatch(/✓ tool calling: called report_ready/);
    expect(out).toMatch(/the model is ready to play/);
  });

  it('a wrong key: exit 1, naming the variable to fix, the key itself never shown', async () => {
    const { code, out } = await doctor('custom/echo-tools-v2', 'wrong-key-000000000');
    expect(code, out).toBe(1);
    expect(out).toMatch(/✗ API key: refused \(HTTP 401.*set DOCTOR_KEY to a key this endpoint accepts/);
    expect(out).not.toContain('wrong-key-000000000');
  });

  it('an unknown model: exit 1, with the nearby names /models lists', async () => {
    const { code, out } = await doctor('custom/echo-tool-v2', KEY);
    expect(code, out).toBe(1);
    expect(out).toMatch(/✗ model name: "echo-tool-v2" is not served here .*nearby names: echo-tools-v2/);
  });

  it('a model that never calls tools: exit 1 with the tools hint', async () => {
    const { code, out } = await doctor('custom/words-only', KEY);
    expect(code, out).toBe(1);
    expect(out).toMatch(/✓ model name/);
    expect(out).toMatch(/✗ tool calling: this endpoint cannot call tools .*try a model that supports tool/);
  });
});
