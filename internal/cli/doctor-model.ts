// `skipper doctor --model ID`: can Skipper talk to this model? One tiny streamed request that offers one tool reaches
// the endpoint, shows the key accepted, the model's name known, the answer streamed and a tool called — and for each
// failure, what to fix: a refused key names its variable, an unknown model lists nearby names from /models, a model
// that answers in words only is one that cannot play (every move is a tool call).
import { resolveModel, type RemoteModelConfig } from '../provider/index.js';
import { resolveConfig } from './config.js';
import { editDistance } from './did-you-mean.js';

export interface ModelCheckStep {
  name: 'endpoint' | 'key' | 'model' | 'streaming' | 'tools';
  ok: boolean;
  /** What was seen, or what to fix. */
  detail: string;
}

export interface ModelCheck {
  model: string;
  baseUrl: string;
  ok: boolean;
  steps: ModelCheckStep[];
}

const PROBE_TOOL = 'report_ready';

/** The probe: one user line asking for the one tool; a few tokens either way. */
function probeBody(model: string): Record<string, unknown> {
  return {
    model,
    stream: true,
    max_tokens: 64,
    messages: [
      { role: 'system', content: 'You are being checked. Call the report_ready tool once. Do not write anything.' },
      { role: 'user', content: 'Call report_ready now.' },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: PROBE_TOOL,
          description: 'Say that you are ready.',
          parameters: { type: 'object', properties: {}, required: [] },
        },
      },
    ],
  };
}

const endpointOf = (baseUrl: string, path: string): string => `${baseUrl.replace(/\/+$/, '')}${path}`;

function headersOf(config: RemoteModelConfig): Record<string, string> {
  return {
    'content-type': 'application/json',
    ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
  };
}

/** The model ids /models lists nearest to `model` (a few edits, or one name inside the other); none when unreadable. */
export async function nearbyModels(config: RemoteModelConfig, fetchImpl: typeof fetch = fetch): Promise<string[]> {
  try {
    const response = await fetchImpl(endpointOf(config.baseUrl, '/models'), {
      headers: headersOf(config),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return [];
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    const ids = (body.data ?? []).flatMap((entry) => (typeof entry.id === 'string' ? [entry.id] : []));
    const wanted = config.model.toLowerCase();
    const scored = ids
      .map((id) => ({ id, distance: editDistance(wanted, id.toLowerCase(), 6) }))
      .filter(({ id, distance }) => distance <= 4 || id.toLowerCase().includes(wanted) || wanted.includes(id));
    return scored
      .sort((a, b) => a.distance - b.distance)
      .map(({ id }) => id)
      .slice(0, 5);
  } catch {
    return [];
  }
}

/** What an error answer says: its message and code (OpenAI's `{error: {message, code}}`), else its text. */
async function errorOf(response: Response): Promise<{ message: string; code: string | undefined }> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } | string };
    const error = typeof parsed.error === 'string' ? { message: parsed.error } : parsed.error;
    return {
      message: typeof error?.message === 'string' ? error.message : text.slice(0, 200),
      code: typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined,
    };
  } catch {
    return { message: text.slice(0, 200), code: undefined };
  }
}

interface ProbeMessage {
  content?: string | null;
  tool_calls?: unknown[];
}

/** A whole answer's message, or the stream's deltas put together: its text and whether it called a tool. */
function readMessages(messages: ReadonlyArray<ProbeMessage | undefined>): { toolCalled: boolean; text: string } {
  return {
    toolCalled: messages.some((message) => (message?.tool_calls?.length ?? 0) > 0),
    text: messages.map((message) => message?.content ?? '').join(''),
  };
}

/** Reads the answer: streamed (server-sent events) or whole; whether a tool was called. */
async function readAnswer(response: Response): Promise<{ streamed: boolean; toolCalled: boolean; text: string }> {
  const streamed = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const body = await response.text();
  if (!streamed) {
    const parsed = JSON.parse(body) as { choices?: Array<{ message?: ProbeMessage }> };
    return { streamed, ...readMessages([parsed.choices?.[0]?.message]) };
  }
  const deltas = body
    .split('\n')
    .map((line) => (line.startsWith('data:') ? line.slice(5).trim() : ''))
    .filter((data) => data !== '' && data !== '[DONE]')
    .map((data) => (JSON.parse(data) as { choices?: Array<{ delta?: ProbeMessage }> }).choices?.[0]?.delta);
  return { streamed, ...readMessages(deltas) };
}

/** Where the key comes from, for the hint. */
const keyPlace = (config: RemoteModelConfig): string =>
  config.apiKeyEnv ? `set ${config.apiKeyEnv} to a key this endpoint accepts` : 'give a key with --api-key-env VAR';

