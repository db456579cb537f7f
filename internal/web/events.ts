// Live updates: one timer polls the store (~300 ms) through the Bridge and fans what changed out to the page's
// server-sent-event streams. Every client gets captain cards and map changes; message events go only to clients
// watching that session (the live stream of one captain). A slow client is cut off instead of buffering forever.
// A poll still reading when the timer fires again is left to finish: the timer's poll is skipped, never stacked.
import type { ServerResponse } from 'node:http';
import type { Logger } from '../shared/index.js';
import type { Bridge, BridgeChange } from './bridge.js';
import { webJson } from './web-json.js';

export const DEFAULT_POLL_MS = 300;
/** Bytes queued for one client before it is dropped (it reconnects and reloads the state). */
const MAX_BUFFERED = 4 * 1024 * 1024;

interface Client {
  response: ServerResponse;
  sessionId: string | null;
}

export class EventHub {
  private readonly clients = new Set<Client>();
  private timer: NodeJS.Timeout | null = null;
  private keepAlive: NodeJS.Timeout | null = null;
  /** The timer's poll while it reads. */
  private reading: Promise<BridgeChange[]> | null = null;
  /** The last poll failed: the next failure is not reported again, the next success is. */
  private failing = false;

  constructor(
    private readonly bridge: Bridge,
    private readonly options: {
      pollMs?: number;
      logger?: Logger;
      /** One line when polls start failing (a locked database, PostgreSQL gone) and when they work again. */
      report?: (line: string) => void;
    } = {},
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.timerTick(), this.options.pollMs ?? DEFAULT_POLL_MS);
    // Proxies and browsers close streams that stay silent; a comment line every 15 s keeps them open.
    this.keepAlive = setInterval(() => this.broadcast(': keep-alive\n\n', () => true), 15_000);
  }

  /** Stops the timer and ends every stream; resolves once the poll still reading (if any) is done. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.timer = this.keepAlive = null;
    for (const client of this.clients) client.response.end();
    this.clients.clear();
    await this.bridge.idle();
  }

  /** Opens a stream on `response`; message events only for `sessionId` (none when null). */
  subscribe(response: ServerResponse, sessionId: string | null): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    response.write('retry: 1000\n\n');
    const client = { response, sessionId };
    this.clients.add(client);
    response.on('close', () => this.clients.delete(client));
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** One poll: read the store, send what changed. Exposed so tests drive it without the timer. Never rejects: a
   * poll that fails is logged (and reported once) and resolves to no change. */
  async tick(): Promise<BridgeChange[]> {
    let changes: BridgeChange[];
    try {
      changes = await this.bridge.poll();
    } catch (error) {
      // A locked or busy database, or PostgreSQL gone, is retried on the next poll; the page keeps what it has.
      this.options.logger?.warn({ err: error }, 'web: store poll failed');
      if (!this.failing) this.options.report?.(`web: reading the store failed: ${oneLine(error)}; retrying`);
      this.failing = true;
      return [];
    }
    if (this.failing) this.options.report?.('web: reading the store works again');
    this.failing = false;
    for (const change of changes) this.send(change);
    return changes;
  }

  /** The timer's poll: skipped while the last one still reads. */
  private timerTick(): void {
    if (this.reading) return;
    const reading = this.tick();
    this.reading = reading;
    void reading.finally(() => {
      if (this.reading === reading) this.reading = null;
    });
  }

  private send(change: BridgeChange): void {
    const data = change.type === 'galaxy' ? { version: change.version } : change;
    const frame = `event: ${change.type}\ndata: ${JSON.stringify(webJson(data))}\n\n`;
    if (change.type === 'message') this.broadcast(frame, (client) => client.sessionId === change.sessionId);
    else this.broadcast(frame, () => true);
  }

  private broadcast(frame: string, wants: (client: Client) => boolean): void {
    for (const client of this.clients) {
      if (!wants(client)) continue;
      if (client.response.writableLength > MAX_BUFFERED) {
        client.response.destroy();
        this.clients.delete(client);
        continue;
      }
      client.response.write(frame);
    }
  }
}

/** An error as one line (its message, no stack). */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
