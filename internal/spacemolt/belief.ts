// What a captain believes of its own ship, fact by fact, with where each fact came from: the game's own answer
// (`told`), a refusal that stated the situation (`refusal`: "You are already at X", "mid-travel to X", "not
// docked"), or the captain's reckoning from an action the game accepted without saying what it changed (`reckoned`:
// the real server answers a dock with `Docked at X.` alone). A fact no answer carried is absent — unknown, never
// false or 0 — and the game's word always wins over the reckoning. An action whose outcome is not known (a cancelled
// turn, a timeout, a reconnect mid-call) leaves the facts it may have changed unknown, so the captain reads its state
// before it acts again. One place, one reading: the POI is kept with the system it is in, and a belief never pairs a
// POI with a system it is not in.
//
// Used by the built-in autopilot (its dashboard) and by the session (the status line and the stored snapshots), so
// both read the same transcript the same way.
import { OP_KINDS, type GameOp, type OpArgs } from './faces.js';
import type { EmpireId, ItemId, MmCargoItem, MmLocation, MmShip, PoiType } from './minimolt.js';
import { detailsOf, type GameObservation, type StatusPlayer } from './observation.js';

export type FactOrigin = 'told' | 'reckoned' | 'refusal';

export interface Fact<T> {
  readonly value: T;
  readonly origin: FactOrigin;
  /** The op whose answer said it, or whose accepted action it was reckoned from. */
  readonly op: string;
  /** When it was learned, on the clock the belief is given (a captain's clock, or the game's tick). */
  readonly at: number;
}

export interface SystemPlace {
  id: string;
  name?: string;
}

/** A POI, with the system it is in: a POI fact is only ever read together with that system. */
export interface PoiPlace {
  id: string;
  systemId: string;
  name?: string;
  type?: PoiType;
}

export interface TransitFact {
  kind?: 'travel' | 'jump';
  destination?: { system_id: string; poi_id: string | null };
  ticksRemaining?: number;
}

type ShipField = keyof MmShip;

/** Every fact the belief may hold; absent = unknown. */
export interface ShipFacts {
  username?: Fact<string>;
  empire?: Fact<EmpireId>;
  credits?: Fact<number>;
  ship: { [K in ShipField]?: Fact<MmShip[K]> };
  cargo?: Fact<MmCargoItem[]>;
  system?: Fact<SystemPlace>;
  /** null: at no POI (between systems). */
  poi?: Fact<PoiPlace | null>;
  docked?: Fact<boolean>;
  /** null: not under way. */
  transit?: Fact<TransitFact | null>;
  police?: Fact<number>;
}

/** One result the belief learns from. */
export interface BeliefInput {
  op: GameOp | undefined;
  /** The call's arguments in Skipper's names (travel and jump targets), when known. */
  args?: OpArgs;
  observation: GameObservation;
  isError: boolean;
  /** The refusal's code (the game layer's), for a failed result. */
  code?: string | undefined;
  at: number;
}

/** Codes that say a call's outcome is not known: it may have gone through, or not. */
const UNKNOWN_OUTCOME: ReadonlySet<string> = new Set([
  'cancelled',
  'timeout',
  'disconnected',
  'bad_response',
  'game_error',
]);

/** A hull no answer stated: taken as whole (a starter ship's). */
const ASSUMED_HULL = 100;

const SHIP_FIELDS: readonly ShipField[] = [
  'name',
  'hull',
  'max_hull',
  'fuel',
  'max_fuel',
  'cargo_used',
  'cargo_capacity',
  'speed',
];

export class ShipBelief {
  private facts: ShipFacts = { ship: {} };
  /** What actions put in (or took from) a hold whose contents are not known. */
  private readonly guessed = new Map<ItemId, number>();
  /** Bumped on every change: readers cache what they derive from the belief by it. */
  version = 0;
  /**
   * Some fact is the captain's own reckoning, or an action's outcome is not known: a status should confirm the
   * picture before the next action.
   */
  unconfirmed = false;

