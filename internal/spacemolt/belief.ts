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
  'uncertain',
  'timeout',
  'disconnected',
  'bad_response',
  'game_error',
]);

type Source = { op: string; at: number; origin: FactOrigin };

/** What an accepted action's reckoning reads: its answer's details, its target, where the reckoning comes from. */
interface Reckoned {
  details: unknown;
  target: string | undefined;
  source: Source;
}

/** How a caller names the places the belief keeps by id, and the police it assumes where nothing said one. */
export interface PlaceNames {
  systemName?: (id: string) => string | undefined;
  poi?: (id: string) => { name?: string; type?: PoiType } | undefined;
  police?: (id: string) => number | undefined;
  unknownPolice: number;
}

/** Refusals whose code alone says whether the ship is docked. */
const DOCKED_BY_CODE: Readonly<Record<string, boolean>> = { not_docked: false, already_docked: true, docked: true };
/** Refusals that mean the picture was off: a status should confirm before the next action. */
const PICTURE_OFF: ReadonlySet<string> = new Set(['not_docked', 'docked', 'invalid_poi', 'in_transit']);

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
  location(known: PlaceNames): MmLocation | undefined {
    const { system, docked, transit } = this.facts;
    if (transit?.value) return this.underWay(transit.value, known);
    if (!system || !docked) return undefined;
    const id = system.value.id;
    return {
      system_id: id,
      system_name: system.value.name ?? known.systemName?.(id) ?? id,
      ...this.poiNamed(known, docked.value),
      docked: docked.value,
      police_level: this.facts.police?.value ?? known.police?.(id) ?? known.unknownPolice,
      in_transit: false,
    };
  }

  /** The POI here with its name and kind, from the belief or the caller's knowledge; a station when docked. */
  private poiNamed(known: PlaceNames, docked: boolean): Pick<MmLocation, 'poi_id' | 'poi_name' | 'poi_type'> {
    const here = this.poiHere();
    if (!here) return { poi_id: null, poi_name: null, poi_type: docked ? 'station' : null };
    const info = known.poi?.(here.id);
    return {
      poi_id: here.id,
      poi_name: here.name ?? info?.name ?? null,
      poi_type: here.type ?? info?.type ?? (docked ? 'station' : null),
    };
  }

  /** Under way: the system left (if known), no POI, where to and how long, as the game said. */
  private underWay(transit: TransitFact, known: PlaceNames): MmLocation {
    const system = this.facts.system?.value;
    const out: MmLocation = {
      system_id: system?.id ?? '',
      system_name: system?.name ?? system?.id ?? '',
      poi_id: null,
      poi_name: null,
      poi_type: null,
      docked: false,
      police_level: this.facts.police?.value ?? known.unknownPolice,
      in_transit: true,
    };
    if (transit.destination) out.destination = transit.destination;
    if (transit.ticksRemaining !== undefined) out.ticks_remaining = transit.ticksRemaining;
    return out;
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
    const source: Source = { op: op ?? 'refusal', at, origin: 'refusal' };
    if (location?.poi_id && location.in_transit === false) this.refusedAt(location.poi_id, source);
    if (location?.in_transit === true || code === 'in_transit') this.refusedUnderWay(location?.destination, source);
    const docked = location?.docked ?? DOCKED_BY_CODE[code ?? ''];
    if (docked !== undefined) this.set('docked', docked, source);
    // A refusal that says where the ship is, or one that means the picture is off (not docked, not where we thought).
    if (location || (code !== undefined && PICTURE_OFF.has(code))) this.unconfirmed = true;
  }

  /** "You are already at X": at X, in the system believed, not under way. */
  private refusedAt(poiId: string, source: Source): void {
    const system = this.facts.system?.value.id;
    this.set('transit', null, source);
    if (system !== undefined) this.set('poi', { id: poiId, systemId: system }, source);
  }

  /** "mid-travel to X": under way, undocked, at no POI. */
  private refusedUnderWay(destination: TransitFact['destination'], source: Source): void {
    this.set('transit', destination ? { destination } : {}, source);
    this.set('docked', false, source);
    delete this.facts.poi;
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

  private tellPlace(location: NonNullable<GameObservation['location']>, source: Source): boolean {
    if (location.in_transit === true) {
      this.tellUnderWay(location, source);
      return true;
    }
    if (location.in_transit === false) this.set('transit', null, source);
    if (location.system_id) this.tellSystem(location, location.system_id, source);
    const system = this.facts.system?.value.id;
    if (location.poi_id === null) this.set('poi', null, source);
    else if (location.poi_id !== undefined && system !== undefined) {
      const poi: PoiPlace = { id: location.poi_id, systemId: system };
      if (location.poi_name) poi.name = location.poi_name;
      if (location.poi_type) poi.type = location.poi_type;
      this.set('poi', poi, source);
    }
    if (location.docked !== undefined) this.set('docked', location.docked, source);
    return location.system_id !== undefined || location.docked !== undefined;
  }

  private tellUnderWay(location: NonNullable<GameObservation['location']>, source: Source): void {
    const transit: TransitFact = {};
    if (location.destination) transit.destination = location.destination;
    if (location.ticks_remaining !== undefined) transit.ticksRemaining = location.ticks_remaining;
    this.set('transit', transit, source);
    this.set('docked', false, source);
    if (location.system_name && !this.facts.system) this.set('system', { id: '', name: location.system_name }, source);
    delete this.facts.poi;
  }

  /** The system the answer names; another system than believed takes the POI and police believed with it. */
  private tellSystem(location: NonNullable<GameObservation['location']>, systemId: string, source: Source): void {
    const before = this.facts.system?.value;
    const name = location.system_name ?? (before?.id === systemId ? before.name : undefined);
    this.set('system', name ? { id: systemId, name } : { id: systemId }, source);
    const moved = before !== undefined && before.id !== systemId;
    // Unless this very answer names the new POI.
    if (moved && location.poi_id === undefined) delete this.facts.poi;
    if (location.police_level !== undefined) this.set('police', location.police_level, source);
    else if (moved || before === undefined) delete this.facts.police;
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
    const source: Source = { op: op ?? 'action', at, origin: 'reckoned' };
    const target = typeof args?.target === 'string' ? args.target : undefined;
    const action = { details: observation.details, target, source };
    let complete: boolean;
    if (op === 'dock' || op === 'undock') {
      this.set('docked', op === 'dock', source);
      complete = true;
    } else if (op === 'travel') complete = this.reckonTravel(action);
    else if (op === 'jump') complete = this.reckonJump(action);
    else if (op === 'mine' || op === 'sell' || op === 'buy') complete = this.reckonTrade(op, action);
    else complete = false;
    if (!complete) this.unconfirmed = true;
  }

  /** A travel: at the POI it arrived at, undocked, the fuel it says it used. Complete when it said both. */
  private reckonTravel(action: Reckoned): boolean {
    const travel = detailsOf('travel', action.details);
    const arrived = travel?.arrived_at ?? action.target;
    const system = this.facts.system?.value.id;
    this.set('transit', null, action.source);
    this.set('docked', false, action.source);
    if (arrived && system !== undefined) this.set('poi', { id: arrived, systemId: system }, action.source);
    else delete this.facts.poi;
    if (travel?.fuel_used !== undefined) this.moveShip('fuel', -travel.fuel_used, action.source);
    return travel?.arrived_at !== undefined && travel.fuel_used !== undefined;
  }

  /** A jump: in the system it reached (its police not known yet), at its arrival POI if said. Never complete: a
   * status confirms the fuel and the place. */
  private reckonJump(action: Reckoned): boolean {
    const jump = detailsOf('jump', action.details);
    const arrived = jump?.arrived_system ?? action.target;
    this.set('transit', null, action.source);
    this.set('docked', false, action.source);
    if (!arrived) this.forgetPlace();
    else {
      this.set('system', { id: arrived }, action.source);
      delete this.facts.police;
      if (jump?.arrived_poi) this.set('poi', { id: jump.arrived_poi, systemId: arrived }, action.source);
      else delete this.facts.poi;
    }
    if (jump?.fuel_used !== undefined) this.moveShip('fuel', -jump.fuel_used, action.source);
    return false;
  }

  /** A mine, sale or purchase: the hold moved, the credits moved by what it says it earned or cost. */
  private reckonTrade(op: 'mine' | 'sell' | 'buy', action: Reckoned): boolean {
    const { details, source } = action;
    if (op === 'mine') {
      const mined = detailsOf('mine', details);
      if (mined) this.moveCargo(mined.resource_id, mined.quantity, source);
      return mined !== undefined;
    }
    const trade =
      op === 'sell'
        ? ((sold) => sold && { item: sold.item_id, units: -sold.quantity_sold, credits: sold.total_earned })(
            detailsOf('sell', details),
          )
        : ((bought) =>
            bought && {
              item: bought.item_id,
              units: bought.quantity_bought,
              credits: bought.total_cost === undefined ? undefined : -bought.total_cost,
            })(detailsOf('buy', details));
    if (!trade) return false;
    this.moveCargo(trade.item, trade.units, source);
    if (trade.credits !== undefined && this.facts.credits)
      this.set('credits', this.facts.credits.value + trade.credits, source);
    return trade.credits !== undefined;
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

  private moveCargo(item: ItemId, delta: number, source: Source): void {
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

  private moveShip(field: 'fuel' | 'cargo_used', delta: number, source: Source): void {
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
    source: Source,
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
