// An in-memory Game for loop tests: tools with readOnly flags, scripted results (values or functions of the
// arguments), per-tool delays, a call log with start/end timestamps, abort-aware waits, and hooks to await a call's
// start instead of sleeping. `ignoreAbort` makes a tool finish late even after an abort, to prove late results
// are dropped.
import type { ConnectionEvent, Game, GameCallOptions, ToolResult, ToolSpec } from '../../internal/shared/index.js';
import { AbortedError } from '../../internal/shared/index.js';

export type FakeReply = ToolResult | string;

export interface FakeTool {
  name: string;
  readOnly?: boolean;
  description?: string;
  /** A fixed reply, a list played in order (the last one repeats), or a function of the arguments. */
  result?:
    FakeReply | FakeReply[] | ((args: Record<string, unknown>, callIndex: number) => FakeReply | Promise<FakeReply>);
  delayMs?: number;
  /** Throw this from call() (the loop must turn it into an error result). */
  throws?: Error;
  /** Keep running after an abort and resolve late. */
  ignoreAbort?: boolean;
}

export interface FakeCall {
  name: string;
  args: Record<string, unknown>;
  start: number;
  end?: number;
  aborted?: boolean;
  /** Asked with `fresh` (past the connection's answers of the tick). */
  fresh?: boolean;
}

export class FakeGame implements Game {
  readonly label: string;
  readonly calls: FakeCall[] = [];
  /** Calls that resolved after their signal had fired (their results must not be stored). */
  readonly lateResults: FakeCall[] = [];
  private readonly tools = new Map<string, FakeTool>();
  private readonly perTool = new Map<string, number>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private waiters: Array<{ name: string | undefined; count: number; resolve: () => void }> = [];

  constructor(tools: FakeTool[], options: { label?: string } = {}) {
    this.label = options.label ?? 'fake';
    for (const tool of tools) this.tools.set(tool.name, tool);
  }

  specs(): ToolSpec[] {
    return [...this.tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description ?? `${tool.name} (fake)`,
      inputSchema: { type: 'object', properties: {} },
      readOnly: tool.readOnly ?? false,
    }));
  }

  async listTools(): Promise<ToolSpec[]> {
    return this.specs();
  }

  /** Resolves once `count` calls (of `name`, or of any tool) have started. */
  started(name?: string, count = 1): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ name, count, resolve });
      this.checkWaiters();
    });
  }

  /** Resolves once every call started so far has finished (resolved or thrown), late ones included. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  call(name: string, args: Record<string, unknown>, options: GameCallOptions = {}): Promise<ToolResult> {
    const pending = this.run(name, args, options);
    this.inFlight.add(pending);
    const forget = (): void => {
      this.inFlight.delete(pending);
    };
    pending.then(forget, forget);
    return pending;
  }

  private async run(name: string, args: Record<string, unknown>, options: GameCallOptions): Promise<ToolResult> {
    const tool = this.tools.get(name);
    const entry: FakeCall = { name, args, start: performance.now(), ...(options.fresh ? { fresh: true } : {}) };
    this.calls.push(entry);
    const index = this.perTool.get(name) ?? 0;
    this.perTool.set(name, index + 1);
    this.checkWaiters();
    try {
      if (!tool) return { text: `unknown tool ${name}`, isError: true, code: 'unknown_tool' };
      if (tool.delayMs) await delay(tool.delayMs, tool.ignoreAbort ? undefined : options.signal);
      if (options.signal?.aborted && !tool.ignoreAbort) throw new AbortedError();
      if (tool.throws) throw tool.throws;
      const reply = await this.reply(tool, args, index);
      if (options.signal?.aborted) this.lateResults.push(entry);
      return reply;
    } catch (error) {
      entry.aborted = options.signal?.aborted ?? false;
      throw error;
    } finally {
      entry.end = performance.now();
    }
  }

  username(): string | undefined {
    return 'fake-captain';
  }

  onEvent(_listener: (event: ConnectionEvent) => void): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {}

  private async reply(tool: FakeTool, args: Record<string, unknown>, index: number): Promise<ToolResult> {
    const spec = tool.result ?? `${tool.name} ok`;
    let reply: FakeReply;
    if (typeof spec === 'function') reply = await spec(args, index);
    else if (Array.isArray(spec)) reply = spec[Math.min(index, spec.length - 1)] ?? `${tool.name} ok`;
    else reply = spec;
    return typeof reply === 'string' ? { text: reply, isError: false } : reply;
  }

  private checkWaiters(): void {
    this.waiters = this.waiters.filter((waiter) => {
      const seen = this.calls.filter((call) => waiter.name === undefined || call.name === waiter.name).length;
      if (seen < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new AbortedError());
      },
      { once: true },
    );
  });
}