  /** A copy of the facts, for readers that show where each came from. */
  get all(): Readonly<ShipFacts> {
    return this.facts;
  }

  learn(input: BeliefInput): void {
    const { op, observation, isError, code, at } = input;
    if (isError) {
      if (code && UNKNOWN_OUTCOME.has(code) && op && OP_KINDS[op] === 'mutation') this.interrupted(op);
      else this.refused(input);
      return;
    }
    const said = this.tell(observation, { op: op ?? 'answer', at });
    if (op === 'get_poi') this.placedByPoi(observation, at);
    const stated = observation.player !== undefined && observation.ship !== undefined;
    if (op && OP_KINDS[op] === 'mutation' && !stated) this.reckon(input);
    else if (stated && said) this.unconfirmed = false;
  }

  /** An action whose outcome is not known (a cancelled turn, a timeout, a reconnect mid-call): what it may have
   * changed is no longer known. */
  interrupted(op: GameOp | undefined): void {
    this.unconfirmed = true;
    this.version += 1;
    if (op === 'travel' || op === 'dock' || op === 'undock') {
      delete this.facts.poi;
      delete this.facts.docked;
      delete this.facts.transit;
    } else if (op === 'jump' || op === undefined) {
      this.forgetPlace();
    }
    if (op === undefined || op === 'mine' || op === 'sell' || op === 'buy') delete this.facts.cargo;
  }

  /** Ticks went by with nobody looking (a turn after a pause, a resumed session): a status should confirm. */
  markUnconfirmed(): void {
    if (!this.unconfirmed) this.version += 1;
    this.unconfirmed = true;
  }

  /** Everything forgotten (a new login as someone else, a register). */
  reset(): void {
    this.facts = { ship: {} };
    this.guessed.clear();
    this.unconfirmed = false;
    this.version += 1;
  }

  /** The player as last known; undefined until the credits are known. */
  player(): StatusPlayer | undefined {
    const { username, empire, credits } = this.facts;
    if (!credits) return undefined;
    return {
      username: username?.value ?? '',
      empire: empire?.value ?? ('' as EmpireId),
      credits: credits.value,
    };
  }

  /**
   * The ship as a working picture, once its fuel and hold are known (the numbers every decision needs). What no answer
   * said of the rest is assumed, never read as 0: a speed of 1, a tank as large as the fuel seen, a hull as sound as
   * its maximum (damage nobody reports cannot be seen). `assumed` lists which.
   */
  ship(): MmShip | undefined {
    const ship = this.facts.ship;
    const { fuel, cargo_capacity: capacity } = ship;
    // The load a status did not state is what its hold list adds up to, when that list was told.
    const listed = this.facts.cargo?.value.reduce((sum, item) => sum + item.quantity, 0);
    const used = ship.cargo_used ?? (listed !== undefined ? { value: listed } : undefined);
    if (!fuel || !used || !capacity) return undefined;
    const hull = ship.hull?.value ?? ship.max_hull?.value ?? ASSUMED_HULL;
    return {
      name: ship.name?.value ?? '',
      hull,
      max_hull: ship.max_hull?.value ?? Math.max(hull, ASSUMED_HULL),
      fuel: fuel.value,
      max_fuel: ship.max_fuel?.value ?? fuel.value,
      cargo_used: used.value,
      cargo_capacity: capacity.value,
      speed: ship.speed?.value ?? 1,
    };
  }

  /** The ship's numbers no answer said (ship() assumes them). */
  assumed(): ShipField[] {
    return SHIP_FIELDS.filter((field) => this.facts.ship[field] === undefined);
  }

  /**
   * The hold as best known: told (or told and moved by the actions since), else what the actions since it was last
   * known put in it — a lower bound, so a captain whose status leaves the hold out can still sell what it mined.
   */
  hold(): { items: MmCargoItem[]; known: boolean } {
    const cargo = this.cargo();
    if (cargo) return { items: cargo, known: true };
    return { items: [...this.guessed].map(([item_id, quantity]) => ({ item_id, quantity })), known: false };
  }

