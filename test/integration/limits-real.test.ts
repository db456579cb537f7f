// Rule 18 on the whole shipped path: the autopilot (SessionRunner + runAutoplayTurns + the real game connection) plays
// minimolt's real-format faces for 1,000 ticks behind a proxy that enforces SpaceMolt's limits like a strict server —
// queries per account in a sliding window, get_notifications once a tick, logins per IP, an IP timeout past 50
// refusals — and answers one call with `session_required`. Time is scaled: a 40 ms tick, a "minute" of 6 ticks, and a
// query budget 50 times stricter than the real 300 a minute (6 per 6 ticks, where the autopilot left alone asks up to 9), so the budget truly binds.
import { expect, it, type TestContext } from 'vitest';
import { connectGame, IpPacer, parseGameTarget, type GameConnection } from '../../internal/game/index.js';
import { createAutopilotProvider } from '../../internal/provider/builtin/index.js';
import { actionClassifier, runAutoplayTurns, setUpSession } from '../../internal/session/index.js';
import { createMinimolt, type HttpHandle, type Minimolt } from '../../internal/sim/index.js';
import { openStore, type Store } from '../../internal/store/index.js';
import { silentLogger } from '../../internal/shared/index.js';
import { startLimitsProxy, type LimitsProxy } from '../fakes/limits-proxy.js';

const TICK_MS = 40;
const QUERIES_PER_WINDOW = 6;

// The two 1,000-tick plays wait on real ticks, not on the CPU: they run side by side (it.concurrent), each closing what
// it opened through its own test's onTestFinished (run in reverse order), so one's cleanup never closes the other's.
async function play(options: {
  onTestFinished: TestContext['onTestFinished'];
  face: 'v1' | 'v2';
  ticks: number;
  budget: boolean;
  sessionRequiredAt?: number;
  /** The tick (default 40 ms); the "minute" and the window are always 6 ticks. */
  tickMs?: number;
}): Promise<{
  sim: Minimolt;
  proxy: LimitsProxy;
  startTick: number;
}> {
  const cleanups = { push: (cleanup: () => Promise<void> | void): void => options.onTestFinished(cleanup) };
  const tickMs = options.tickMs ?? TICK_MS;
  const windowMs = 6 * tickMs;
  // minimolt's own query limit is off: the proxy is the strict server here.
  const sim = await createMinimolt({
    tickMs,
    seed: 42,
    worldDb: ':memory:',
    rateLimits: { queriesPerMinute: 0, loginsPerMinutePerAddress: 0 },
  });
  cleanups.push(() => sim.close());
  const http: HttpHandle = await sim.listen({ port: 0 });
  const proxy = await startLimitsProxy({
    target: http.url,
    limits: {
      queriesPerWindow: QUERIES_PER_WINDOW,
      windowMs,
      tickMs,
      loginsPerWindow: 30,
      rejectionsToTimeout: 50,
      timeoutMs: 60_000,
    },
    ...(options.sessionRequiredAt ? { sessionRequiredAt: options.sessionRequiredAt } : {}),
  });
  cleanups.push(() => proxy.close());
  const store: Store = await openStore({ path: ':memory:' });
  cleanups.push(() => store.close());
  const game: GameConnection = await connectGame({
    target: parseGameTarget(`${proxy.url}${options.face === 'v2' ? '/mcp/v2' : '/mcp'}`),
    credentials: store.credentials,
    registrationCode: sim.registrationCode,
    tickMs: options.budget ? tickMs : 0,
    queryBudget: options.budget ? { queriesPerWindow: QUERIES_PER_WINDOW, windowMs } : { queriesPerWindow: 0 },
    ipPacer: new IpPacer({ windowMs }),
  });
  cleanups.push(() => game.close());
  const tools = await game.listTools();
  const session = await store.createSession({ game: 'limits', model: 'builtin/autopilot', goal: 'earn credits' });
  const { runner } = await setUpSession({
    store,
    session,
    provider: createAutopilotProvider({ seed: 42 }),
    game,
    tools,
    gameLabel: 'limits',
    goal: () => 'earn credits',
    maxRounds: 20,
    memory: false,
    tick: () => sim.tick,
    logger: silentLogger,
  });
  const startTick = sim.tick;
  await runAutoplayTurns({
    runner,
    goal: 'earn credits',
    limits: { maxTicks: options.ticks, maxTurns: options.ticks * 4 },
    signal: new AbortController().signal,
    fetchEvents: (signal) => game.fetchEvents({ signal }),
    idleWaitMs: tickMs,
    isAction: actionClassifier(tools),
  });
  return { sim, proxy, startTick };
}

