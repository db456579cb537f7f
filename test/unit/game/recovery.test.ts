// The connection's recovery rules as a table: one try's outcome and what the call went through -> what to do next.
import { describe, expect, it } from 'vitest';
import {
  decideRecovery,
  loginLost,
  type AttemptInput,
  type AttemptOutcome,
  type RecoveryDecision,
} from '../../../internal/game/recovery.js';
import { fromCallResult, type CallFailure } from '../../../internal/game/result.js';
import type { ToolResult } from '../../../internal/shared/index.js';

const OK: ToolResult = { text: 'Credits: 150', isError: false };
const RATE_LIMITED: ToolResult = {
  text: '{"error":"rate_limited","message":"slow","retry_after":3}',
  isError: true,
  code: 'rate_limited',
};
const RATE_LIMITED_LONG: ToolResult = {
  text: 'x',
  isError: true,
  code: 'rate_limited',
  data: { error: { retry_after: 600 } },
};
const REPLACED: ToolResult = {
  text: 'Error: session_replaced: another client logged in',
  isError: true,
  code: 'session_replaced',
};
const NOT_AUTHENTICATED: ToolResult = {
  text: 'Error: not_authenticated: log in first',
  isError: true,
  code: 'not_authenticated',
};
const NO_FUEL: ToolResult = { text: 'Error: no_fuel: empty', isError: true, code: 'no_fuel' };
// SpaceMolt's session answers, read the way the connection reads them: as `Error: code: …` text and as JSON.
const SESSION_INVALID = fromCallResult({
  content: [{ type: 'text', text: 'Error: session_invalid: session expired, log in again' }],
  isError: true,
});
const SESSION_INVALID_JSON = fromCallResult({
  content: [{ type: 'text', text: '{"code":"session_invalid","message":"unknown session"}' }],
  isError: true,
});
const SESSION_REQUIRED = fromCallResult({
  content: [{ type: 'text', text: 'Error: session_required: include session_id' }],
  isError: true,
});
const SESSION_REQUIRED_JSON = fromCallResult({
  content: [{ type: 'text', text: '{"code":"session_required","message":"no session_id"}' }],
  isError: true,
});

const answer = (result: ToolResult): AttemptOutcome => ({ kind: 'answer', result });
const failure = (failed: CallFailure, retryAfterMs?: number): AttemptOutcome => ({
  kind: 'failure',
  failure: failed,
  retryAfterMs,
});
const LOST: CallFailure = { kind: 'session_lost', reason: 'Session expired' };
const NOT_SENT: CallFailure = { kind: 'session_lost', reason: 'not connected', notSent: true };
const HTTP_429: CallFailure = { kind: 'http_rate_limited', reason: 'HTTP 429' };
const down = (retryAfterMs: number): CallFailure => ({
  kind: 'http_unavailable',
  reason: 'HTTP 503 with Retry-After',
  retryAfterMs,
});

function input(
  outcome: AttemptOutcome,
  overrides: Partial<Omit<AttemptInput, 'outcome'>> & {
    op?: AttemptInput['call']['op'];
    kind?: AttemptInput['call']['kind'];
    canRecover?: boolean;
  } = {},
): AttemptInput {
  const { op, kind, canRecover, ...rest } = overrides;
  return {
    outcome,
    call: {
      name: 'get_status',
      op: op ?? 'get_status',
      kind: kind ?? 'query',
      timeoutMs: 30_000,
      canRecover: canRecover ?? true,
    },
    waits: 0,
    recovered: false,
    session: { hasAccount: true, loggedIn: true },
    limits: { rateLimitWaits: 3, maxWaitMs: 60_000 },
    ...rest,
  };
}

const giveUp = (code: string, text: RegExp | string) => ({
  action: 'give_up',
  result: { isError: true, code, text: typeof text === 'string' ? text : expect.stringMatching(text) },
});

