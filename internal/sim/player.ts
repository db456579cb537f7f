// A player's state: account, ship, cargo, position, skills, notifications, counters. Plain data so it can be hashed
// and persisted; the engine owns every change.
import type { EmpireId, ItemId, MmNotification } from '../spacemolt/index.js';
import { BASE_PRICE, STARTER_SHIPS, capitalOf } from './data.js';
import type { World } from './world.js';

export type SkillName = 'mining' | 'trading' | 'navigation';
export const SKILL_NAMES: readonly SkillName[] = ['mining', 'trading', 'navigation'];

export interface Ship {
  name: string;
  hull: number;
  maxHull: number;
  fuel: number;
  maxFuel: number;
  cargoCapacity: number;
  speed: number;
}

export interface Transit {
  kind: 'travel' | 'jump';
  toSystem: string;
  toPoi: string;
  /** The tick at which the player arrives. */
  arrivesAt: number;
  startedAt: number;
  autoUndocked: boolean;
  fuelUsed: number;
}

export interface LogEntry {
  tick: number;
  text: string;
}

export interface Player {
  id: string;
  /** Creation order, a stable key for the per-player random stream. */
  serial: number;
  username: string;
  password: string;
  empire: EmpireId;
  credits: number;
  ship: Ship;
  cargo: Map<ItemId, number>;
  systemId: string;
  /** null while jumping. */
  poiId: string | null;
  docked: boolean;
  transit: Transit | null;
  xp: Record<SkillName, number>;
  log: LogEntry[];
  // Not persisted: notifications and their ids. (The /stats counters are, in persistence.ts's player_stats.)
  notifications: MmNotification[];
  nextNotificationId: number;
  stats: PlayerStats;
}

export interface PlayerStats {
  firstActionTick: number | null;
  busyTicks: number;
  actions: number;
  errors: Record<string, number>;
  deaths: number;
  leaks: number;
}

export const MAX_NOTIFICATIONS = 100;

export function emptyStats(): PlayerStats {
  return { firstActionTick: null, busyTicks: 0, actions: 0, errors: {}, deaths: 0, leaks: 0 };
}

export function starterShip(empire: EmpireId): Ship {
  const s = STARTER_SHIPS[empire];
  return {
    name: s.name,
    hull: s.hull,
    maxHull: s.hull,
    fuel: s.fuel,
    maxFuel: s.fuel,
    cargoCapacity: s.cargo,
    speed: s.speed,
  };
}

export function capitalStation(world: World, empire: EmpireId): { systemId: string; poiId: string } {
  const system = world.systems.get(capitalOf(empire).systemId);
  const station = system?.pois.find((p) => p.hasBase);
  if (!system || !station) throw new Error(`capital of ${empire} has no station`);
  return { systemId: system.id, poiId: station.id };
}

export function cargoUsed(player: Player): number {
  let used = 0;
  for (const quantity of player.cargo.values()) used += quantity;
  return used;
}

export function freeCargo(player: Player): number {
  return player.ship.cargoCapacity - cargoUsed(player);
}

export function netWorth(player: Player): number {
  let worth = player.credits;
  for (const [item, quantity] of player.cargo) worth += quantity * BASE_PRICE[item];
  return worth;
}

/** Level n needs 100·n² xp. */
export function levelFor(xp: number): number {
  return Math.floor(Math.sqrt(xp / 100) + 1e-9);
}

export function nextLevelXp(xp: number): number {
  const level = levelFor(xp);
  return 100 * (level + 1) * (level + 1);
}

export function notify(player: Player, notification: Omit<MmNotification, 'id'>): void {
  player.notifications.push({ id: player.nextNotificationId++, ...notification });
  if (player.notifications.length > MAX_NOTIFICATIONS)
    player.notifications.splice(0, player.notifications.length - MAX_NOTIFICATIONS);
}
