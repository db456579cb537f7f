// Tool dispatch for one round (rule 8): checks each call (known tool, JSON object arguments), runs queries in
// parallel (bounded) and mutations and free actions one by one in the model's order, and turns every failure into a result the
// model can read. Only the turn's own abort escapes, as AbortedError; results that arrive after it are dropped.
import type { Game, ToolCall, ToolResult, ToolSpec } from '../shared/index.js';
import {
  AbortedError,
  TOOL_RESULT_MAX_CHARS,
  callKind,
  isAbortError,
  raceAbort,
  throwIfAborted,
  truncateHeadTail,
} from '../shared/index.js';
import { checkArguments } from './check-arguments.js';

/** A tool Skipper answers itself (memory: remember/recall/forget); dispatched like a query. */
export interface LocalTool {
  spec: ToolSpec;
  run(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult>;
}

export interface PreparedCall {
  call: ToolCall;
  /** Queries (and local tools) may run in parallel; mutations and free actions run alone, in order. Decided per
   * call: one grouped tool holds queries and mutations, told apart by `action`. */
  readOnly: boolean;
  args: Record<string, unknown>;
  /** Set when the call cannot run: the error result to store instead. */
  invalid?: ToolResult;
  local?: LocalTool;
}

export interface CallOutcome {
  result: ToolResult;
  ms: number;
}

export interface ToolCatalog {
  tools: Map<string, ToolSpec>;
  local: Map<string, LocalTool>;
}

export function parseArguments(
  raw: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  // Models often send "" for tools without parameters.
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `arguments are not valid JSON: ${reason}; send an object like {"name": "value"}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { ok: false, error: `arguments must be a JSON object, got ${kind}; send an object like {"name": "value"}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

export function prepareCall(call: ToolCall, catalog: ToolCatalog): PreparedCall {
  const invalid = (text: string, code: string): PreparedCall => ({
    call,
    readOnly: true,
    args: {},
    invalid: { text, isError: true, code },
  });
  if (call.name.trim() === '')
    return invalid('the tool call has no name; call one of the listed tools by its name', 'unknown_tool');
  const local = catalog.local.get(call.name);
  const spec = local?.spec ?? catalog.tools.get(call.name);
  if (!spec) {
    const names = [...catalog.tools.keys(), ...catalog.local.keys()];
    const list = names.slice(0, 60).join(', ') + (names.length > 60 ? ', …' : '');
    return invalid(`unknown tool "${call.name}"; available tools: ${list}`, 'unknown_tool');
  }
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) return invalid(`${call.name}: ${parsed.error}`, 'invalid_arguments');
  const problems = checkArguments(parsed.value, spec.inputSchema);
  if (problems.length > 0) {
    return invalid(
      `invalid_arguments: ${call.name}: ${problems.join('; ')}; see the tool's input schema`,
      'invalid_arguments',
    );
  }
  const prepared: PreparedCall = {
    call,
    readOnly: local !== undefined || callKind(spec, parsed.value) === 'query',
    args: parsed.value,
  };
  if (local) prepared.local = local;
  return prepared;
}

export interface DispatchOptions {
  calls: PreparedCall[];
  game: Pick<Game, 'call'>;
  signal?: AbortSignal;
  /** Parallel queries at most (default 4). */
  concurrency?: number;
  /** Filled as calls finish, by original index; never written after the abort. */
  outcomes: Array<CallOutcome | undefined>;
  /** Called in the original order once `outcomes[index]` is set. */
  deliver: (index: number) => Promise<void>;
}

/** Runs consecutive queries as a bounded parallel batch; a mutation is a barrier run alone, in order. */
export async function dispatchCalls(options: DispatchOptions): Promise<void> {
  const { calls } = options;
  let batch: number[] = [];
  const flush = async (): Promise<void> => {
    await runBatch(batch, options);
    for (const index of batch) await options.deliver(index);
    batch = [];
  };
  for (let index = 0; index < calls.length; index += 1) {
    const prepared = calls[index] as PreparedCall;
    if (prepared.readOnly || prepared.invalid) {
      batch.push(index);
      continue;
    }
    await flush();
    batch = [index];
    await flush();
  }
  await flush();
}

async function runBatch(batch: number[], options: DispatchOptions): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batch.length) {
      const index = batch[next] as number;
      next += 1;
      const outcome = await runOne(index, options);
      if (options.signal?.aborted) throw new AbortedError();
      options.outcomes[index] = outcome;
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, batch.length));
  await Promise.all(Array.from({ length: workers }, worker));
}

async function runOne(index: number, options: DispatchOptions): Promise<CallOutcome> {
  const prepared = options.calls[index] as PreparedCall;
  if (prepared.invalid) return { result: prepared.invalid, ms: 0 };
  const { signal } = options;
  throwIfAborted(signal);
  const started = performance.now();
  try {
    const pending = prepared.local
      ? prepared.local.run(prepared.args, signal)
      : options.game.call(prepared.call.name, prepared.args, signal ? { signal } : {});
    const result = await raceAbort(pending, signal);
    return { result: normalizeResult(result), ms: performance.now() - started };
  } catch (error) {
    if (signal?.aborted) throw new AbortedError();
    return { result: exceptionResult(prepared.call.name, error), ms: performance.now() - started };
  }
}

function normalizeResult(result: ToolResult | undefined): ToolResult {
  if (!result || typeof result !== 'object')
    return { text: 'the tool returned nothing', isError: true, code: 'empty_result' };
  // What is stored and what the model may see is at most TOOL_RESULT_MAX_CHARS: head and tail, a marker between
  // (rule 4); the game layer has read its data from the longer answer already.
  const text = typeof result.text === 'string' ? result.text : String(result.text ?? '');
  const normalized: ToolResult = {
    text: truncateHeadTail(text, TOOL_RESULT_MAX_CHARS),
    isError: result.isError === true,
  };
  if (result.data !== undefined) normalized.data = result.data;
  if (result.code !== undefined) normalized.code = result.code;
  if (Array.isArray(result.parts) && result.parts.length > 0) normalized.parts = result.parts;
  return normalized;
}

function exceptionResult(name: string, error: unknown): ToolResult {
  if (isAbortError(error)) {
    return {
      text: `${name} timed out before it finished; try again or do something else`,
      isError: true,
      code: 'timeout',
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return { text: `${name} failed: ${message}`, isError: true, code: typeof code === 'string' ? code : 'exception' };
}
