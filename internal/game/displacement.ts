// Being displaced: another client logged in as our player. We log back in, but two clients sharing one account
// would trade the session forever, so displacements are counted per window and re-logins back off, then stop.
import type { ToolResult } from '../shared/index.js';
import { errorResult } from './result.js';

export class Displacements {
  private times: number[] = [];

  constructor(private readonly options: { windowMs: number; max: number; backoffMs: number; maxBackoffMs: number }) {}

  /** Records a displacement now; false when there were already `max` in the window (stop logging back in). */
  admit(now = Date.now()): boolean {
    this.times = this.times.filter((at) => now - at < this.options.windowMs);
    if (this.times.length >= this.options.max) return false;
    this.times.push(now);
    return true;
  }

  get count(): number {
    return this.times.length;
  }

  /** How long to wait before the re-login: a little more each time, so two clients do not trade at full speed. */
  backoffMs(): number {
    const repeats = this.times.length - 1;
    return repeats > 0 ? Math.min(this.options.backoffMs * 2 ** (repeats - 1), this.options.maxBackoffMs) : 0;
  }

  /** The result the model reads once we stopped logging back in. */
  refusal(username: string): ToolResult {
    return errorResult(
      'session_replaced',
      `session_replaced: another client keeps logging in as ${username} (${this.times.length} times in ` +
        `${Math.round(this.options.windowMs / 1000)} s), so this one stopped logging back in to avoid a login ` +
        'storm. Close the other client or use another account, then call login.',
    );
  }
}