  /** The hold: told, or the last told one moved by the actions since; undefined when not known. */
  cargo(): MmCargoItem[] | undefined {
    if (this.facts.cargo) return this.facts.cargo.value;
    // "Cargo: 0/70" with no table is an empty hold: said, not guessed.
    return this.facts.ship.cargo_used?.value === 0 ? [] : undefined;
  }

  /** Where the ship is. The POI only with the system it is in; undefined when the system is not known (unless under
   * way, where the text names neither). `police` and names come from the caller's knowledge of the places. */
  location(known: {
    systemName?: (id: string) => string | undefined;
    poi?: (id: string) => { name?: string; type?: PoiType } | undefined;
    police?: (id: string) => number | undefined;
    unknownPolice: number;
  }): MmLocation | undefined {
    const { system, docked, transit, police } = this.facts;
    if (transit?.value) {
      const out: MmLocation = {
        system_id: system?.value.id ?? '',
        system_name: system?.value.name ?? system?.value.id ?? '',
        poi_id: null,
        poi_name: null,
        poi_type: null,
        docked: false,
        police_level: police?.value ?? known.unknownPolice,
        in_transit: true,
      };
      if (transit.value.destination) out.destination = transit.value.destination;
      if (transit.value.ticksRemaining !== undefined) out.ticks_remaining = transit.value.ticksRemaining;
      return out;
    }
    if (!system || !docked) return undefined;
    const here = this.poiHere();
    const info = here ? known.poi?.(here.id) : undefined;
    return {
      system_id: system.value.id,
      system_name: system.value.name ?? known.systemName?.(system.value.id) ?? system.value.id,
      poi_id: here?.id ?? null,
      poi_name: here?.name ?? info?.name ?? null,
      poi_type: here?.type ?? info?.type ?? (docked.value ? 'station' : null),
      docked: docked.value,
      police_level: police?.value ?? known.police?.(system.value.id) ?? known.unknownPolice,
      in_transit: false,
    };
  }

  /** The POI the ship is at, when known and in the system the ship is in. */
  poiHere(): PoiPlace | undefined {
    const poi = this.facts.poi?.value;
    const system = this.facts.system?.value.id;
    return poi && system !== undefined && poi.systemId === system ? poi : undefined;
  }

  /** What the words of a refusal state about the ship: the game's word, over whatever the captain believed. */
  private refused(input: BeliefInput): void {
    const { op, observation, code, at } = input;
    const location = observation.location;
    const source = { op: op ?? 'refusal', at, origin: 'refusal' as const };
    if (location?.poi_id && location.in_transit === false) {
      const system = this.facts.system?.value.id;
      this.set('transit', null, source);
      if (system !== undefined) this.set('poi', { id: location.poi_id, systemId: system }, source);
    }
    if (location?.in_transit === true || code === 'in_transit') {
      const transit: TransitFact = {};
      if (location?.destination) transit.destination = location.destination;
      this.set('transit', transit, source);
      this.set('docked', false, source);
      delete this.facts.poi;
    }
    const docked = location?.docked ?? (code === 'not_docked' ? false : code === 'already_docked' ? true : undefined);
    if (docked !== undefined) this.set('docked', docked, source);
    // An action refused for a reason that means the picture is off (not where we thought, not docked…).
    if (location || code === 'not_docked' || code === 'docked' || code === 'invalid_poi' || code === 'in_transit')
      this.unconfirmed = true;
  }

