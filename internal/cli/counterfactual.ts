// `skipper replay NAME --with MODEL`: a counterfactual replay shown side by side — for each decision point what the
// original captain did, what MODEL proposes, and the verdict — then the totals; `--json` gives one line per decision
// and one line of totals. The provider for MODEL is resolved like the play command's (flags > environment > config).
import { readFileSync } from 'node:fs';
import { runCounterfactual, type CounterfactualResult } from '../session/index.js';
import { createProvider, resolveModel } from '../provider/index.js';
import type {
  CounterfactualDecision,
  CounterfactualRun,
  CounterfactualTotals,
  Session,
  Store,
} from '../store/index.js';
import { UsageError, type Provider, type ToolCall } from '../shared/index.js';
import { resolveConfig } from './config.js';
import { jsonLineWriter } from './json-events.js';
import type { SecretList } from './secrets.js';
import { drained, writeChunk } from './stdout.js';
import { clipToWidth, formatTokens, formatUsd, oneLine, shortArguments } from './text.js';

export interface ModelFlags {
  home?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  price?: string;
}

/** The provider for `--with MODEL`: the play command's resolution (a session's own endpoint when it is its model). */
export function providerFor(
  model: string,
  flags: ModelFlags,
  options: { session?: Session; secrets?: SecretList } = {},
): Provider {
  const env = process.env;
  const picked = { home: flags.home, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv, price: flags.price };
  const config = resolveConfig(
    { ...Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== undefined)), model },
    env,
  );
  const { baseUrl, apiKeyEnv } = endpointFor({ model, config, session: options.session });
  const resolved = resolveModel(
    {
      model,
      ...(baseUrl ? { baseUrl } : {}),
      ...(apiKeyEnv ? { apiKeyEnv } : {}),
      ...(config.price ? { price: config.price } : {}),
    },
    env,
  );
  if ('apiKey' in resolved && resolved.apiKey) options.secrets?.add(resolved.apiKey);
  return createProvider(resolved, {
    seed: config.seed,
    ...(config.vision !== undefined ? { vision: config.vision } : {}),
    ...(config.streamIdleTimeoutMs ? { streamIdleTimeoutMs: config.streamIdleTimeoutMs } : {}),
    ...(options.session?.username ? { username: options.session.username } : {}),
  });
}

/**
 * Where MODEL is asked: the flags, environment and config first; else, when MODEL is the session's own, the
 * endpoint and key variable the session was played with.
 */
function endpointFor(options: {
  model: string;
  config: { baseUrl?: string; apiKeyEnv?: string };
  session: Session | undefined;
}): { baseUrl?: string; apiKeyEnv?: string } {
  const { model, config, session } = options;
  const extra = (session?.extra ?? {}) as { baseUrl?: unknown; apiKeyEnv?: unknown };
  const own = session?.model === model;
  return {
    baseUrl: config.baseUrl ?? (own && typeof extra.baseUrl === 'string' ? extra.baseUrl : undefined),
    apiKeyEnv: config.apiKeyEnv ?? (own && typeof extra.apiKeyEnv === 'string' ? extra.apiKeyEnv : undefined),
  };
}

/** The text of `--prompt FILE`, refused when empty. */
export function readPromptFile(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') throw new UsageError(`the prompt file ${file} is empty`);
  return text;
}

/** `spacemolt.travel id=sol_belt`: a call's tool, action and other arguments, short. */
export function describeCalls(calls: readonly ToolCall[], content: string, max: number): string {
  if (calls.length === 0) return content.trim() === '' ? '(nothing)' : `(answers) ${oneLine(content, max)}`;
  return oneLine(
    calls
      .map((call) => {
        let args: Record<string, unknown> | undefined;
        try {
          const parsed: unknown = JSON.parse(call.arguments || '{}');
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
        } catch {
          args = undefined;
        }
        if (!args) return `${call.name || '(no name)'} ${oneLine(call.arguments, 30)}`;
        const { action, ...rest } = args;
        const label = typeof action === 'string' ? `${call.name}.${action}` : call.name || '(no name)';
        const shown = Object.keys(rest).length > 0 ? ` ${shortArguments(JSON.stringify(rest), 40)}` : '';
        return `${label}${shown}`;
      })
      .join(', '),
    max,
  );
}

const MARKS: Record<CounterfactualDecision['verdict'], string> = {
  same: '= same',
  'same-action': '~ same action, other arguments',
  different: '≠ different',
  invalid: '✗ invalid',
  failed: '✗ failed',
};

/** One decision, side by side: `turn.round  original │ proposed  verdict` (problems on the next line). */
export function decisionLines(decision: CounterfactualDecision, width: number): string[] {
  const column = Math.max(20, Math.floor((width - 12 - 32) / 2));
  const where = `${decision.turn}.${decision.round}`.padStart(7);
  const before = clipToWidth(
    describeCalls(decision.original.toolCalls, decision.original.content, column),
    column,
  ).padEnd(column);
  const after = clipToWidth(
    describeCalls(decision.proposed.toolCalls, decision.proposed.content, column),
    column,
  ).padEnd(column);
  const lines = [`${where}  ${before} │ ${after}  ${MARKS[decision.verdict]}`];
  for (const problem of decision.problems)
    lines.push(`${' '.repeat(9)}${clipToWidth(`↳ ${oneLine(problem, width)}`, width - 9)}`);
  return lines;
}