/** No two sales answered "no buyers" for one item at one station. */
function repeatedNoBuyers(proxy: LimitsProxy): string[] {
  const seen = new Map<string, number>();
  for (const call of proxy.calls) {
    if (call.op !== 'sell' || !/\(no buyers\)/.test(call.sentence) || !/^Sold 0 /.test(call.sentence)) continue;
    const key = `${call.dockedAt ?? '?'} ${String(call.args.id ?? call.args.item_id)}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, count]) => count > 1).map(([key]) => key);
}

// One suite, so both faces run side by side (vitest runs suites one after another, concurrent tests within one together).
it.concurrent.for(['v2', 'v1'] as const)(
  "the autopilot inside a strict server's limits (%s face) plays 1,000 ticks: mines and sells, never over the query window, notifications once a tick, no IP timeout, one re-login for session_required",
  { timeout: 180_000 },
  async (face, { onTestFinished }) => {
    const { sim, proxy, startTick } = await play({
      onTestFinished,
      face,
      ticks: 1000,
      budget: true,
      sessionRequiredAt: 150,
    });
    const me = sim.stats().players[0]!;
    expect(sim.tick - startTick).toBeGreaterThanOrEqual(1000);
    // Credits rise: mined ore sold.
    // The sale's sentence: the text on v2, the JSON's message on v1.
    const sales = proxy.calls.filter((c) => c.op === 'sell' && !c.isError && /^Sold [1-9]/.test(c.sentence));
    expect(sales.length).toBeGreaterThan(5);
    expect(me.net_worth).toBeGreaterThan(3000);
    expect(proxy.calls.filter((c) => c.op === 'mine' && !c.isError).length).toBeGreaterThan(50);
    // The strict server refused nothing for its limits and never timed the IP out.
    expect(proxy.limits.refused).toEqual({});
    expect(proxy.limits.ipTimeouts).toBe(0);
    expect(proxy.limits.peakQueries).toBeLessThanOrEqual(QUERIES_PER_WINDOW);
    const notifications = proxy.calls.filter((c) => c.op === 'get_notifications').map((c) => c.at);
    expect(notifications.length).toBeGreaterThan(10);
    // The session_required answer was followed by exactly one login, then play went on.
    expect(proxy.injectedAt).toBeDefined();
    const after = proxy.calls.slice((proxy.injectedAt ?? 0) + 1);
    expect(after.filter((c) => c.op === 'login')).toHaveLength(1);
    expect(proxy.calls.filter((c) => c.op === 'login' || c.op === 'register')).toHaveLength(2);
    expect(repeatedNoBuyers(proxy)).toEqual([]);
  },
);

// Alone, after the two above: the same limits in ticks, on 200 ms ticks. Left alone the captain opens with seven
// queries at once (status, notifications, map, market…), one over the window; on 40 ms ticks a busy machine spread
// that burst past the 240 ms window. A window five times longer keeps the refusal the captain's own doing.
it('the same server refuses a captain without the query budget (the test above can fail)', async ({
  onTestFinished,
}) => {
  const { proxy } = await play({ onTestFinished, face: 'v2', ticks: 6, budget: false, tickMs: 200 });
  expect(proxy.limits.refused.rate_limited ?? 0).toBeGreaterThan(0);
}, 120_000);