  /** What an answer states, all told. Returns whether it stated anything about the ship. */
  private tell(observation: GameObservation, where: { op: string; at: number }): boolean {
    const source = { ...where, origin: 'told' as const };
    let said = false;
    const { player, ship, cargo, location } = observation;
    if (player?.username) this.set('username', player.username, source);
    if (player?.empire) this.set('empire', player.empire, source);
    if (player?.credits !== undefined) {
      this.set('credits', player.credits, source);
      said = true;
    }
    for (const field of SHIP_FIELDS) {
      const value = ship?.[field];
      if (value === undefined) continue;
      this.facts.ship = { ...this.facts.ship, [field]: { value, ...source } };
      this.version += 1;
      said = true;
    }
    if (cargo) {
      this.set('cargo', cargo, source);
      this.guessed.clear();
    } else if (ship?.cargo_used !== undefined) this.checkHold(ship.cargo_used);
    if (location) said = this.tellPlace(location, source) || said;
    return said;
  }

  private tellPlace(
    location: NonNullable<GameObservation['location']>,
    source: { op: string; at: number; origin: FactOrigin },
  ): boolean {
    if (location.in_transit === true) {
      const transit: TransitFact = {};
      if (location.destination) transit.destination = location.destination;
      if (location.ticks_remaining !== undefined) transit.ticksRemaining = location.ticks_remaining;
      this.set('transit', transit, source);
      this.set('docked', false, source);
      if (location.system_name && !this.facts.system)
        this.set('system', { id: '', name: location.system_name }, source);
      delete this.facts.poi;
      return true;
    }
    if (location.in_transit === false) this.set('transit', null, source);
    const systemId = location.system_id;
    if (systemId) {
      const before = this.facts.system?.value.id;
      const name = location.system_name ?? (before === systemId ? this.facts.system?.value.name : undefined);
      this.set('system', name ? { id: systemId, name } : { id: systemId }, source);
      // Another system: the POI believed is not here any more (unless this very answer names the new one).
      if (before !== undefined && before !== systemId && location.poi_id === undefined) delete this.facts.poi;
      if (location.police_level !== undefined) this.set('police', location.police_level, source);
      else if (before !== systemId) delete this.facts.police;
    }
    const system = this.facts.system?.value.id;
    if (location.poi_id === null) this.set('poi', null, source);
    else if (location.poi_id !== undefined && system !== undefined) {
      const poi: PoiPlace = { id: location.poi_id, systemId: system };
      if (location.poi_name) poi.name = location.poi_name;
      if (location.poi_type) poi.type = location.poi_type;
      this.set('poi', poi, source);
    }
    if (location.docked !== undefined) this.set('docked', location.docked, source);
    return systemId !== undefined || location.docked !== undefined;
  }

  /** get_poi describes the POI the ship is at (undocked, the real status never names it). */
  private placedByPoi(observation: GameObservation, at: number): void {
    const poi = detailsOf('get_poi', observation.details)?.poi;
    const system = this.facts.system?.value.id;
    // Docked, the status names the station (`Docked at:`): that is where the ship is.
    if (!poi?.id || this.facts.transit?.value || system === undefined || this.facts.docked?.value === true) return;
    if (poi.system_id !== undefined && poi.system_id !== system) return;
    const place: PoiPlace = { id: poi.id, systemId: system };
    if (poi.name) place.name = poi.name;
    if (poi.type) place.type = poi.type;
    this.set('poi', place, { op: 'get_poi', at, origin: 'told' });
  }

