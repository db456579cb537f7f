// Test helper for the fleet file's mistakes: the one-line UsageError a bad fleet file is refused with.
import { expect } from 'vitest';
import { parseFleetText } from '../../../internal/fleet/fleet-file.js';
import { UsageError } from '../../../internal/shared/index.js';

/** The UsageError `run` throws (fails the test when it throws another error, or none). */
export function usageProblemOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

/** The UsageError parseFleetText throws for `text` (fails the test when it does not throw one). */
export function problemOf(text: string, file = 'fleet.yaml'): string {
  return usageProblemOf(() => parseFleetText(text, file));
}
