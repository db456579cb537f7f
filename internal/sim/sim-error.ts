// The game's error: a code, a message that says what to do, and the optional extras the contract carries.
// SIM-SPEC's codes plus the three the SpaceMolt faces add: invalid_payload (unknown parameter or action, as the real
// server words it), invalid_registration_code, and invalid_token (a login_token that is unknown, used or expired).
import type { MmErrorCode, MmErrorResult } from '../spacemolt/index.js';

export type SimErrorCode =
  | MmErrorCode
  | 'invalid_payload'
  | 'invalid_registration_code'
  | 'invalid_token'
  | 'session_required'
  | 'session_invalid';

export type SimErrorExtra = Omit<MmErrorResult['error'], 'code' | 'message'>;

export class SimError extends Error {
  readonly code: SimErrorCode;
  readonly extra: SimErrorExtra;
  constructor(code: SimErrorCode, message: string, extra: SimErrorExtra = {}) {
    super(message);
    this.name = 'SimError';
    this.code = code;
    this.extra = extra;
  }

  /** The `{error}` object of structuredContent (only sent with the `structured` option). */
  toResult(): { error: { code: SimErrorCode; message: string } & SimErrorExtra } {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}