  /** An accepted action whose answer did not state the ship: its effect as the action implies it. */
  private reckon(input: BeliefInput): void {
    const { op, args, observation, at } = input;
    const source = { op: op ?? 'action', at, origin: 'reckoned' as const };
    const details = observation.details;
    const target = typeof args?.target === 'string' ? args.target : undefined;
    let complete = false;
    switch (op) {
      case 'dock':
        this.set('docked', true, source);
        complete = true;
        break;
      case 'undock':
        this.set('docked', false, source);
        complete = true;
        break;
      case 'travel': {
        const travel = detailsOf('travel', details);
        const arrived = travel?.arrived_at ?? target;
        const system = this.facts.system?.value.id;
        this.set('transit', null, source);
        this.set('docked', false, source);
        if (arrived && system !== undefined) this.set('poi', { id: arrived, systemId: system }, source);
        else delete this.facts.poi;
        if (travel?.fuel_used !== undefined) this.moveShip('fuel', -travel.fuel_used, source);
        complete = travel?.arrived_at !== undefined && travel.fuel_used !== undefined;
        break;
      }
      case 'jump': {
        const jump = detailsOf('jump', details);
        const arrived = jump?.arrived_system ?? target;
        this.set('transit', null, source);
        this.set('docked', false, source);
        if (arrived) {
          this.set('system', { id: arrived }, source);
          delete this.facts.police;
          if (jump?.arrived_poi) this.set('poi', { id: jump.arrived_poi, systemId: arrived }, source);
          else delete this.facts.poi;
        } else this.forgetPlace();
        if (jump?.fuel_used !== undefined) this.moveShip('fuel', -jump.fuel_used, source);
        break;
      }
      case 'mine': {
        const mined = detailsOf('mine', details);
        if (mined) this.moveCargo(mined.resource_id, mined.quantity, source);
        complete = mined !== undefined;
        break;
      }
      case 'sell': {
        const sold = detailsOf('sell', details);
        if (sold) this.moveCargo(sold.item_id, -sold.quantity_sold, source);
        if (sold?.total_earned !== undefined && this.facts.credits)
          this.set('credits', this.facts.credits.value + sold.total_earned, source);
        complete = sold?.total_earned !== undefined;
        break;
      }
      case 'buy': {
        const bought = detailsOf('buy', details);
        if (bought) this.moveCargo(bought.item_id, bought.quantity_bought, source);
        if (bought?.total_cost !== undefined && this.facts.credits)
          this.set('credits', this.facts.credits.value - bought.total_cost, source);
        complete = bought?.total_cost !== undefined;
        break;
      }
      default:
        break;
    }
    if (!complete) this.unconfirmed = true;
  }

  /** A told load the believed hold does not add up to: the list is no longer known (what it held stays a guess). */
  private checkHold(used: number): void {
    const cargo = this.facts.cargo?.value;
    if (!cargo || cargo.reduce((sum, item) => sum + item.quantity, 0) === used) return;
    this.guessed.clear();
    if (used > 0) for (const item of cargo) this.guessed.set(item.item_id, item.quantity);
    delete this.facts.cargo;
    this.version += 1;
  }

  private moveCargo(item: ItemId, delta: number, source: { op: string; at: number; origin: FactOrigin }): void {
    const used = this.facts.ship.cargo_used;
    if (used) this.moveShip('cargo_used', delta, source);
    const cargo = this.cargo();
    if (!cargo) {
      const next = (this.guessed.get(item) ?? 0) + delta;
      if (next > 0) this.guessed.set(item, next);
      else this.guessed.delete(item);
      this.version += 1;
      return;
    }
    const held = cargo.find((c) => c.item_id === item)?.quantity ?? 0;
    const rest = cargo.filter((c) => c.item_id !== item);
    const quantity = held + delta;
    this.set('cargo', quantity > 0 ? [...rest, { item_id: item, quantity }] : rest, source);
  }

  private moveShip(
    field: 'fuel' | 'cargo_used',
    delta: number,
    source: { op: string; at: number; origin: FactOrigin },
  ): void {
    const fact = this.facts.ship[field];
    if (!fact) return;
    this.facts.ship = { ...this.facts.ship, [field]: { value: Math.max(0, fact.value + delta), ...source } };
    this.version += 1;
  }

  private forgetPlace(): void {
    delete this.facts.system;
    delete this.facts.poi;
    delete this.facts.docked;
    delete this.facts.transit;
    delete this.facts.police;
  }

  private set<K extends Exclude<keyof ShipFacts, 'ship'>>(
    key: K,
    value: NonNullable<ShipFacts[K]>['value'],
    source: { op: string; at: number; origin: FactOrigin },
  ): void {
    (this.facts as unknown as Record<string, Fact<unknown>>)[key] = {
      value,
      op: source.op,
      at: source.at,
      origin: source.origin,
    };
    this.version += 1;
  }
}
