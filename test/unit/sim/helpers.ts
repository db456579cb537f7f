// Test helpers for the rules engine: a fresh engine, players, and running one action to its resolution.
import type { EmpireId } from '../../../internal/spacemolt/index.js';
import { Engine, SimError, type Action, type Outcome, type Player, type Poi } from '../../../internal/sim/index.js';

export function newEngine(options: Partial<ConstructorParameters<typeof Engine>[0]> = {}): Engine {
  return new Engine({ seed: 42, systems: 30, hostileChat: 0, npcChatChance: 0, ...options });
}

export function addPlayer(engine: Engine, username = 'Nova', empire: EmpireId = 'solarian'): Player {
  return engine.register(username, empire);
}

/** Queues the action and ticks until it resolves; returns the outcome and the ticks it took. */
export function run(engine: Engine, player: Player, action: Action): Outcome & { ticks: number } {
  let outcome: Outcome | undefined;
  engine.queue(player, action, (o) => {
    outcome = o;
  });
  let ticks = 0;
  while (!outcome) {
    engine.processTick();
    ticks++;
    if (ticks > 100) throw new Error('action never resolved');
  }
  return { ...outcome, ticks };
}

/** Runs an action that must succeed; returns its details. */
export function ok<T = Record<string, unknown>>(engine: Engine, player: Player, action: Action): T {
  const outcome = run(engine, player, action);
  if (!outcome.ok) throw new Error(`${action.type} failed: ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.result.details as T;
}

/** The SimError code an action is refused with (at queue time or at resolution), or 'ok'. */
export function codeOf(engine: Engine, player: Player, action: Action): string {
  try {
    const outcome = run(engine, player, action);
    return outcome.ok ? 'ok' : outcome.error.code;
  } catch (error) {
    if (error instanceof SimError) return error.code;
    throw error;
  }
}

export function poisOf(engine: Engine, systemId: string): Poi[] {
  return engine.world.systems.get(systemId)?.pois ?? [];
}

export function miningPoi(engine: Engine, systemId = 'sol'): Poi {
  const poi = poisOf(engine, systemId).find((p) => p.deposits.length > 0);
  if (!poi) throw new Error(`no mining POI in ${systemId}`);
  return poi;
}

export function stationOf(engine: Engine, systemId = 'sol'): Poi {
  const poi = poisOf(engine, systemId).find((p) => p.hasBase);
  if (!poi) throw new Error(`no station in ${systemId}`);
  return poi;
}