/** The probe for a refused request: which step failed and what to fix. */
async function refusal(
  config: RemoteModelConfig,
  response: Response,
  fetchImpl: typeof fetch,
): Promise<ModelCheckStep[]> {
  const reached: ModelCheckStep = { name: 'endpoint', ok: true, detail: `answered HTTP ${response.status}` };
  const { message, code } = await errorOf(response);
  if (response.status === 401 || response.status === 403 || code === 'invalid_api_key')
    return [
      reached,
      { name: 'key', ok: false, detail: `refused (HTTP ${response.status}: ${message}): ${keyPlace(config)}` },
    ];
  const keyOk: ModelCheckStep = { name: 'key', ok: true, detail: 'accepted' };
  if (response.status === 404 || code === 'model_not_found' || /model.*(not exist|not found|unknown)/i.test(message)) {
    const nearby = await nearbyModels(config, fetchImpl);
    const hint = nearby.length > 0 ? `; nearby names: ${nearby.join(', ')}` : '; `GET /models` lists what it serves';
    return [
      reached,
      keyOk,
      { name: 'model', ok: false, detail: `"${config.model}" is not served here (${message})${hint}` },
    ];
  }
  return [
    reached,
    keyOk,
    { name: 'model', ok: false, detail: `the request was refused (HTTP ${response.status}: ${message})` },
  ];
}

/** One tiny request to the model, each step checked in order; the first failure ends the check. */
export async function checkModel(
  config: RemoteModelConfig,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<ModelCheck> {
  const fetchImpl = options.fetch ?? fetch;
  const done = (steps: ModelCheckStep[]): ModelCheck => ({
    model: config.id,
    baseUrl: config.baseUrl,
    ok: steps.every((step) => step.ok),
    steps,
  });
  let response: Response;
  try {
    response = await fetchImpl(endpointOf(config.baseUrl, '/chat/completions'), {
      method: 'POST',
      headers: headersOf(config),
      body: JSON.stringify(probeBody(config.model)),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return done([
      {
        name: 'endpoint',
        ok: false,
        detail: `cannot reach ${config.baseUrl} (${cause}): check --base-url and that the server runs`,
      },
    ]);
  }
  if (!response.ok) return done(await refusal(config, response, fetchImpl));
  const steps: ModelCheckStep[] = [
    { name: 'endpoint', ok: true, detail: 'answered' },
    { name: 'key', ok: true, detail: config.apiKey ? 'accepted' : 'none needed' },
    { name: 'model', ok: true, detail: `"${config.model}" answered` },
  ];
  let answer: Awaited<ReturnType<typeof readAnswer>>;
  try {
    answer = await readAnswer(response);
  } catch (error) {
    return done([
      ...steps,
      { name: 'streaming', ok: false, detail: `the answer could not be read (${String(error)})` },
    ]);
  }
  steps.push({
    name: 'streaming',
    ok: true,
    detail: answer.streamed ? 'streamed' : 'answered in one piece (no stream): Skipper copes, without live text',
  });
  steps.push(
    answer.toolCalled
      ? { name: 'tools', ok: true, detail: `called ${PROBE_TOOL}` }
      : {
          name: 'tools',
          ok: false,
          detail:
            'this endpoint cannot call tools (it answered in words' +
            `${answer.text.trim() ? `: "${answer.text.trim().slice(0, 60)}"` : ''}); every move in the game is a tool ` +
            'call: try a model that supports tool (function) calling, or --model builtin/autopilot',
        },
  );
  return done(steps);
}

const STEP_WORDS: Record<ModelCheckStep['name'], string> = {
  endpoint: 'endpoint',
  key: 'API key',
  model: 'model name',
  streaming: 'streaming',
  tools: 'tool calling',
};

/** The check for people: one line per step, then the verdict. */
export function renderModelCheck(check: ModelCheck): string {
  const lines = [`model ${check.model} at ${check.baseUrl}`];
  for (const step of check.steps) lines.push(`  ${step.ok ? '✓' : '✗'} ${STEP_WORDS[step.name]}: ${step.detail}`);
  lines.push(check.ok ? 'the model is ready to play' : 'the model cannot play yet: fix the ✗ above');
  return `${lines.join('\n')}\n`;
}

/** The check for scripts (snake_case, as every --json). */
export function modelCheckJson(check: ModelCheck): Record<string, unknown> {
  return { model: check.model, base_url: check.baseUrl, ok: check.ok, steps: check.steps };
}

/** `skipper doctor --model [ID]`: the model named (or, with no ID, the configured one) checked; the exit code. */
export async function runModelDoctor(
  flags: { model: string | true; baseUrl?: string; apiKeyEnv?: string; home?: string; json?: boolean },
  env: Record<string, string | undefined>,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<number> {
  const config = resolveConfig(
    {
      ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
      ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.apiKeyEnv !== undefined ? { apiKeyEnv: flags.apiKeyEnv } : {}),
      ...(flags.home !== undefined ? { home: flags.home } : {}),
    },
    env,
  );
  const model = resolveModel(
    {
      model: config.model ?? 'builtin/autopilot',
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      ...(config.apiKeyEnv ? { apiKeyEnv: config.apiKeyEnv } : {}),
    },
    env,
  );
  if ('builtin' in model) {
    const text = `model ${model.id}: built in, nothing to reach (name a model with --model PROVIDER/MODEL)`;
    write(flags.json ? `${JSON.stringify({ model: model.id, ok: true, steps: [] })}\n` : `${text}\n`);
    return 0;
  }
  const check = await checkModel(model);
  // The key never reaches the terminal, even echoed back in an endpoint's error message.
  const redact = (text: string): string => (model.apiKey ? text.split(model.apiKey).join('[redacted]') : text);
  write(redact(flags.json ? `${JSON.stringify(modelCheckJson(check))}\n` : renderModelCheck(check)));
  return check.ok ? 0 : 1;
}
