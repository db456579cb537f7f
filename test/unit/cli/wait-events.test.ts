// Waits are visible (issue 30): --json writes one event per model retry and per game wait (rate-limited, paced).
import { describe, expect, it } from 'vitest';
import { attachJsonWaits, modelRetryLine, type ModelRetry } from '../../../internal/cli/watchers.js';
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
      listener({ type: 'paced', waitMs: 800, reason: 'query-budget' });
      listener({ type: 'logged-in', username: 'ace' } as ConnectionEvent);
    }
    expect(events).toEqual([
      { type: 'model-retry', attempt: 1, wait_ms: 2000, reason: '429 slow down' },
      { type: 'game-wait', reason: 'rate-limited', wait_ms: 5000 },
      { type: 'game-wait', reason: 'query-budget', wait_ms: 800 },
    ]);
  });

  it('a retry is one line, whatever the reason’s own line breaks', () => {
    const line = modelRetryLine({ attempt: 2, delayMs: 1500, reason: 'HTTP 429\nslow   down' });
    expect(line).toBe('  … the model call failed (HTTP 429 slow down): waiting 2 s, then retrying (attempt 3)');
  });
});
