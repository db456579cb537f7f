// A synchronous face over node-postgres. The Store interface is synchronous (better-sqlite3 made it so, and the
// session engine, the CLI and the fleet call it that way), while every PostgreSQL client is asynchronous: so the
// client lives in a worker thread and the main thread blocks on Atomics.wait until the worker has answered. One
// request at a time; a reply is read with receiveMessageOnPort, so the main event loop never has to turn.
// Nothing hangs: each call has a deadline, and a worker that ends (crash, killed connection) clears a shared cell
// the wait watches. After a timeout or a dead worker the bridge is broken for good: every later call fails at once.
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { SkipperError } from '../../shared/index.js';
import { bridgeCells, bridgeWorkerSource } from './bridge-worker.js';

export interface BridgeStep {
  sql: string;
  params?: readonly unknown[];
  /** Rows as arrays of column values (better-sqlite3's `.raw()`). */
  raw?: boolean;
  /** A prepared statement's name on this connection (one per distinct text): parsed once, then only bound. */
  name?: string;
}

export interface StepResult {
  rows: unknown[];
  changes: number;
}

export interface BridgeOptions {
  /** The connection string given to node-postgres (no `schema` parameter). */
  url: string;
  /** Where Skipper's tables live (created when missing); default: the server's search_path. */
  schema?: string;
  /** For error messages: the URL without its password. */
  label: string;
  /** Per call, bridge side (default 30 s). */
  timeoutMs?: number;
  /** Server side, per statement (default 25 s: the server gives up before the bridge does). */
  statementTimeoutMs?: number;
}

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: BridgeFailure };

export interface BridgeFailure {
  message: string;
  /** The PostgreSQL SQLSTATE ('23505'…) or a Node error code. */
  code?: string;
  detail?: string;
  constraint?: string;
}

/** A statement the server refused: carries the SQLSTATE so callers can tell a duplicate from a broken connection. */
export class PgStatementError extends Error {
  readonly code: string | undefined;
  readonly detail: string | undefined;
  constructor(failure: BridgeFailure) {
    super(failure.message);
    this.name = 'PgStatementError';
    this.code = failure.code;
    this.detail = failure.detail;
  }
}

/** How often the wait looks at the worker's `alive` cell (a worker's exit also wakes it at once). */
const waitSliceMs = 250;

export class SyncBridge {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly state: Int32Array;
  private readonly timeoutMs: number;
  private nextId = 1;
  private brokenBy: SkipperError | undefined;
  /** The server process of this connection (pg_backend_pid), for diagnostics and tests. */
  readonly backendPid: number;

  constructor(private readonly options: BridgeOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.state = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(this.state, bridgeCells.alive, 1);
    const channel = new MessageChannel();
    this.port = channel.port1;
    const pgPath = createRequire(import.meta.url).resolve('pg');
    this.worker = new Worker(bridgeWorkerSource, {
      eval: true,
      workerData: { pgPath, shared: this.state.buffer, port: channel.port2 },
      transferList: [channel.port2],
    });
    // The worker must not keep a finished program alive; its errors are reported through `alive` and the call.
    this.worker.unref();
    this.worker.on('error', () => undefined);
    const connected = this.call({
      op: 'connect',
      url: options.url,
      schema: options.schema,
      statementTimeoutMs: options.statementTimeoutMs ?? 25_000,
    }) as { rows: Array<{ pid: number }> };
    this.backendPid = connected.rows[0]?.pid ?? 0;
  }

  /** One statement, in autocommit unless a transaction is open on the connection. */
  query(step: BridgeStep): StepResult {
    return this.call({ op: 'query', ...step, params: step.params ?? [] }) as StepResult;
  }

  /** Several statements in one round trip, in order; the first failure stops the rest. */
  script(steps: readonly BridgeStep[]): StepResult[] {
    return (this.call({ op: 'script', steps }) as { results: StepResult[] }).results;
  }

  get broken(): boolean {
    return this.brokenBy !== undefined;
  }

  /** Ends the connection (which releases its session-level locks) and the worker. Idempotent. */
  close(): void {
    if (!this.brokenBy) {
      try {
        this.call({ op: 'close' });
      } catch {
        // Closing a connection that already failed: nothing more to release.
      }
    }
    this.brokenBy ??= new SkipperError('store_connection', `the connection to ${this.options.label} is closed`);
    void this.worker.terminate();
  }

  /** Tests only: makes the worker thread crash (`die`) or never answer (`hang`). */
  fault(kind: 'die' | 'hang'): void {
    this.call({ op: kind });
  }

  private call(request: Record<string, unknown>): unknown {
    if (this.brokenBy) throw this.brokenBy;
    const id = this.nextId++;
    Atomics.store(this.state, bridgeCells.done, 0);
    this.port.postMessage({ ...request, id });
    const reply = this.wait(id, String(request.op));
    if (reply.ok) return reply.result;
    throw this.failure(reply.error, String(request.op));
  }

  private wait(id: number, op: string): Reply {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (Atomics.load(this.state, bridgeCells.done) === 0 && left > 0) {
        Atomics.wait(this.state, bridgeCells.done, 0, Math.min(left, waitSliceMs));
      }
      const message = receiveMessageOnPort(this.port) as { message: Reply } | undefined;
      if (message && message.message.id === id) return message.message;
      if (Atomics.load(this.state, bridgeCells.alive) === 0) throw this.breakWith(this.deadError(op));
      if (Date.now() >= deadline) throw this.breakWith(this.timeoutError(op));
    }
  }

  private breakWith(error: SkipperError): SkipperError {
    this.brokenBy = error;
    void this.worker.terminate();
    return error;
  }

  private deadError(op: string): SkipperError {
    return new SkipperError(
      'store_connection',
      `the PostgreSQL connection to ${this.options.label} ended during ${op} (its worker thread stopped). ` +
        'Check that the server is up, then restart Skipper.',
    );
  }

  private timeoutError(op: string): SkipperError {
    return new SkipperError(
      'timeout',
      `PostgreSQL at ${this.options.label} did not answer ${op} within ${this.timeoutMs} ms; the connection was ` +
        'dropped. Check the server (load, locks, network), then restart Skipper.',
    );
  }

  private failure(error: BridgeFailure, op: string): Error {
    if (op === 'connect') {
      this.breakWith(new SkipperError('store_connection', 'not connected'));
      return new SkipperError(
        'store_open',
        `cannot connect to PostgreSQL at ${this.options.label}: ${error.message}. Check the URL (--db, ` +
          'SKIPPER_DATABASE_URL), that the server runs, and that the user may log in.',
      );
    }
    // A SQLSTATE of class 08 (connection exception) or 57P (shut down) means the connection is gone.
    if (error.code?.startsWith('08') || error.code?.startsWith('57P') || /Connection terminated/i.test(error.message)) {
      return this.breakWith(
        new SkipperError(
          'store_connection',
          `lost the PostgreSQL connection to ${this.options.label}: ${error.message}. Restart Skipper once the server is back.`,
        ),
      );
    }
    return new PgStatementError(error);
  }
}
