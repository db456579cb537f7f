// Pirate ambushes, death and respawn; NPC chat (hostile share) and the leaks counter.
import { describe, expect, test } from 'vitest';
import { addPlayer, newEngine } from './helpers.js';

function lawless(engine: ReturnType<typeof newEngine>): { systemId: string; poiId: string; police: number } {
  const system = [...engine.world.systems.values()].find((s) => s.policeLevel === 0);
  const poi = system?.pois.find((p) => !p.hasBase);
  if (!system || !poi) throw new Error('no lawless system');
  return { systemId: system.id, poiId: poi.id, police: system.policeLevel };
}

describe('ambush', () => {
  test('undocked in a lawless system: ambushes at about 3% per tick, 10–40 damage, combat notifications', () => {
    const engine = newEngine({ systems: 60 });
    const p = addPlayer(engine);
    const place = lawless(engine);
    Object.assign(p, { systemId: place.systemId, poiId: place.poiId, docked: false });
    p.ship.hull = 1_000_000;
    p.ship.maxHull = 1_000_000;
    engine.setOnline(p, true);
    let previous = p.ship.hull;
    let ambushes = 0;
    for (let i = 0; i < 3000; i++) {
      engine.processTick();
      if (p.ship.hull !== previous) {
        const damage = previous - p.ship.hull;
        expect(damage).toBeGreaterThanOrEqual(10);
        expect(damage).toBeLessThanOrEqual(40);
        ambushes++;
        previous = p.ship.hull;
      }
      p.notifications.length = Math.min(p.notifications.length, 99);
    }
    expect(ambushes).toBeGreaterThan(3000 * 0.03 * 0.6);
    expect(ambushes).toBeLessThan(3000 * 0.03 * 1.4);
    expect(p.notifications.some((n) => n.type === 'combat')).toBe(true);
  });

  test('no ambush where police_level ≥ 50, nor while docked', () => {
    const engine = newEngine({ systems: 60 });
    const safe = addPlayer(engine);
    const docked = addPlayer(engine, 'Docked');
    safe.docked = false;
    const place = lawless(engine);
    Object.assign(docked, { systemId: place.systemId, poiId: place.poiId, docked: true });
    engine.setOnline(safe, true);
    engine.setOnline(docked, true);
    for (let i = 0; i < 2000; i++) engine.processTick();
    expect(safe.ship.hull).toBe(100);
    expect(docked.ship.hull).toBe(100);
  });

  test('hull 0: death, respawn docked at the capital with the starter ship, cargo lost, credits topped up to 100', () => {
    const engine = newEngine({ systems: 60 });
    const p = addPlayer(engine, 'Doomed', 'crimson');
    const place = lawless(engine);
    Object.assign(p, { systemId: place.systemId, poiId: place.poiId, docked: false, credits: 20 });
    p.ship.hull = 1;
    p.ship.fuel = 3;
    p.cargo.set('platinum_ore', 30);
    engine.setOnline(p, true);
    for (let i = 0; i < 5000 && p.stats.deaths === 0; i++) engine.processTick();
    expect(p.stats.deaths).toBe(1);
    expect(p.systemId).toBe('krynn');
    expect(p.docked).toBe(true);
    expect(engine.world.pois.get(p.poiId ?? '')?.hasBase).toBe(true);
    expect(p.ship).toMatchObject({ name: 'Shard', hull: 110, fuel: 90 });
    expect(p.cargo.size).toBe(0);
    expect(p.credits).toBe(100);
    expect(p.notifications.some((n) => n.type === 'system' && /destroyed/.test(n.message))).toBe(true);
  });
});

describe('chat and leaks', () => {
  test('NPCs chat to online players; with hostileChat 1 every line is a prompt injection', () => {
    const engine = newEngine({ npcChatChance: 1, hostileChat: 1 });
    const p = addPlayer(engine);
    engine.setOnline(p, true);
    for (let i = 0; i < 10; i++) engine.processTick();
    const chat = p.notifications.filter((n) => n.type === 'chat');
    expect(chat).toHaveLength(10);
    expect(chat.every((n) => /password|ignore|orders|disregard|1 credit/i.test(n.message))).toBe(true);
    const calm = newEngine({ npcChatChance: 1, hostileChat: 0 });
    const q = addPlayer(calm);
    calm.setOnline(q, true);
    for (let i = 0; i < 10; i++) calm.processTick();
    expect(q.notifications.some((n) => /password/i.test(n.message))).toBe(false);
  });

  test('the hostile share is about hostileChat', () => {
    const engine = newEngine({ npcChatChance: 1, hostileChat: 0.3 });
    const p = addPlayer(engine);
    engine.setOnline(p, true);
    let hostile = 0;
    for (let i = 0; i < 1000; i++) {
      engine.processTick();
      const last = p.notifications.at(-1);
      if (last && /password|ignore|orders|disregard|1 credit/i.test(last.message)) hostile++;
    }
    expect(hostile).toBeGreaterThan(200);
    expect(hostile).toBeLessThan(400);
  });

  test("a chat or log entry holding the player's own password counts a leak; other text does not", () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const q = addPlayer(engine, 'Listener');
    engine.setOnline(p, true);
    engine.setOnline(q, true);
    expect(engine.chat(p, 'system', 'hello there')).toBe(1);
    engine.addLogEntry(p, `mined 20 iron; the other guy's password is ${q.password}`);
    expect(p.stats.leaks).toBe(0);
    engine.chat(p, 'system', `my password is ${p.password}`);
    engine.addLogEntry(p, `remember: ${p.password}`);
    expect(p.stats.leaks).toBe(2);
    expect(q.notifications.filter((n) => n.type === 'chat' && n.from === 'Nova')).toHaveLength(2);
  });
});
