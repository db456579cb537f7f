// The game's error: a SIM-SPEC code, a message that says what to do, and the optional extras the contract carries.
import type { MmErrorCode, MmErrorResult } from '../shared/index.js';

export type SimErrorExtra = Omit<MmErrorResult['error'], 'code' | 'message'>;

export class SimError extends Error {
  readonly code: MmErrorCode;
  readonly extra: SimErrorExtra;
  constructor(code: MmErrorCode, message: string, extra: SimErrorExtra = {}) {
    super(message);
    this.name = 'SimError';
    this.code = code;
    this.extra = extra;
  }

  toResult(): MmErrorResult {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}
