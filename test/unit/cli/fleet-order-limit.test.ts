// `skipper fleet order CAPTAIN TEXT` with a text over ORDER_MAX_CHARS: a usage error (exit 2) with one line, before
// the store is asked anything.
import { describe, expect, it } from 'vitest';
import { fleetOrder } from '../../../internal/cli/fleet-status.js';
import { ORDER_MAX_CHARS, UsageError } from '../../../internal/shared/index.js';
import type { Store } from '../../../internal/store/index.js';

describe('fleet order limit', () => {
  it(`refuses an order over ${ORDER_MAX_CHARS} characters before reading the store`, async () => {
    const untouched = new Proxy({} as Store, {
      get: (_target, key) => {
        throw new Error(`the store was asked for ${String(key)}`);
      },
    });
    const order = fleetOrder(untouched, { captain: 'ada', command: 'order', text: 'o'.repeat(ORDER_MAX_CHARS + 1) });
    await expect(order).rejects.toBeInstanceOf(UsageError);
    await expect(order).rejects.toThrow('the order is 4,001 characters; the most is 4,000: shorten it');
  });
});
