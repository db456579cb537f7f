// Opening an MCP client for a target: Streamable HTTP (falling back to SSE for old servers on 4xx), stdio child
// processes, or a transport handed in (embedded minimolt). Failures say plainly that the URL is not an MCP server.
// The SDK's client and transports are imported when a connection is opened: a command that never connects to a game
// (sessions, replay, export…) does not load them.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AbortedError, FatalError, type Logger } from '../shared/index.js';
import { cuttingFetch } from './long-strings.js';
import { describeError } from './result.js';
import type { CallResultCheck } from './call-result-shape.js';
import type { LeanPost } from './lean-transport.js';
import type { GameTarget } from './target.js';

export interface OpenedClient {
  client: Client;
  /** The result schema to hand to callTool (see call-result-shape.ts). */
  callResult: CallResultCheck;
  via: 'streamable-http' | 'sse' | 'stdio' | 'transport';
  close(): Promise<void>;
}

export interface OpenOptions {
  target: GameTarget;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Wraps fetch so the connection can read Retry-After on HTTP 429. */
  fetch?: FetchLike;
  /** Streamable HTTP: game calls POSTed on the short path (see lean-transport.ts); it must read Retry-After too. */
  post?: LeanPost;
  logger: Logger;
  /** Called when the transport closes underneath us (child exit, in-memory peer gone). */
  onClose?: () => void;
}

const CLIENT_INFO = { name: 'skipper', version: '0.1.0' };

/** Raised when the first connection attempt cannot work; the CLI prints the message and exits. */
export function notMcpServer(url: string, error: unknown): FatalError {
  const status = (error as { code?: unknown }).code;
  const detail = describeError(error).replace(/^Error POSTing to endpoint:\s*/, '');
  const http = typeof status === 'number' && status > 0 ? `HTTP ${status}` : 'no MCP answer';
  return new FatalError(
    'game_not_mcp',
    `${url} did not answer as an MCP server: ${http}${detail ? ` (${detail.slice(0, 200)})` : ''}. ` +
      'Check the --game URL (MCP endpoints usually end in /mcp) and that the server is running.',
    { cause: error },
  );
}

export function unreachable(url: string, error: unknown): FatalError {
  const unresolved = dnsFailure(error);
  const advice = unresolved
    ? `The name ${unresolved} does not resolve (DNS): check the address, and that this machine is online and can look names up.`
    : 'Check the address and that the server is running.';
  return new FatalError('game_unreachable', `could not reach the game at ${url}: ${describeError(error)}. ${advice}`, {
    cause: error,
  });
}

/** The host name a failed lookup was for (getaddrinfo ENOTFOUND / EAI_AGAIN anywhere in the cause chain). */
function dnsFailure(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth += 1) {
    const { code, hostname } = cause as { code?: unknown; hostname?: unknown };
    if ((code === 'ENOTFOUND' || code === 'EAI_AGAIN') && typeof hostname === 'string') return hostname;
    const text = cause instanceof Error ? cause.message : '';
    const named = /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (\S+)/.exec(text)?.[1];
    if (named) return named.replace(/[).]+$/, '');
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

async function attempt(options: OpenOptions, transport: Transport, via: OpenedClient['via']): Promise<OpenedClient> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { callResultCheck } = await import('./call-result-shape.js');
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  const close = async (): Promise<void> => {
    client.onclose = undefined;
    await client.close().catch(() => {});
  };
  // transport.start() has no timeout of its own (an SSE endpoint that never sends its first event would hang),
  // so the whole attempt races one deadline.
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = (): void => {
      const error = options.signal?.aborted
        ? new AbortedError()
        : Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: -1 });
      reject(error);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([client.connect(transport, { timeout: options.timeoutMs, signal }), aborted]);
  } catch (error) {
    await close();
    throw error;
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    aborted.catch(() => {});
  }
  client.onclose = (): void => options.onClose?.();
  return { client, via, close, callResult: callResultCheck };
}

