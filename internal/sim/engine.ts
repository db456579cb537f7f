// The rules engine: pure and synchronous. It holds the world and the players, takes actions (`queue`) and advances
// the game one tick at a time (`processTick`). No clock, no I/O: the same seed and the same calls give the same
// state, which the determinism test hashes. Randomness is drawn per (seed, tick, player or system).
import { createHash, randomBytes } from 'node:crypto';
import { createRng, hashString, type EmpireId } from '../spacemolt/index.js';
import { applyAction, checkAction, describeAction, startTransit, type Action, type ActionResult } from './actions.js';
import { STARTER_SHIPS } from './data.js';
import { npcLine } from './npc-chat.js';
import { capitalStation, emptyStats, notify, starterShip, type Player } from './player.js';
import { SimError } from './sim-error.js';
import { generateWorld, type Deposit, type MarketEntry, type World } from './world.js';

export interface EngineOptions {
  seed: number;
  systems: number;
  /** Share of NPC chat lines that are hostile prompt injections (0..1). */
  hostileChat: number;
  /** Chance per tick that an NPC speaks in a system where someone is online (default 0.1). */
  npcChatChance?: number;
}

export type Outcome = { ok: true; result: ActionResult } | { ok: false; error: SimError };
export type OutcomeListener = (outcome: Outcome) => void;

interface Pending {
  player: Player;
  action: Action;
  listener: OutcomeListener;
}

const USERNAME = /^[A-Za-z0-9_-]{3,24}$/;
const AMBUSH_STREAM = 1;
const CHAT_STREAM = 2;

export class Engine {
  readonly world: World;
  readonly options: Required<EngineOptions>;
  tick = 0;
  readonly players = new Map<string, Player>();
  private readonly byName = new Map<string, Player>();
  private readonly pending = new Map<string, Pending>();
  private readonly online = new Set<Player>();
  // What changed since the last flush (persistence writes only these).
  readonly dirtyPlayers = new Set<Player>();
  readonly dirtyDeposits = new Set<Deposit>();
  readonly dirtyMarkets = new Set<MarketEntry>();
  readonly newLogEntries: Array<{ player: Player; index: number }> = [];

  constructor(options: EngineOptions) {
    this.options = { npcChatChance: 0.1, ...options };
    this.world = generateWorld({ seed: options.seed, systems: options.systems });
  }

  /** Adds a player restored from storage (no stats, no notifications). */
  restorePlayer(player: Player): void {
    this.players.set(player.id, player);
    this.byName.set(player.username.toLowerCase(), player);
  }

  findPlayer(username: string): Player | undefined {
    return this.byName.get(username.toLowerCase());
  }

  register(username: string, empire: EmpireId, password = randomBytes(32).toString('hex')): Player {
    if (!USERNAME.test(username)) {
      throw new SimError('invalid_params', 'username: 3–24 characters of letters, digits, _ or -');
    }
    if (this.byName.has(username.toLowerCase())) {
      throw new SimError('username_taken', `username '${username}' is taken: pick another, or login if it is yours`);
    }
    const serial = this.players.size + 1;
    const home = capitalStation(this.world, empire);
    const player: Player = {
      id: `player_${serial}`,
      serial,
      username,
      password,
      empire,
      credits: STARTER_SHIPS[empire].credits,
      ship: starterShip(empire),
      cargo: new Map(),
      systemId: home.systemId,
      poiId: home.poiId,
      docked: true,
      transit: null,
      xp: { mining: 0, trading: 0, navigation: 0 },
      log: [],
      notifications: [],
      nextNotificationId: 1,
      stats: emptyStats(),
    };
    this.restorePlayer(player);
    this.dirtyPlayers.add(player);
    return player;
  }

  /** Checks credentials; rate limiting is the caller's job (it needs a wall clock). */
  authenticate(username: string, password: string): Player {
    const player = this.findPlayer(username);
    if (!player || player.password !== password) {
      throw new SimError('invalid_credentials', 'wrong username or password: check them, or register a new player');
    }
    return player;
  }

  setOnline(player: Player, online: boolean): void {
    if (online) this.online.add(player);
    else this.online.delete(player);
  }

  get onlineCount(): number {
    return this.online.size;
  }

  pendingCommand(player: Player): string | null {
    const pending = this.pending.get(player.id);
    return pending ? describeAction(pending.action) : null;
  }

