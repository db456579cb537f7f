// Waits are visible (issue 30): --json writes one event per model retry and per game wait (rate-limited, paced).
import { describe, expect, it } from 'vitest';
import {
  attachJsonWaits,
  attachLoginNotices,
  modelRetryLine,
  unavailableLine,
  type ModelRetry,
} from '../../../internal/cli/watchers.js';
import type { Output } from '../../../internal/cli/output.js';
import { createChalk } from '../../../internal/cli/render.js';
import type { ConnectionEvent } from '../../../internal/shared/index.js';

describe('wait events', () => {
  it('--json: a model-retry event per retry and a game-wait event per rate limit or pacing', () => {
    const events: Array<Record<string, unknown>> = [];
    const gameListeners: Array<(event: ConnectionEvent) => void> = [];
    const retries = new Set<(info: ModelRetry) => void>();
    attachJsonWaits({
      game: { onEvent: (listener) => (gameListeners.push(listener), () => undefined) },
      retries,
      write: (event) => events.push(event),
    });
    for (const watcher of retries) watcher({ attempt: 1, delayMs: 2000, reason: '429 slow down' });
    for (const listener of gameListeners) {
      listener({ type: 'rate-limited', waitMs: 5000 });
      listener({ type: 'paced', waitMs: 800, reason: 'query_budget' });
      listener({ type: 'unavailable', waitMs: 30_000, auth: true });
      listener({ type: 'unavailable', waitMs: 2500, auth: false });
      listener({ type: 'logged-in', username: 'ace' } as ConnectionEvent);
    }
    expect(events).toEqual([
      { type: 'model-retry', attempt: 1, wait_ms: 2000, reason: '429 slow down' },
      { type: 'game-wait', reason: 'rate_limited', wait_ms: 5000 },
      { type: 'game-wait', reason: 'query_budget', wait_ms: 800 },
      { type: 'game-wait', reason: 'auth_unavailable', wait_ms: 30_000 },
      { type: 'game-wait', reason: 'unavailable', wait_ms: 2500 },
    ]);
  });

  it("an outage is one line: the game's auth (or the game) is down, and when it retries", () => {
    expect(unavailableLine({ waitMs: 29_001, auth: true })).toBe(
      "  … the game's auth is down (HTTP 503): retrying in 30 s",
    );
    expect(unavailableLine({ waitMs: 1000, auth: false })).toBe(
      '  … the game is unavailable (HTTP 503): retrying in 1 s',
    );
  });

  it('before the session is set up, the first login says an outage once per wait, then detaches', () => {
    const listeners = new Set<(event: ConnectionEvent) => void>();
    const lines: string[] = [];
    const detach = attachLoginNotices({
      game: { onEvent: (listener) => (listeners.add(listener), () => void listeners.delete(listener)) },
      output: { line: (text: string) => lines.push(text) } as unknown as Output,
      chalk: createChalk(false),
      write: undefined,
    });
    for (const listener of listeners) {
      listener({ type: 'unavailable', waitMs: 4000, auth: true });
      listener({ type: 'logged-in', username: 'ace' });
    }
    detach();
    expect(listeners.size).toBe(0);
    expect(lines).toEqual(["  … the game's auth is down (HTTP 503): retrying in 4 s"]);
  });

  it('a retry is one line, whatever the reason’s own line breaks', () => {
    const line = modelRetryLine({ attempt: 2, delayMs: 1500, reason: 'HTTP 429\nslow   down' });
    expect(line).toBe('  … the model call failed (HTTP 429 slow down): waiting 2 s, then retrying (attempt 3)');
  });
});