// Skipper's own secrets stay with Skipper: a game server is not the place for the model's API key, the game password
// or the registration code. Anything it really needs is passed on purpose with --game-env.
const WITHHELD = /^(SKIPPER_GAME_PASSWORD|SKIPPER_REGISTRATION_CODE|SKIPPER_API_KEY_ENV|[A-Z0-9_]*API_KEY)$/i;

export function childEnvironment(
  extra: Record<string, string> | undefined,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const named = from.SKIPPER_API_KEY_ENV;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(from)) {
    if (value !== undefined && !WITHHELD.test(key) && key !== named) env[key] = value;
  }
  return { ...env, ...extra };
}

function httpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && code >= 100 ? code : undefined;
}

/** Connects once. Throws FatalError for a target that cannot work, AbortedError on abort, else the raw error. */
export async function openClient(options: OpenOptions): Promise<OpenedClient> {
  const { target } = options;
  if (target.kind === 'transport') return attempt(options, await target.connect(), 'transport');
  if (target.kind === 'stdio') {
    // The SDK passes a child only a safe subset of the environment (HOME, PATH, USER…) unless given one: a game
    // server run by hand would see everything, so ours does too — but Skipper's secrets — plus what --game-env adds.
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const transport = new StdioClientTransport({
      command: target.command,
      args: target.args,
      stderr: 'pipe',
      env: childEnvironment(target.env),
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      options.logger.debug({ stderr: chunk.toString('utf8').slice(0, 2000) }, 'game server stderr');
    });
    // The SDK closes a failed child in the background (stdin EOF, SIGTERM after 2 s), which a short-lived process
    // may not live to see; a child that ignores stdin would outlive us. Remember it and end it here.
    let childPid: number | null = null;
    const start = transport.start.bind(transport);
    transport.start = async (): Promise<void> => {
      await start();
      childPid = transport.pid;
    };
    try {
      return await attempt(options, transport, 'stdio');
    } catch (error) {
      if (childPid !== null) {
        try {
          process.kill(childPid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      if (error instanceof AbortedError) throw error;
      throw new FatalError(
        'game_not_mcp',
        `the command "${[target.command, ...target.args].join(' ')}" did not answer as an MCP server over stdio: ` +
          `${describeError(error)}. Check the command after "stdio:".`,
        { cause: error },
      );
    }
  }
  const url = new URL(target.url);
  // Every answer read with its long strings cut as they arrive (long-strings.ts; the short path's leanPost cuts too).
  const init = { fetch: cuttingFetch(options.fetch ?? fetch) };
  const streamable = async (): Promise<Transport> => {
    if (options.post) {
      const { LeanStreamableTransport } = await import('./lean-transport.js');
      return new LeanStreamableTransport(url, { fetch: init.fetch, post: options.post });
    }
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(url, init);
  };
  try {
    return await attempt(options, await streamable(), 'streamable-http');
  } catch (error) {
    if (error instanceof AbortedError) throw error;
    const status = httpStatus(error);
    if (status === undefined) {
      if ((error as { code?: unknown }).code === -1) throw notMcpServer(target.url, error);
      if (/Unexpected content type/i.test(describeError(error))) throw notMcpServer(target.url, error);
      throw unreachable(target.url, error);
    }
    if (status === 429) {
      throw new FatalError(
        'game_rate_limited',
        `the game at ${target.url} is rate limiting this client (HTTP 429); wait a minute and try again.`,
        { cause: error },
      );
    }
    if (status < 400 || status >= 500) throw notMcpServer(target.url, error);
    options.logger.info({ url: target.url, status }, 'streamable HTTP refused, trying the older SSE transport');
    try {
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
      return await attempt(options, new SSEClientTransport(url, init), 'sse');
    } catch (sseError) {
      if (sseError instanceof AbortedError) throw sseError;
      options.logger.debug({ error: describeError(sseError) }, 'SSE fallback failed too');
      throw notMcpServer(target.url, error);
    }
  }
}
