// A provider that plays scripted replies, for tests. Each step may check the request it is answering; running out
// of replies fails loudly instead of hanging or inventing an answer.
import type { CompletionRequest, CompletionResponse, Provider, ToolCall } from '../../internal/shared/index.js';
import { AbortedError, SkipperError, emptyUsage, sleep } from '../../internal/shared/index.js';

export interface ScriptedReply {
  content?: string;
  reasoning?: string;
  /** `arguments` may be an object (serialised for you) or raw text (kept as is, even if it is not JSON). */
  toolCalls?: Array<{ id?: string; name: string; arguments?: Record<string, unknown> | string }>;
  /** Throw this instead of answering. */
  error?: Error;
  /** Wait before answering (aborts early on the request's signal). */
  delayMs?: number;
  usage?: { promptTokens?: number; completionTokens?: number; costUsd?: number };
}

/** A reply, or a function of the request that returns one (and may assert on the request). */
export type ScriptedStep = ScriptedReply | ((request: CompletionRequest, index: number) => ScriptedReply);

export class ScriptedProvider implements Provider {
  readonly id: string;
  readonly contextWindow?: number;
  /** Deep copies of every request received, in order. */
  readonly requests: CompletionRequest[] = [];
  private readonly steps: ScriptedStep[];
  private next = 0;
  private generatedIds = 0;

  constructor(steps: ScriptedStep[], options: { id?: string; contextWindow?: number } = {}) {
    this.steps = [...steps];
    this.id = options.id ?? 'scripted/test';
    if (options.contextWindow !== undefined) this.contextWindow = options.contextWindow;
  }

  /** Adds more replies at the end of the script. */
  push(...steps: ScriptedStep[]): void {
    this.steps.push(...steps);
  }

  get remaining(): number {
    return this.steps.length - this.next;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const index = this.next;
    this.requests.push({
      ...request,
      messages: structuredClone(request.messages),
      signal: undefined,
      onDelta: undefined,
    });
    const step = this.steps[index];
    if (step === undefined) {
      throw new SkipperError('script_exhausted', `scripted provider: no reply left for request #${index + 1}`);
    }
    this.next += 1;
    const reply = typeof step === 'function' ? step(request, index) : step;
    if (reply.delayMs) await sleep(reply.delayMs, request.signal);
    if (request.signal?.aborted) throw new AbortedError();
    if (reply.error) throw reply.error;
    const toolCalls: ToolCall[] = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_scripted_${++this.generatedIds}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    }));
    if (reply.reasoning) request.onDelta?.({ type: 'reasoning', text: reply.reasoning });
    if (reply.content) request.onDelta?.({ type: 'text', text: reply.content });
    const usage = { ...emptyUsage(), ...reply.usage };
    return {
      message: { content: reply.content ?? '', toolCalls, ...(reply.reasoning ? { reasoning: reply.reasoning } : {}) },
      usage,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      model: this.id,
    };
  }
}