describe('decideRecovery', () => {
  it.each<[string, AttemptInput, RecoveryDecision | ReturnType<typeof giveUp>]>([
    // answers
    ['an answer is returned', input(answer(OK)), { action: 'return', result: OK }],
    ['a game error is returned as it is', input(answer(NO_FUEL)), { action: 'return', result: NO_FUEL }],
    ['rate_limited waits its retry_after', input(answer(RATE_LIMITED)), { action: 'wait', ms: 3000 }],
    [
      'rate_limited waits again while waits are left',
      input(answer(RATE_LIMITED), { waits: 2 }),
      { action: 'wait', ms: 3000 },
    ],
    ['a long retry_after is capped', input(answer(RATE_LIMITED_LONG)), { action: 'wait', ms: 60_000 }],
    [
      'out of waits, the rate_limited answer is the result',
      input(answer(RATE_LIMITED), { waits: 3 }),
      { action: 'return', result: RATE_LIMITED },
    ],
    ['displaced: log back in', input(answer(REPLACED)), { action: 'relogin', result: REPLACED }],
    [
      'logged out by the server while logged in: log back in',
      input(answer(NOT_AUTHENTICATED)),
      { action: 'relogin', result: NOT_AUTHENTICATED },
    ],
    [
      'not_authenticated before any login is the result',
      input(answer(NOT_AUTHENTICATED), { session: { hasAccount: true, loggedIn: false } }),
      { action: 'return', result: NOT_AUTHENTICATED },
    ],
    [
      'no account to log back in with',
      input(answer(REPLACED), { session: { hasAccount: false, loggedIn: false } }),
      { action: 'return', result: REPLACED },
    ],
    [
      'displaced again after a recovery is the result',
      input(answer(REPLACED), { recovered: true }),
      { action: 'return', result: REPLACED },
    ],
    [
      'a login that reads not_authenticated is not re-logged',
      input(answer(NOT_AUTHENTICATED), { op: 'login' }),
      { action: 'return', result: NOT_AUTHENTICATED },
    ],
    [
      'inside a reconnect, no re-login',
      input(answer(REPLACED), { canRecover: false }),
      { action: 'return', result: REPLACED },
    ],
    [
      'session_invalid while logged in: log back in',
      input(answer(SESSION_INVALID)),
      { action: 'relogin', result: SESSION_INVALID },
    ],
    [
      'session_invalid as JSON: log back in',
      input(answer(SESSION_INVALID_JSON)),
      { action: 'relogin', result: SESSION_INVALID_JSON },
    ],
    [
      'session_required while logged in: log back in',
      input(answer(SESSION_REQUIRED)),
      { action: 'relogin', result: SESSION_REQUIRED },
    ],
    [
      'session_required as JSON: log back in',
      input(answer(SESSION_REQUIRED_JSON)),
      { action: 'relogin', result: SESSION_REQUIRED_JSON },
    ],
    [
      'session_invalid again after the re-login is the result',
      input(answer(SESSION_INVALID), { recovered: true }),
      { action: 'return', result: SESSION_INVALID },
    ],
    [
      'session_required before any login is the result',
      input(answer(SESSION_REQUIRED), { session: { hasAccount: true, loggedIn: false } }),
      { action: 'return', result: SESSION_REQUIRED },
    ],
    [
      'a login answered session_invalid is not re-logged',
      input(answer(SESSION_INVALID), { op: 'login' }),
      { action: 'return', result: SESSION_INVALID },
    ],
    // failures
    [
      'a lost session reconnects',
      input(failure(LOST)),
      { action: 'reconnect', reason: 'Session expired', uncertain: false },
    ],
    [
      'a lost session under a mutation leaves it uncertain',
      input(failure(LOST), { kind: 'mutation' }),
      { action: 'reconnect', reason: 'Session expired', uncertain: true },
    ],
    [
      'a mutation never sent is not uncertain',
      input(failure(NOT_SENT), { kind: 'mutation' }),
      { action: 'reconnect', reason: 'not connected', uncertain: false },
    ],
    [
      'losing the session again gives up',
      input(failure(LOST), { recovered: true }),
      giveUp(
        'disconnected',
        'disconnected: lost the game session again right after reconnecting (Session expired); try again shortly',
      ),
    ],
    ['HTTP 429 waits its Retry-After', input(failure(HTTP_429, 2500)), { action: 'wait', ms: 2500 }],
    ['HTTP 429 without Retry-After waits 1 s', input(failure(HTTP_429)), { action: 'wait', ms: 1000 }],
    ['HTTP 429 Retry-After is capped', input(failure(HTTP_429, 3_600_000)), { action: 'wait', ms: 60_000 }],
    [
      'HTTP 429 after a recovery still waits',
      input(failure(HTTP_429, 2000), { recovered: true }),
      { action: 'wait', ms: 2000 },
    ],
    [
      'HTTP 429 out of waits gives up',
      input(failure(HTTP_429, 2000), { waits: 3 }),
      giveUp('rate_limited', 'rate_limited: the game keeps refusing with HTTP 429; retry after 2 s'),
    ],
    [
      'a timeout gives up',
      input(failure({ kind: 'timeout', reason: 'timed out' })),
      giveUp('timeout', 'timeout: the game did not answer get_status within 30 s'),
    ],
    [
      'a JSON-RPC error gives up with its code',
      input(failure({ kind: 'rpc_error', code: 'unknown_tool', reason: 'no such tool' })),
      giveUp('unknown_tool', 'unknown_tool: no such tool'),
    ],
    [
      'an unreadable answer gives up',
      input(failure({ kind: 'bad_response', reason: 'garbage' })),
      giveUp('bad_response', /^bad_response: the game's answer to get_status could not be read \(garbage\)$/),
    ],
    [
      'inside a reconnect, a lost session fails that attempt',
      input(failure(LOST), { canRecover: false }),
      { action: 'fail', reason: 'Session expired' },
    ],
    // HTTP 503 with Retry-After: the game (its auth) is down: waited out, never a refusal, a reconnect or a re-login
    ['HTTP 503 waits its Retry-After', input(failure(down(30_000))), { action: 'wait', ms: 30_000, outage: true }],
    [
      'HTTP 503 waits even out of rate-limit waits and after a recovery',
      input(failure(down(5000)), { waits: 3, recovered: true }),
      { action: 'wait', ms: 5000, outage: true },
    ],
    [
      'HTTP 503 on a login inside a reconnect waits too',
      input(failure(down(5000)), { op: 'login_token', canRecover: false }),
      { action: 'wait', ms: 5000, outage: true },
    ],
    ['HTTP 503 each wait is capped', input(failure(down(3_600_000))), { action: 'wait', ms: 60_000, outage: true }],
    [
      'HTTP 503 waits no longer than the outage bound in all',
      input(failure(down(60_000)), { outageWaitedMs: 880_000 }),
      { action: 'wait', ms: 20_000, outage: true },
    ],
    [
      'HTTP 503 past the outage bound gives up, saying nothing was refused',
      input(failure(down(60_000)), { outageWaitedMs: 900_000 }),
      giveUp('unavailable', /^unavailable: the game answered HTTP 503 .* for 15 min; nothing was refused/),
    ],
    [
      'inside a reconnect, a timeout fails that attempt',
      input(failure({ kind: 'timeout', reason: 'timed out' }), { canRecover: false }),
      { action: 'fail', reason: 'timed out' },
    ],
  ])('%s', (_name, given, expected) => {
    expect(decideRecovery(given)).toEqual(expected);
  });

  it('reads the session codes from text and JSON alike', () => {
    expect(
      [SESSION_INVALID, SESSION_INVALID_JSON, SESSION_REQUIRED, SESSION_REQUIRED_JSON].map((result) => result.code),
    ).toEqual(['session_invalid', 'session_invalid', 'session_required', 'session_required']);
  });

  it('never mutates what it is given', () => {
    const given = input(answer(RATE_LIMITED));
    const copy = structuredClone(given);
    decideRecovery(given);
    expect(given).toEqual(copy);
  });
});

describe('loginLost', () => {
  const session = { hasAccount: true, loggedIn: true };
  it.each([
    ['session_replaced on a game call', 'get_status', REPLACED, session, true],
    ['not_authenticated while logged in', 'mine', NOT_AUTHENTICATED, session, true],
    ['not_authenticated after a logout', 'mine', NOT_AUTHENTICATED, { hasAccount: true, loggedIn: false }, false],
    ['session_replaced without an account', 'mine', REPLACED, { hasAccount: false, loggedIn: false }, false],
    ['the register call itself', 'register', REPLACED, session, false],
    ['the login_token call itself', 'login_token', NOT_AUTHENTICATED, session, false],
    ['the logout call itself', 'logout', NOT_AUTHENTICATED, session, false],
    ['another error', 'mine', NO_FUEL, session, false],
    ['session_invalid while logged in', 'get_status', SESSION_INVALID, session, true],
    ['session_required while logged in', 'mine', SESSION_REQUIRED_JSON, session, true],
    ['session_invalid after a logout', 'mine', SESSION_INVALID, { hasAccount: true, loggedIn: false }, false],
  ] as const)('%s -> %s', (_name, op, result, state, expected) => {
    expect(loginLost(op, result, state)).toBe(expected);
  });
});
