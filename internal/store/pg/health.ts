// Whether the database is reachable, as the store last found it, and the way back when it is not: the first failed
// call turns the store down (listeners told once), a probe then asks the server again with backoff (0.5 s doubling to
// 10 s by default, on unref'd timers: a probe never keeps a finished program alive), and the first probe that gets an
// answer turns it up again (listeners told once more). While down, calls fail at once instead of each waiting on a
// connection timeout: callers decide whether to wait.
import type { StoreHealth } from '../contract.js';
import { oneLine } from './errors.js';

const UP: StoreHealth = { state: 'up' };

export interface HealthOptions {
  /** Asks the server once; rejects when it cannot be reached. */
  probe: () => Promise<void>;
  /** Told of every change, after the listeners (the store logs it). */
  changed?: (health: StoreHealth) => void;
  firstProbeMs?: number;
  maxProbeMs?: number;
  now?: () => number;
}

export class HealthMonitor {
  private state: StoreHealth = UP;
  private readonly listeners = new Set<(health: StoreHealth) => void>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly firstProbeMs: number;
  private readonly maxProbeMs: number;

  constructor(private readonly options: HealthOptions) {
    this.firstProbeMs = options.firstProbeMs ?? 500;
    this.maxProbeMs = options.maxProbeMs ?? 10_000;
  }

  get health(): StoreHealth {
    return this.state;
  }

  subscribe(listener: (health: StoreHealth) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A call found the database unreachable: down, once, and probing until it answers. */
  failed(reason: string): void {
    if (this.closed || this.state.state === 'down') return;
    this.state = { state: 'down', since: (this.options.now ?? Date.now)(), error: reason };
    this.tell();
    this.schedule(this.firstProbeMs);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.probe(delayMs), delayMs);
    this.timer.unref();
  }

  private async probe(delayMs: number): Promise<void> {
    try {
      await this.options.probe();
    } catch (error) {
      if (this.closed || this.state.state !== 'down') return;
      // Still down: the reason is kept current for health(), but nobody is told twice.
      this.state = { ...this.state, error: oneLine(error) };
      this.schedule(Math.min(delayMs * 2, this.maxProbeMs));
      return;
    }
    if (this.closed) return;
    this.state = UP;
    this.tell();
  }

  private tell(): void {
    const health = this.state;
    for (const listener of [...this.listeners]) {
      try {
        listener(health);
      } catch {
        // A listener's own failure is its business: the others are still told.
      }
    }
    try {
      this.options.changed?.(health);
    } catch {
      // Logging that fails must not end the process either.
    }
  }
}
