// scopedSignal: a per-call signal that leaves nothing behind on a long-lived parent (the autoplay run's signal),
// so thousands of calls do not pile up listeners, timers or dependents.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { scopedSignal } from '../../../internal/shared/index.js';

describe('scopedSignal', () => {
  it('follows the parent, and after dispose leaves no listener on it', () => {
    const parent = new AbortController();
    const scopes = Array.from({ length: 1000 }, () => scopedSignal(parent.signal, 60_000));
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1000);
    for (const scope of scopes.slice(0, 999)) scope.dispose();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    parent.abort();
    expect(scopes[999]!.signal.aborted).toBe(true);
    expect(scopes[999]!.timedOut).toBe(false);
    expect(scopes[0]!.signal.aborted).toBe(false);
  });

  it('times out on its own and says so', async () => {
    const scope = scopedSignal(undefined, 20);
    await new Promise((resolve) => scope.signal.addEventListener('abort', resolve, { once: true }));
    expect(scope.timedOut).toBe(true);
    scope.dispose();
  });

  it('without a timeout only the parent aborts it', () => {
    const parent = new AbortController();
    const scope = scopedSignal(parent.signal);
    expect(scope.signal.aborted).toBe(false);
    parent.abort();
    expect(scope.signal.aborted).toBe(true);
    scope.dispose();
  });

  it('a parent already aborted gives an aborted signal', () => {
    const parent = new AbortController();
    parent.abort();
    expect(scopedSignal(parent.signal, 1000).signal.aborted).toBe(true);
  });
});
