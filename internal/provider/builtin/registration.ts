// Logging in, for the autopilot: it registers only when the game says it is not logged in, and at most once per run.
// SpaceMolt's register needs a registration code (the game layer fills it) and every attempt counts against the IP's
// budget, so a refused register is never retried: the turns end quoting the game's words (which name the flag to
// pass). A rate-limited register did not reach the game: it is tried again after the wait (next turn).
import type { EmpireId, GameOp } from '../../spacemolt/index.js';
import { errorCode, errorMessage, type Observed } from './observation.js';
import type { Decision } from './policy.js';

export class Registration {
  /** The game said we are not logged in, and nothing since said otherwise. */
  private needed = false;
  /** A register reached the game and succeeded. */
  private registered = false;
  /** A register reached the game and was refused: the game's words. */
  private failure: string | undefined;
  /** Clock time of a rate-limited register: the next try waits for the clock to move (a new turn). */
  private limitedAt: number | undefined;

  observe(observed: Observed, now: number): void {
    const { message, op, data } = observed;
    const code = errorCode(message);
    if (!message.isError && (data.player !== undefined || op === 'login' || op === 'register')) {
      // Logged in, by us or by the game layer (a login it made at start shows as a successful login result).
      this.needed = false;
      this.failure = undefined;
      if (op === 'register') this.registered = true;
      return;
    }
    if (op === 'register' && message.isError) {
      // A rate limit or a cancellation stopped the call before the game acted on it: wait, then try again.
      if (code === 'rate_limited' || code === 'cancelled') this.limitedAt = now;
      else this.failure = errorMessage(message);
      return;
    }
    if (code === 'not_authenticated') this.needed = true;
  }

  /** The game's words when a register reached it and was refused (never retried). */
  get refusal(): string | undefined {
    return this.failure;
  }

  /** Called once per turn: a run that already registered only re-checks (the game layer logs in again). */
  turnStarted(): boolean {
    if (this.needed && this.registered && !this.failure) {
      this.needed = false;
      return true;
    }
    return false;
  }

  decide(options: { ops: ReadonlySet<GameOp>; username: string; empire: EmpireId; now: number }): Decision | undefined {
    const { ops, username, empire, now } = options;
    if (this.failure !== undefined) {
      return { kind: 'end', reason: `Registration failed, not retrying: "${this.failure}"` };
    }
    if (!this.needed) return undefined;
    if (this.registered) {
      return {
        kind: 'end',
        reason: 'Not logged in, and this run already registered once: waiting for the game connection to log in again.',
      };
    }
    if (!ops.has('register'))
      return { kind: 'end', reason: 'Not logged in to the game, and it offers no register command.' };
    if (this.limitedAt !== undefined && now <= this.limitedAt) {
      return { kind: 'end', reason: 'The game is rate-limiting registration; trying again next turn.' };
    }
    return {
      kind: 'calls',
      calls: [{ op: 'register', args: { username, empire } }],
      rationale: `Not logged in: registering as ${username} (${empire}).`,
    };
  }
}
