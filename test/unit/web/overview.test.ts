// The fleet overview's figures: per hour of played time (the stored turns' span), per 1,000 credits gained (null, not 0,
// when nothing was gained), queries per minute against the game's limit, refusals by the stored error codes, the
// fleet's IP health as the broker wrote it, and the verdict. Real SQLite file, read through the bridge as the page is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../internal/store/index.js';
import { Bridge } from '../../../internal/web/bridge.js';
import {
  fleetOverview,
  perHour,
  QUERY_LIMIT_PER_MIN,
  tokensPer1kCredits,
  verdictOf,
  type OverviewFigures,
} from '../../../internal/web/overview.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const HALF_HOUR = 1_800_000;
const ship = { fuel: 1, maxFuel: 1, cargoUsed: 0, cargoCapacity: 1, hull: 1, maxHull: 1 };
const place = { systemId: 'sol', poiId: null, docked: false };

/** A captain that played turns 1–2 over `playedMs`, from the turn-0 state to the turn-2 one. */
async function captain(
  store: Store,
  input: { name: string; from: [number, number]; to: [number, number]; playedMs: number; costUsd: number },
): Promise<string> {
  const session = await store.createSession({ name: input.name, game: 'embedded', model: 'openai/gpt-4o-mini' });
  const states = [input.from, input.from, input.to];
  for (const [turn, [credits, netWorth]] of states.entries())
    await store.recordSnapshot({ sessionId: session.id, turn, tick: turn * 10, credits, netWorth, ...ship, ...place });
  for (const turn of [1, 2])
    await store.recordTurn({
      sessionId: session.id,
      turn,
      outcome: 'answered',
      rounds: 1,
      toolCalls: 2,
      inputKind: 'autoplay',
      startedAt: ((turn - 1) * input.playedMs) / 2,
      endedAt: (turn * input.playedMs) / 2,
    });
  const usage = { promptTokens: 2000, completionTokens: 1000, cachedTokens: 0, costUsd: input.costUsd };
  await store.recordUsage({ sessionId: session.id, model: 'openai/gpt-4o-mini', usage });
  return session.id;
}

/** Four status queries in turn 1: two answered, one rate-limited (counted against the IP), one refused otherwise. */
async function calls(store: Store, sessionId: string): Promise<void> {
  const answers = ['Credits: 1,000', 'Error: rate_limited: slow down', 'Error: no_fuel: tank empty', 'Credits: 1,000'];
  for (const [index, answer] of answers.entries()) {
    const id = `status-${index}`;
    await store.appendMany(sessionId, [
      { role: 'assistant', content: '', toolCalls: [{ id, name: 'get_status', arguments: '{}' }], turn: 1 },
      {
        role: 'tool',
        content: answer,
        toolCallId: id,
        toolName: 'get_status',
        ...(answer.startsWith('Error') ? { isError: true } : {}),
        turn: 1,
      },
    ]);
  }
}

describe('fleet overview', () => {
  it('measures per hour of played time and per 1,000 credits gained, null when nothing was gained', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skipper-web-overview-'));
    dirs.push(dir);
    const store = await openStore({ path: join(dir, 'skipper.db') });
    const earner = await captain(store, {
      name: 'earner',
      from: [1000, 1000],
      to: [1300, 1600],
      playedMs: HALF_HOUR,
      costUsd: 0.3,
    });
    await calls(store, earner);
    await captain(store, { name: 'flat', from: [500, 500], to: [500, 500], playedMs: HALF_HOUR, costUsd: 0.1 });
    await store.createSession({ name: 'unread', game: 'embedded', model: 'builtin/autopilot' });
    await store.fleets.startFleet({ name: 'f', file: '/f.yaml', pid: process.pid, host: 'h' });
    await store.fleets.upsertCaptain('f', 'earner', { sessionName: 'earner', state: 'playing' });
    await store.fleets.setHealth('f', { ipHealth: 84, rejectionsInWindow: 8, rejections: 12 });
    const bridge = new Bridge(store);
    await bridge.poll();

    const overview = fleetOverview(bridge.cards(), await store.fleets.listFleets());
    const byName = new Map(overview.captains.map((row) => [row.name, row]));
    // 600 net worth and 300 credits in half an hour; $0.30 and 3,000 tokens for 600 net worth.
    expect(byName.get('earner')).toMatchObject({
      fleet: 'f',
      playedMs: HALF_HOUR,
      netWorthChange: 600,
      netWorthPerHour: 1200,
      creditsPerHour: 600,
      costUsd: 0.3,
      usdPerHour: 0.6,
      tokens: 3000,
      tokensPer1kCredits: 5000,
      queries: 4,
      queryLimitPerMin: QUERY_LIMIT_PER_MIN,
      refusals: 2,
      ipRefusals: 1,
      ipHealth: 84,
    });
    expect(byName.get('earner')!.usdPer1kCredits).toBeCloseTo(0.5, 10);
    expect(byName.get('earner')!.queriesPerMin).toBeCloseTo(4 / 30, 10);
    // Nothing gained: the ratios are unknown, not 0; the rate is a true 0 per hour.
    expect(byName.get('flat')).toMatchObject({
      netWorthChange: 0,
      netWorthPerHour: 0,
      tokensPer1kCredits: null,
      usdPer1kCredits: null,
      ipHealth: null,
    });
    // Never played: every figure unknown.
    expect(byName.get('unread')).toMatchObject({
      playedMs: null,
      netWorthChange: null,
      netWorthPerHour: null,
      usdPerHour: null,
      queriesPerMin: null,
    });
    expect(overview.fleet).toMatchObject({ captains: 3, netWorthChange: 600, netWorthPerHour: 1200, ipHealth: 84 });
    expect(overview.fleet.usdPerHour).toBeCloseTo(0.8, 10);
    expect(overview.fleets).toEqual([
      expect.objectContaining({ fleet: 'f', ipHealth: 84, rejectionsInWindow: 8, rejections: 12 }),
    ]);
    expect(overview.verdict).toEqual({
      word: 'earning',
      text: 'earning: +1,200 net worth/h for $0.80/h — $0.67 per 1,000 credits',
    });
    await store.close();
  });

  it('says losing when net worth falls, and that an autopilot fleet costs nothing', () => {
    const figures = (change: number, costUsd: number): OverviewFigures => ({
      playedMs: HALF_HOUR,
      creditsChange: change,
      netWorthChange: change,
      creditsPerHour: perHour(change, HALF_HOUR),
      netWorthPerHour: perHour(change, HALF_HOUR),
      costUsd,
      usdPerHour: perHour(costUsd, HALF_HOUR),
      tokens: 0,
      tokensPer1kCredits: tokensPer1kCredits(0, change),
      usdPer1kCredits: change > 0 ? (costUsd / change) * 1000 : null,
      queries: null,
      queriesPerMin: null,
      queryLimitPerMin: null,
      refusals: null,
      ipRefusals: null,
      ipHealth: null,
    });
    expect(verdictOf(figures(-250, 0.5))).toEqual({
      word: 'losing',
      text: 'losing: net worth falling (−500/h) for $1.00/h',
    });
    expect(verdictOf(figures(6150, 0)).text).toBe(
      'earning: +12,300 net worth/h for $0.00/h — costs nothing (no model spend)',
    );
    expect(verdictOf({ ...figures(0, 0), netWorthChange: null }).word).toBe('unknown');
    expect(perHour(100, 0)).toBeNull();
    expect(perHour(null, HALF_HOUR)).toBeNull();
    expect(tokensPer1kCredits(500, 0)).toBeNull();
    expect(tokensPer1kCredits(500, -10)).toBeNull();
  });
});