const percent = (part: number, whole: number): string => (whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`);

export function agreement(totals: CounterfactualTotals): number {
  return totals.decisions === 0 ? 0 : totals.same / totals.decisions;
}

/** `notAsked`: decision points of another captain than the built-in one asked (a planner's model). */
export function totalsLines(
  run: CounterfactualRun,
  totals: CounterfactualTotals,
  skipped: number,
  notAsked = 0,
): string[] {
  const turns =
    run.fromTurn !== null || run.toTurn !== null ? ` (turns ${run.fromTurn ?? 1}–${run.toTurn ?? 'end'})` : '';
  const lines = [
    `Counterfactual ${run.name}: ${run.model} on ${run.sessionName}${turns}${run.prompt !== null ? ' with another system prompt' : ''}${run.status === 'done' ? '' : ` — ${run.status}`}`,
    `  decisions ${totals.decisions} · same ${totals.same} (${percent(totals.same, totals.decisions)}) · different ${totals.different}` +
      `${totals.sameAction > 0 ? ` (${totals.sameAction} same tool and action, other arguments)` : ''} · invalid ${totals.invalid}` +
      `${totals.failed > 0 ? ` · failed ${totals.failed}` : ''}`,
    `  tokens ${formatTokens(totals.tokens)} · cost ${formatUsd(totals.costUsd)}${skipped > 0 ? ` · ${skipped} requests without a kept reply skipped` : ''}`,
  ];
  if (notAsked > 0)
    lines.push(
      `  ${notAsked} decisions of the session's other captain (its planning model) not asked: not ${run.model}'s`,
    );
  return lines;
}

/** The `--json` figures of a run. */
export function totalsJson(
  run: CounterfactualRun,
  totals: CounterfactualTotals,
  skipped: number,
  notAsked = 0,
): Record<string, unknown> {
  return {
    type: 'counterfactual',
    name: run.name,
    session: run.sessionName,
    model: run.model,
    status: run.status,
    decisions: totals.decisions,
    same: totals.same,
    different: totals.different,
    invalid: totals.invalid,
    same_action: totals.sameAction,
    failed: totals.failed,
    agreement: Number(agreement(totals).toFixed(4)),
    tokens: totals.tokens,
    cost_usd: totals.costUsd,
    skipped,
    ...(notAsked > 0 ? { not_asked: notAsked } : {}),
  };
}

function decisionJson(decision: CounterfactualDecision): Record<string, unknown> {
  const calls = (list: readonly ToolCall[]): Array<{ name: string; arguments: string }> =>
    list.map((call) => ({ name: call.name, arguments: call.arguments }));
  return {
    type: 'decision',
    request: decision.requestId,
    turn: decision.turn,
    round: decision.round,
    verdict: decision.verdict,
    original: { content: decision.original.content, tool_calls: calls(decision.original.toolCalls) },
    proposed: { content: decision.proposed.content, tool_calls: calls(decision.proposed.toolCalls) },
    problems: decision.problems,
    tokens: decision.usage.promptTokens + decision.usage.completionTokens,
    cost_usd: decision.usage.costUsd,
  };
}

export interface ReplayWithOptions {
  store: Store;
  session: Session;
  provider: Provider;
  json: boolean;
  fromTurn?: number;
  toTurn?: number;
  prompt?: string;
  redact: (text: string) => string;
  stdout: NodeJS.WriteStream;
  signal?: AbortSignal;
}

/** Runs the replay and prints it; resolves with the result once everything is written. */
export async function replayWith(options: ReplayWithOptions): Promise<CounterfactualResult> {
  const { stdout, redact } = options;
  const writeJson = options.json ? jsonLineWriter(stdout, { redact }) : undefined;
  const line = async (text: string): Promise<void> => writeChunk(stdout, `${redact(text)}\n`);
  const width = Math.max(80, stdout.isTTY ? (stdout.columns ?? 120) : 140);
  const result = await runCounterfactual({
    store: options.store,
    session: options.session,
    provider: options.provider,
    range: {
      ...(options.fromTurn !== undefined ? { fromTurn: options.fromTurn } : {}),
      ...(options.toTurn !== undefined ? { toTurn: options.toTurn } : {}),
    },
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    redact,
    onStart: async (run, points) => {
      if (writeJson) return;
      await line(
        `counterfactual ${run.name}: ${points} decision points of ${run.sessionName} asked to ${run.model} (the game is not touched)`,
      );
      const column = Math.max(20, Math.floor((width - 12 - 32) / 2));
      await line(
        `${'turn.rd'.padStart(7)}  ${'original captain'.padEnd(column)} │ ${oneLine(run.model, column).padEnd(column)}  verdict`,
      );
    },
    onDecision: async (decision) => {
      if (writeJson) writeJson(decisionJson(decision));
      else for (const text of decisionLines(decision, width)) await line(text);
      await drained(stdout);
    },
  });
  if (writeJson) writeJson(totalsJson(result.run, result.totals, result.skipped, result.notAsked));
  else for (const text of totalsLines(result.run, result.totals, result.skipped, result.notAsked)) await line(text);
  return result;
}