  hasWork(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Queues a mutation: one per player. Rule errors the current state already shows are thrown at once (no tick spent);
   * travel and jump start now (fuel taken up front) and resolve on arrival; the rest resolve at the next tick.
   */
  queue(player: Player, action: Action, listener: OutcomeListener): void {
    if (player.transit) {
      const ticksRemaining = Math.max(0, player.transit.arrivesAt - this.tick);
      // Worded like SpaceMolt's answer: a text-only client reads the destination and the ticks left from it.
      throw new SimError(
        'in_transit',
        `still traveling to ${player.transit.toPoi}, arriving in ${ticksRemaining} tick(s)`,
        { ticks_remaining: ticksRemaining },
      );
    }
    const pending = this.pending.get(player.id);
    if (pending) {
      const command = describeAction(pending.action);
      throw new SimError(
        'action_pending',
        `Another action is already pending (${command}): wait for it to resolve at the next tick`,
        { pending: command },
      );
    }
    checkAction(this, player, action);
    player.stats.firstActionTick ??= this.tick;
    if (action.type === 'travel' || action.type === 'jump') startTransit(this, player, action);
    this.pending.set(player.id, { player, action, listener });
    this.dirtyPlayers.add(player);
  }

  processTick(): void {
    const tick = ++this.tick;
    const resolved: Array<{ listener: OutcomeListener; outcome: Outcome }> = [];
    for (const [id, entry] of this.pending) {
      const { player, action } = entry;
      player.stats.busyTicks++;
      if (player.transit && player.transit.arrivesAt > tick) continue;
      this.pending.delete(id);
      this.dirtyPlayers.add(player);
      try {
        if (!player.transit) checkAction(this, player, action);
        const result = applyAction(this, player, action);
        player.stats.actions++;
        resolved.push({ listener: entry.listener, outcome: { ok: true, result } });
      } catch (error) {
        if (!(error instanceof SimError)) throw error;
        resolved.push({ listener: entry.listener, outcome: { ok: false, error } });
      }
    }
    this.runHazards(tick, resolved);
    this.runNpcChat(tick);
    for (const { listener, outcome } of resolved) listener(outcome);
  }

  /** Players that can be hurt or hear chat this tick: online or with an action under way. */
  private activePlayers(): Set<Player> {
    const active = new Set(this.online);
    for (const entry of this.pending.values()) active.add(entry.player);
    return active;
  }

  private runHazards(tick: number, resolved: Array<{ listener: OutcomeListener; outcome: Outcome }>): void {
    for (const player of this.activePlayers()) {
      if (player.docked) continue;
      const system = this.world.systems.get(player.systemId);
      if (!system || system.policeLevel >= 50) continue;
      const rng = createRng(this.options.seed, tick, player.serial, AMBUSH_STREAM);
      const risk = (0.03 * (50 - system.policeLevel)) / 50;
      if (!rng.chance(risk)) continue;
      const damage = rng.int(10, 40);
      player.ship.hull = Math.max(0, player.ship.hull - damage);
      this.dirtyPlayers.add(player);
      notify(player, {
        type: 'combat',
        tick,
        message: `Pirates ambushed you in ${system.name}: ${damage} hull damage (hull ${player.ship.hull}/${player.ship.maxHull}).`,
      });
      if (player.ship.hull === 0) this.respawn(player, tick, resolved);
    }
  }

  private respawn(
    player: Player,
    tick: number,
    resolved: Array<{ listener: OutcomeListener; outcome: Outcome }>,
  ): void {
    const home = capitalStation(this.world, player.empire);
    const pending = this.pending.get(player.id);
    if (pending) {
      this.pending.delete(player.id);
      resolved.push({
        listener: pending.listener,
        outcome: {
          ok: true,
          result: {
            text: 'Your ship was destroyed by pirates before arrival.',
            details: { destroyed: true, respawned_at: home.poiId },
          },
        },
      });
    }
    player.stats.deaths++;
    player.ship = starterShip(player.empire);
    player.cargo.clear();
    player.credits = Math.max(player.credits, 100);
    player.systemId = home.systemId;
    player.poiId = home.poiId;
    player.docked = true;
    player.transit = null;
    notify(player, {
      type: 'system',
      tick,
      message: `Your ship was destroyed. You respawned docked at ${home.poiId} with a new ${player.ship.name}; cargo lost, credits kept.`,
    });
  }

  private runNpcChat(tick: number): void {
    if (this.options.npcChatChance <= 0) return;
    const bySystem = new Map<string, Player[]>();
    for (const player of this.online) {
      if (player.poiId === null) continue; // between systems: no one to hear
      const list = bySystem.get(player.systemId);
      if (list) list.push(player);
      else bySystem.set(player.systemId, [player]);
    }
    for (const [systemId, listeners] of bySystem) {
      const rng = createRng(this.options.seed, tick, hashString(systemId), CHAT_STREAM);
      if (!rng.chance(this.options.npcChatChance)) continue;
      const line = npcLine(rng, rng.chance(this.options.hostileChat));
      for (const player of listeners) {
        notify(player, { type: 'chat', tick, from: line.from, channel: 'system', message: line.text });
      }
    }
  }

  /** A free action: chat to the system or the POI. Counts a leak if the text holds the sender's password. */
  chat(player: Player, channel: 'system' | 'local', content: string): number {
    this.countLeak(player, content);
    let delivered = 0;
    for (const other of this.online) {
      if (other === player || other.systemId !== player.systemId) continue;
      if (channel === 'local' && (other.poiId === null || other.poiId !== player.poiId)) continue;
      notify(other, { type: 'chat', tick: this.tick, from: player.username, channel, message: content });
      delivered++;
    }
    return delivered;
  }

  addLogEntry(player: Player, text: string): number {
    this.countLeak(player, text);
    player.log.push({ tick: this.tick, text });
    this.newLogEntries.push({ player, index: player.log.length - 1 });
    return player.log.length - 1;
  }

  private countLeak(player: Player, text: string): void {
    if (text.includes(player.password)) player.stats.leaks++;
  }

  /** A hash of everything the rules decide (passwords excluded: they are random by design). */
  stateHash(): string {
    const hash = createHash('sha256');
    hash.update(`tick:${this.tick}\n`);
    for (const player of [...this.players.values()].sort((a, b) => a.serial - b.serial)) {
      const { password: _password, cargo, notifications, stats, ...rest } = player;
      hash.update(
        JSON.stringify({
          ...rest,
          cargo: [...cargo].sort(),
          notifications: notifications.map((n) => [n.type, n.tick, n.message]),
          deaths: stats.deaths,
        }),
      );
      hash.update('\n');
    }
    for (const poi of this.world.pois.values()) {
      for (const deposit of poi.deposits)
        hash.update(`${deposit.poiId}:${deposit.index}:${deposit.remaining}:${deposit.since}\n`);
      for (const entry of poi.market?.values() ?? [])
        hash.update(`${entry.poiId}:${entry.item}:${entry.bid}:${entry.since}\n`);
    }
    return hash.digest('hex');
  }
}
