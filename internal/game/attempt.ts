// The one retry loop of a game call (rule 18's pacing before each try, recovery.ts's decisions after it): try the
// call, ask decideRecovery what the outcome means, carry that out — wait, reconnect, log in again — until it is done.
// The connection owns the parts; this loop only drives them.
import { SkipperError, type ConnectionEvent, type Logger, type ToolResult } from '../shared/index.js';
import type { CredentialCapture } from './credential-capture.js';
import { fillSessionId } from './filled-args.js';
import type { Keyring } from './keyring.js';
import type { GameLimits } from './limits.js';
import type { GameLink } from './link.js';
import type { GameClock, resolveRetry } from './options.js';
import { withObservation } from './profile.js';
import { decideRecovery, type AttemptCall, type AttemptOutcome } from './recovery.js';
import { errorResult } from './result.js';
import type { SessionKeeper } from './session-keeper.js';

export interface Attempted {
  result: ToolResult;
  reconnected: boolean;
  uncertain?: boolean;
}

export interface AttemptParts {
  link: GameLink;
  limits: GameLimits;
  keyring: Keyring;
  capture: CredentialCapture;
  keeper: SessionKeeper;
  retry: ReturnType<typeof resolveRetry>;
  clock: GameClock;
  logger: Logger;
  emit: (event: ConnectionEvent) => void;
  counters: { rateLimitWaits: number; outageWaits: number };
}

/** The arguments of one try: the session id as it is now (a re-login since the last try changed it). */
function argsOf(parts: AttemptParts, call: AttemptCall): Record<string, unknown> {
  if (call.op === 'login' || call.op === 'login_token' || call.op === 'register') return call.args;
  const { keyring, link } = parts;
  // The flat /mcp face wants the greeting's session_id on every call after login, declared or not.
  const always = keyring.sessionIdAlways || link.profile.face === 'v1';
  return fillSessionId(call.args, link.spec(call.name), keyring.sessionId, { always });
}

async function waitRateLimit(parts: AttemptParts, waitMs: number, signal: AbortSignal | undefined): Promise<void> {
  parts.counters.rateLimitWaits += 1;
  parts.emit({ type: 'rate-limited', waitMs });
  parts.logger.info({ waitMs }, 'rate limited; waiting before retrying');
  await parts.clock.sleep(waitMs, signal);
}

/** The game is down (HTTP 503 with Retry-After): said once per wait, on the log and as an event, then waited out. */
export async function waitOutage(
  parts: Pick<AttemptParts, 'clock' | 'logger' | 'emit' | 'counters'>,
  wait: { ms: number; auth: boolean; signal: AbortSignal | undefined },
): Promise<void> {
  parts.counters.outageWaits += 1;
  parts.emit({ type: 'unavailable', waitMs: wait.ms, auth: wait.auth });
  parts.logger.warn(
    { waitMs: wait.ms, auth: wait.auth },
    wait.auth
      ? "the game's auth is down (HTTP 503); retrying after the wait"
      : 'the game is down (HTTP 503); retrying after the wait',
  );
  await parts.clock.sleep(wait.ms, wait.signal);
}

const ACCOUNT_OPS = new Set(['login', 'login_token', 'register']);

/** One try of the call: sent within the limits, its answer read (or its failure classed) and seen by the limits. */
async function tryOnce(
  parts: AttemptParts,
  call: AttemptCall,
): Promise<{
  args: Record<string, unknown>;
  invoked: Awaited<ReturnType<GameLink['invoke']>>;
  outcome: AttemptOutcome;
  loginGeneration: number;
}> {
  const { link, limits, keyring, clock, logger } = parts;
  const { name, op, signal } = call;
  const slot = await limits.admit(call);
  // The login this try is sent under: a re-login after it tells from it whether another call already logged back in.
  const loginGeneration = parts.capture.generation;
  const args = argsOf(parts, call);
  let invoked: Awaited<ReturnType<GameLink['invoke']>>;
  try {
    invoked = await link.invoke({ name, args, timeoutMs: call.timeoutMs, ...(signal ? { signal } : {}) });
  } finally {
    // Also on abort: a slot left in flight would hold the window forever.
    slot?.settle(clock.now());
  }
  const outcome: AttemptOutcome =
    'failure' in invoked
      ? { kind: 'failure', failure: invoked.failure, retryAfterMs: link.lastRetryAfterMs }
      : { kind: 'answer', result: withObservation(link.profile, op, invoked.result) };
  limits.observe(outcome);
  // A server that asks for the session id gets it on every later call, declared in the schema or not.
  if (outcome.kind === 'answer' && outcome.result.code === 'session_required') keyring.sessionIdAlways = true;
  if ('failure' in invoked && invoked.failure.kind === 'bad_response') {
    logger.warn({ tool: name, reason: invoked.failure.reason }, 'unreadable answer from the game');
  }
  return { args, invoked, outcome, loginGeneration };
}

export async function runAttempts(parts: AttemptParts, call: AttemptCall): Promise<Attempted> {
  const { keyring, capture, keeper } = parts;
  const { name, op, signal } = call;
  let waits = 0;
  let outageWaitedMs = 0;
  let recovered = false;
  let reconnected = false;
  let uncertain = false;
  for (;;) {
    const { args, invoked, outcome, loginGeneration } = await tryOnce(parts, call);
    const session = { hasAccount: keyring.account !== undefined, loggedIn: keyring.loggedIn };
    const decision = decideRecovery({ outcome, call, waits, outageWaitedMs, recovered, session, limits: parts.retry });
    if (decision.action === 'return') {
      // A password the answer handed over is durable before the answer goes back (a failed store is logged).
      await capture.capture({ operation: op, name, args, result: decision.result });
      return { result: decision.result, reconnected, uncertain };
    }
    if (decision.action === 'give_up') return { result: decision.result, reconnected };
    if (decision.action === 'fail') throw new SkipperError('relogin', `login failed: ${decision.reason}`);
    if (decision.action === 'wait' && decision.outage) {
      outageWaitedMs += decision.ms;
      await waitOutage(parts, { ms: decision.ms, auth: op !== undefined && ACCOUNT_OPS.has(op), signal });
      continue;
    }
    if (decision.action === 'wait') {
      waits += 1;
      await waitRateLimit(parts, decision.ms, signal);
      continue;
    }
    recovered = true;
    if (decision.action === 'reconnect') uncertain = decision.uncertain;
    const failed =
      decision.action === 'reconnect'
        ? await keeper.reconnect(decision.reason, invoked.generation, signal)
        : await keeper.relogin(decision.result, loginGeneration, signal);
    if (failed) return { result: failed, reconnected };
    reconnected = true;
    // A mutation that may have gone through is not sent again (rule 20): the game may have done it, and sending it
    // blind costs a refusal ("already at X") per captain in flight — past 50 a minute the IP is timed out. The
    // captain reads its state first.
    if (uncertain) return { result: uncertainResult(op ?? name), reconnected, uncertain };
  }
}

/** The end of a mutation cut off mid-call: reconnected and logged in, its outcome unknown. */
export function uncertainResult(what: string): ToolResult {
  return errorResult(
    'uncertain',
    `uncertain: the connection broke while ${what} was under way and was mended; the game may have done it — ` +
      'read the status before acting again',
  );
}
