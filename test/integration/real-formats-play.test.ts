// Issue 45's bar, literally: on a server that answers in the real formats — text dashboards on /mcp/v2, JSON with a
// required session_id on /mcp — and answers as a later game version would (minimolt's --drift: renamed and extra
// columns, a table left out, a get_map nobody can read, refusals in words, another greeting; stations where nobody
// buys some items), behind a proxy that keeps SpaceMolt's real limits (300 queries a minute per account, notifications
// once a tick, 30 logins a minute, an IP timeout past 50 refusals a minute), the built-in autopilot plays 3 minutes of
// 1 s ticks on each face: it mines at least 8 times, sells at a profit, never asks more than 300 queries in a minute,
// trips no IP timeout, asks the unreadable map again only after its failed-read wait, and never sells twice where
// nobody buys. Both faces run side by side: each waits on real ticks, not the CPU.
import { expect, it } from 'vitest';
import { connectGame, IpPacer, parseGameTarget } from '../../internal/game/index.js';
import { createAutopilotProvider } from '../../internal/provider/builtin/index.js';
import { actionClassifier, runAutoplayTurns, setUpSession } from '../../internal/session/index.js';
import { createMinimolt } from '../../internal/sim/index.js';
import { openStore } from '../../internal/store/index.js';
import { silentLogger } from '../../internal/shared/index.js';
import { startLimitsProxy } from '../fakes/limits-proxy.js';

const TICK_MS = 1000;
const TICKS = 180;
const MINUTE_MS = 60_000;
/** A drift whose get_map is in prose, whose status leaves its hold table out and whose refusals come in words. */
const DRIFT = 7;

it.concurrent.for(['v2', 'v1'] as const)(
  'the autopilot on a drifted real-format server with real limits (%s face), 3 minutes of 1 s ticks: mines 8+, sells at a profit, at most 300 queries a minute, no IP timeout',
  { timeout: 400_000 },
  async (face, { onTestFinished }) => {
    // minimolt's own limits are off: the proxy is the strict server.
    const sim = await createMinimolt({
      tickMs: TICK_MS,
      seed: 42,
      drift: DRIFT,
      rateLimits: { queriesPerMinute: 0, loginsPerMinutePerAddress: 0 },
    });
    onTestFinished(() => sim.close());
    const http = await sim.listen({ port: 0 });
    const proxy = await startLimitsProxy({
      target: http.url,
      limits: {
        queriesPerWindow: 300,
        windowMs: MINUTE_MS,
        tickMs: TICK_MS,
        loginsPerWindow: 30,
        rejectionsToTimeout: 50,
        timeoutMs: 120_000,
      },
    });
    onTestFinished(() => proxy.close());
    const store = await openStore({ path: ':memory:' });
    onTestFinished(() => store.close());
    const game = await connectGame({
      target: parseGameTarget(`${proxy.url}${face === 'v2' ? '/mcp/v2' : '/mcp'}`),
      credentials: store.credentials,
      registrationCode: sim.registrationCode,
      tickMs: TICK_MS,
      ipPacer: new IpPacer({}),
    });
    onTestFinished(() => game.close());
    const tools = await game.listTools();
    const session = await store.createSession({
      game: 'real-formats',
      model: 'builtin/autopilot',
      goal: 'earn credits',
    });
    const { runner } = await setUpSession({
      store,
      session,
      provider: createAutopilotProvider({ seed: 42 }),
      game,
      tools,
      gameLabel: 'real-formats',
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
      limits: { maxTicks: TICKS, maxTurns: TICKS * 4 },
      signal: new AbortController().signal,
      fetchEvents: (signal) => game.fetchEvents({ signal }),
      idleWaitMs: TICK_MS,
      isAction: actionClassifier(tools),
    });

    expect(sim.tick - startTick).toBeGreaterThanOrEqual(TICKS);
    const ok = (op: string): typeof proxy.calls => proxy.calls.filter((c) => c.op === op && !c.isError);
    expect(ok('mine').length).toBeGreaterThanOrEqual(8);
    const me = sim.stats().players[0]!;
    // Sold at a profit: credits above the 150 every pilot starts with, from sales that sold something.
    expect(ok('sell').filter((c) => /^Sold [1-9]/.test(c.sentence)).length).toBeGreaterThan(0);
    expect(me.credits).toBeGreaterThan(150);
    // The real limits: never over 300 queries in a minute, nothing refused for them, no IP timeout.
    expect(proxy.limits.peakQueries).toBeLessThanOrEqual(300);
    expect(proxy.limits.refused).toEqual({});
    expect(proxy.limits.ipTimeouts).toBe(0);
    // The map cannot be read under this drift: a failed read, asked again only after its wait (not every turn).
    const maps = proxy.calls.filter((c) => c.op === 'get_map');
    expect(maps.length).toBeGreaterThan(0);
    expect(maps.length).toBeLessThanOrEqual(6);
    // Never a sale twice where the station said nobody buys (text or error, any wording).
    const noBuyers = new Map<string, number>();
    for (const call of proxy.calls.filter((c) => c.op === 'sell' && /no buyers/.test(c.sentence))) {
      const key = `${call.dockedAt ?? '?'} ${String(call.args.id ?? call.args.item_id)}`;
      noBuyers.set(key, (noBuyers.get(key) ?? 0) + 1);
    }
    expect([...noBuyers.values()].filter((count) => count > 1)).toEqual([]);
  },
);
