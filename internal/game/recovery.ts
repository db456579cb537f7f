// The connection's recovery rules as one pure function: given how one try of a game call ended and what this call
// has already been through (plain data), say what to do next. The retry loop in connection.ts only carries the
// decisions out (waits on its clock, reconnects, logs back in), so the rules are tested as a table, without a game.
// An abort is no outcome here: wherever the loop is waiting, the turn's signal ends the call with AbortedError.
import type { CallKind, ToolResult } from '../shared/index.js';
import type { GameOp } from '../spacemolt/index.js';
import { errorResult, finalFailure, rateLimitWaitMs, type CallFailure } from './result.js';

export type AttemptOutcome =
  /** The game answered; an error result (rate_limited, not_authenticated, …) is an answer too. */
  | { kind: 'answer'; result: ToolResult }
  /** The call failed below the game: lost session, HTTP 429 (with its Retry-After in ms), timeout, bad answer. */
  | { kind: 'failure'; failure: CallFailure; retryAfterMs?: number | undefined };

/** One game call as the retry loop runs it (arguments already prepared: secrets guarded, login filled). */
export interface AttemptCall {
  name: string;
  args: Record<string, unknown>;
  op: GameOp | undefined;
  kind: CallKind;
  timeoutMs: number;
  signal?: AbortSignal;
  /** False for the login made inside a reconnect: a failure fails that reconnect attempt, whose own loop retries. */
  canRecover: boolean;
}

export interface AttemptInput {
  outcome: AttemptOutcome;
  call: Pick<AttemptCall, 'name' | 'op' | 'kind' | 'timeoutMs' | 'canRecover'>;
  /** Rate-limit waits already made for this call. */
  waits: number;
  /** How long this call has already waited out the game being down (HTTP 503 with Retry-After), in ms. */
  outageWaitedMs?: number;
  /** A reconnect or re-login already happened for this call: losing the session again gives up. */
  recovered: boolean;
  /** What the connection knows of its login: an account to log back in with, and whether it is logged in. */
  session: { hasAccount: boolean; loggedIn: boolean };
  limits: { rateLimitWaits: number; maxWaitMs: number; maxOutageMs?: number };
}

export type RecoveryDecision =
  /** The game's answer is the call's result (credentials are captured from it). */
  | { action: 'return'; result: ToolResult }
  /** Stop with an error result of our own. */
  | { action: 'give_up'; result: ToolResult }
  /** Rate limited (or, `outage`, the game is down: HTTP 503 with Retry-After): wait `ms` (already capped), then call
   * again. An outage is no refusal: it counts against neither the rate-limit waits nor the machine's refusals. */
  | { action: 'wait'; ms: number; outage?: true }
  /** Reopen the session (logging back in if we were), then call again — unless `uncertain`: a mutation that may have
   * gone through ends, after the reconnect, as `uncertain` instead of being sent again (rule 20: state first). */
  | { action: 'reconnect'; reason: string; uncertain: boolean }
  /** Displaced or logged out by the server: log back in, then call again; `result` is returned if that cannot be done. */
  | { action: 'relogin'; result: ToolResult }
  /** Inside a reconnect: throw, so that reconnect attempt fails. */
  | { action: 'fail'; reason: string };

export function decideRecovery(input: AttemptInput): RecoveryDecision {
  const { outcome } = input;
  return outcome.kind === 'answer'
    ? afterAnswer(input, outcome.result)
    : afterFailure(input, outcome.failure, outcome.retryAfterMs);
}

/** Answers that mean the login we hold no longer counts. session_invalid and session_required are SpaceMolt's: its
 * instructions say to log in again for a new session id (which later calls then carry). */
const LOST_WHEN_LOGGED_IN = new Set(['not_authenticated', 'session_invalid', 'session_required']);

/** True when an answer says we lost a login we hold (not for the account calls themselves, nor after a logout). */
export function loginLost(op: GameOp | undefined, result: ToolResult, session: AttemptInput['session']): boolean {
  if (op === 'login' || op === 'login_token' || op === 'register' || op === 'logout' || !session.hasAccount)
    return false;
  if (result.code === 'session_replaced') return true;
  return result.code !== undefined && LOST_WHEN_LOGGED_IN.has(result.code) && session.loggedIn;
}

function afterAnswer(input: AttemptInput, result: ToolResult): RecoveryDecision {
  const waitMs = rateLimitWaitMs(result);
  // Out of waits, the rate_limited answer itself is the result: the model reads it and slows down.
  if (waitMs !== undefined && input.waits < input.limits.rateLimitWaits) return wait(waitMs, input);
  if (input.call.canRecover && !input.recovered && loginLost(input.call.op, result, input.session))
    return { action: 'relogin', result };
  return { action: 'return', result };
}

function afterFailure(input: AttemptInput, failure: CallFailure, retryAfterMs: number | undefined): RecoveryDecision {
  // Before canRecover: a login inside a reconnect waits out an auth outage too, rather than failing that attempt.
  if (failure.kind === 'http_unavailable') return outage(input, failure.retryAfterMs);
  if (!input.call.canRecover) return { action: 'fail', reason: failure.reason };
  const final = finalFailure(input.call.name, failure, input.call.timeoutMs);
  if (final) return { action: 'give_up', result: final };
  if (failure.kind === 'http_rate_limited') {
    const ms = retryAfterMs ?? 1000;
    if (input.waits < input.limits.rateLimitWaits) return wait(ms, input);
    const text = `rate_limited: the game keeps refusing with HTTP 429; retry after ${ms / 1000} s`;
    return { action: 'give_up', result: errorResult('rate_limited', text) };
  }
  if (input.recovered) {
    const text = `disconnected: lost the game session again right after reconnecting (${failure.reason}); try again shortly`;
    return { action: 'give_up', result: errorResult('disconnected', text) };
  }
  // Once a mutation was sent, a broken session (even a 404 from a server shutting down) leaves its outcome open.
  const notSent = failure.kind === 'session_lost' && failure.notSent === true;
  return { action: 'reconnect', reason: failure.reason, uncertain: !notSent && input.call.kind === 'mutation' };
}

/** The default bound on waiting out one outage, per call: SpaceMolt's auth outages have lasted minutes. */
export const MAX_OUTAGE_MS = 15 * 60_000;

/** Waits out an outage the server announced, each wait capped, the whole bounded; then the call ends with what to do. */
function outage(input: AttemptInput, retryAfterMs: number): RecoveryDecision {
  const waited = input.outageWaitedMs ?? 0;
  const bound = input.limits.maxOutageMs ?? MAX_OUTAGE_MS;
  if (waited >= bound) {
    const minutes = Math.round(waited / 60_000);
    const text =
      `unavailable: the game answered HTTP 503 (down for maintenance or an auth outage) for ${minutes} min; ` +
      'nothing was refused — try again later';
    return { action: 'give_up', result: errorResult('unavailable', text) };
  }
  const ms = Math.min(Math.max(1, retryAfterMs), input.limits.maxWaitMs, bound - waited);
  return { action: 'wait', ms, outage: true };
}

function wait(ms: number, input: AttemptInput): RecoveryDecision {
  return { action: 'wait', ms: Math.min(Math.max(0, ms), input.limits.maxWaitMs) };
}
