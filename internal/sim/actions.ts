// The mutations: what each checks (SIM-SPEC error codes) and what it does when it resolves at a tick boundary.
import {
  jumpFuel,
  jumpTicks,
  mineYield,
  poiDistance,
  travelFuel,
  travelTicks,
  type ItemId,
} from '../spacemolt/index.js';
import { BASE_PRICE, FUEL_PRICE, REPAIR_PRICE } from './data.js';
import { askCost, depositUnits, quoteBid, takeFromDeposit, walkBid } from './economy.js';
import type { Engine } from './engine.js';
import { cargoUsed, freeCargo, levelFor, notify, type Player, type Transit } from './player.js';
import { SimError } from './sim-error.js';
import { credits, formatNumber, itemName, named } from './text/format.js';
import type { Poi } from './world.js';

export type Action =
  | { type: 'undock' }
  | { type: 'dock' }
  | { type: 'travel'; targetPoi: string }
  | { type: 'jump'; targetSystem: string }
  | { type: 'mine'; resourceId?: ItemId }
  | { type: 'sell'; itemId: ItemId; quantity: number }
  | { type: 'buy'; itemId: ItemId; quantity: number }
  | { type: 'refuel'; quantity?: number }
  | { type: 'repair' };

export interface ActionResult {
  text: string;
  details: unknown;
}

export function describeAction(action: Action): string {
  switch (action.type) {
    case 'travel':
      return `travel(${action.targetPoi})`;
    case 'jump':
      return `jump(${action.targetSystem})`;
    case 'sell':
    case 'buy':
      return `${action.type}(${action.itemId}, ${action.quantity})`;
    default:
      return action.type;
  }
}

function currentPoi(engine: Engine, player: Player): Poi {
  const poi = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  if (!poi) throw new SimError('in_transit', 'between systems: wait for arrival', { ticks_remaining: 0 });
  return poi;
}

function requireDockedAtStation(engine: Engine, player: Player, verb: string): Poi {
  const poi = currentPoi(engine, player);
  if (!player.docked || !poi.hasBase) {
    throw new SimError('not_docked', `you must be docked at a station to ${verb}: travel to a station and dock`);
  }
  return poi;
}

type ActionOf<T extends Action['type']> = Extract<Action, { type: T }>;

/** Throws the SimError the current state calls for, or returns when the action may go ahead. */
export function checkAction(engine: Engine, player: Player, action: Action): void {
  switch (action.type) {
    case 'undock':
      return checkUndock(player);
    case 'dock':
      return checkDock(engine, player);
    case 'travel':
      return checkTravel(engine, player, action);
    case 'jump':
      return checkJump(engine, player, action);
    case 'mine':
      return checkMine(engine, player, action);
    case 'sell':
      return checkSell(engine, player, action);
    case 'buy':
      return checkBuy(engine, player, action);
    case 'refuel':
      return checkRefuel(engine, player, action);
    case 'repair':
      return checkRepair(engine, player);
  }
}

function checkUndock(player: Player): void {
  if (!player.docked) throw new SimError('not_docked', 'you are not docked');
}

function checkDock(engine: Engine, player: Player): void {
  const poi = currentPoi(engine, player);
  if (player.docked) throw new SimError('already_docked', `you are already docked at ${poi.name}`);
  if (!poi.hasBase)
    throw new SimError('no_base', `${poi.name} has no base to dock at: travel to a station (see get_system)`);
}

function checkTravel(engine: Engine, player: Player, action: ActionOf<'travel'>): void {
  const from = currentPoi(engine, player);
  const target = engine.world.pois.get(action.targetPoi);
  if (!target) throw new SimError('invalid_poi', `no POI '${action.targetPoi}': see get_system for this system's POIs`);
  if (target.systemId !== player.systemId) {
    throw new SimError(
      'wrong_system',
      `${target.id} is in ${target.systemId}, not here (${player.systemId}): jump there first (find_route)`,
    );
  }
  if (target.id === from.id) throw new SimError('invalid_poi', `you are already at ${target.id}`);
  const fuel = travelFuel(poiDistance(from, target));
  if (player.ship.fuel < fuel)
    throw new SimError(
      'no_fuel',
      `travel to ${target.id} needs ${fuel} fuel, you have ${player.ship.fuel}: refuel at a station`,
    );
}

function checkJump(engine: Engine, player: Player, action: ActionOf<'jump'>): void {
  const system = engine.world.systems.get(player.systemId);
  if (!system?.lanes.has(action.targetSystem)) {
    throw new SimError('not_connected', `no lane from ${player.systemId} to '${action.targetSystem}': use find_route`);
  }
  const fuel = jumpFuel(cargoUsed(player));
  if (player.ship.fuel < fuel)
    throw new SimError('no_fuel', `the jump needs ${fuel} fuel, you have ${player.ship.fuel}: refuel at a station`);
}

function checkMine(engine: Engine, player: Player, action: ActionOf<'mine'>): void {
  const poi = currentPoi(engine, player);
  if (player.docked) throw new SimError('docked', 'you cannot mine while docked: undock first');
  const deposit = pickDeposit(poi, engine.tick, action.resourceId);
  if (!deposit) {
    // The real words (mcp-probe mutation): `Error: no_resources: Nothing to mine here`; the advice after is ours.
    const what = action.resourceId ? `No ${action.resourceId} left here` : 'Nothing to mine here';
    throw new SimError('no_resources', `${what}: travel to an asteroid belt, ice field or gas cloud`);
  }
  if (freeCargo(player) <= 0)
    throw new SimError('no_cargo_space', 'your cargo hold is full: dock at a station and sell');
}

function checkSell(engine: Engine, player: Player, action: ActionOf<'sell'>): void {
  requireDockedAtStation(engine, player, 'sell');
  const have = player.cargo.get(action.itemId) ?? 0;
  if (have < action.quantity)
    throw new SimError('insufficient_cargo', `you have ${have} ${action.itemId}, not ${action.quantity}`);
}

function checkBuy(engine: Engine, player: Player, action: ActionOf<'buy'>): void {
  const poi = requireDockedAtStation(engine, player, 'buy');
  if (freeCargo(player) < action.quantity)
    throw new SimError('no_cargo_space', `only ${freeCargo(player)} free cargo space`);
  const entry = poi.market?.get(action.itemId);
  const cost = entry ? askCost(entry, engine.tick, action.quantity).total : Infinity;
  if (cost > player.credits)
    throw new SimError(
      'no_credits',
      `${action.quantity} ${action.itemId} cost ${cost} credits, you have ${player.credits}`,
    );
}

function checkRefuel(engine: Engine, player: Player, action: ActionOf<'refuel'>): void {
  requireDockedAtStation(engine, player, 'refuel');
  const missing = player.ship.maxFuel - player.ship.fuel;
  const quantity = Math.min(action.quantity ?? missing, missing);
  const affordable = Math.floor(player.credits / FUEL_PRICE);
  // Asked for an amount: all of it must be affordable; asked to fill up: at least one unit must be.
  if (quantity > 0 && (action.quantity !== undefined ? quantity > affordable : affordable === 0)) {
    throw new SimError(
      'no_credits',
      `${quantity} fuel costs ${quantity * FUEL_PRICE} credits, you have ${player.credits}`,
    );
  }
}

function checkRepair(engine: Engine, player: Player): void {
  requireDockedAtStation(engine, player, 'repair');
  const missing = player.ship.maxHull - player.ship.hull;
  if (missing > 0 && player.credits < REPAIR_PRICE)
    throw new SimError('no_credits', `repair costs ${REPAIR_PRICE} credits per hull point, you have ${player.credits}`);
}

function pickDeposit(poi: Poi, tick: number, resourceId: ItemId | undefined): Poi['deposits'][number] | undefined {
  const candidates = poi.deposits.filter(
    (d) => (resourceId === undefined || d.resource === resourceId) && depositUnits(d, tick) >= 1,
  );
  // Without a choice, mine the most valuable deposit that has something left.
  return candidates.sort((a, b) => BASE_PRICE[b.resource] - BASE_PRICE[a.resource])[0];
}

/** travel and jump start when queued: fuel is taken up front and the ship leaves (auto-undocking). */
export function startTransit(engine: Engine, player: Player, action: ActionOf<'travel' | 'jump'>): void {
  const autoUndocked = player.docked;
  player.docked = false;
  const leg = action.type === 'travel' ? startTravel(engine, player, action) : startJump(engine, player, action);
  player.transit = { ...leg, autoUndocked };
}

/** A leg of a transit as it starts: everything but whether the ship had to undock first. */
type Leg = Omit<Transit, 'autoUndocked'>;

function startTravel(engine: Engine, player: Player, action: ActionOf<'travel'>): Leg {
  const from = currentPoi(engine, player);
  const target = engine.world.pois.get(action.targetPoi) as Poi;
  const distance = poiDistance(from, target);
  player.ship.fuel -= travelFuel(distance);
  const ticks = travelTicks(distance, player.ship.speed);
  return {
    kind: 'travel',
    toSystem: target.systemId,
    toPoi: target.id,
    startedAt: engine.tick,
    arrivesAt: engine.tick + ticks,
    fuelUsed: travelFuel(distance),
  };
}

function startJump(engine: Engine, player: Player, action: ActionOf<'jump'>): Leg {
  const target = engine.world.systems.get(action.targetSystem);
  const gate = target?.pois.find((p) => p.type === 'gate') ?? target?.pois[0];
  if (!target || !gate) throw new SimError('not_connected', `no system '${action.targetSystem}'`);
  const fuel = jumpFuel(cargoUsed(player));
  player.ship.fuel -= fuel;
  player.poiId = null;
  const ticks = jumpTicks(player.ship.speed);
  return {
    kind: 'jump',
    toSystem: target.id,
    toPoi: gate.id,
    startedAt: engine.tick,
    arrivesAt: engine.tick + ticks,
    fuelUsed: fuel,
  };
}

/** `Sol Station (sol_station)`. */
function placeName(engine: Engine, poiId: string | null): string {
  const poi = poiId === null ? undefined : engine.world.pois.get(poiId);
  return poi ? named(poi.name, poi.id) : 'deep space';
}

/** `12 Iron Ore for 96cr.`, the real server's sell line (market-capture: `Sold 6 Gold Ore for 12cr.`). */
function tradeLine(item: ItemId, quantity: number, total: number): string {
  return `${formatNumber(quantity)} ${itemName(item)} for ${credits(total)}.`;
}

function gainXp(player: Player, skill: 'mining' | 'trading' | 'navigation', xp: number): void {
  player.xp[skill] += xp;
}

/** What an action does when it resolves at a tick boundary (checkAction said it may go ahead). */
export function applyAction(engine: Engine, player: Player, action: Action): ActionResult {
  switch (action.type) {
    case 'undock':
      return applyUndock(engine, player);
    case 'dock':
      return applyDock(engine, player);
    case 'travel':
    case 'jump':
      return arrive(engine, player);
    case 'mine':
      return applyMine(engine, player, action);
    case 'sell':
      return applySell(engine, player, action);
    case 'buy':
      return applyBuy(engine, player, action);
    case 'refuel':
      return applyRefuel(player, action);
    case 'repair':
      return applyRepair(player);
  }
}

function applyUndock(engine: Engine, player: Player): ActionResult {
  player.docked = false;
  // Ours: no capture shows the real undock answer.
  return { text: `Undocked from ${placeName(engine, player.poiId)}.`, details: { undocked: true } };
}

function applyDock(engine: Engine, player: Player): ActionResult {
  player.docked = true;
  // The real answer (market-capture): `Docked at Market Prime Exchange.`, the station's name alone.
  const station = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  return { text: `Docked at ${station?.name ?? 'deep space'}.`, details: { docked: true } };
}

/** travel and jump resolve on arrival: the ship is where its transit was heading. */
function arrive(engine: Engine, player: Player): ActionResult {
  const transit = player.transit;
  if (!transit) throw new Error('arrival without transit');
  player.transit = null;
  player.systemId = transit.toSystem;
  player.poiId = transit.toPoi;
  const ticks = transit.arrivesAt - transit.startedAt;
  const tail = `after ${ticks} tick(s). Fuel used: ${transit.fuelUsed}.${transit.autoUndocked ? ' Undocked first.' : ''}`;
  if (transit.kind === 'travel') {
    gainXp(player, 'navigation', 2);
    // Ours, like the jump sentence below: no capture shows an arrival; the game layer reads them, keep them stable.
    return {
      text: `Arrived at ${placeName(engine, transit.toPoi)} ${tail}`,
      details: {
        arrived_at: transit.toPoi,
        fuel_used: transit.fuelUsed,
        ticks,
        auto_undocked: transit.autoUndocked,
      },
    };
  }
  gainXp(player, 'navigation', 10);
  const system = engine.world.systems.get(transit.toSystem);
  return {
    text: `Jumped to ${named(system?.name ?? transit.toSystem, transit.toSystem)}, arrived at ${placeName(engine, transit.toPoi)} ${tail}`,
    details: {
      arrived_system: transit.toSystem,
      arrived_poi: transit.toPoi,
      fuel_used: transit.fuelUsed,
      ticks,
      auto_undocked: transit.autoUndocked,
    },
  };
}

function applyMine(engine: Engine, player: Player, action: ActionOf<'mine'>): ActionResult {
  const tick = engine.tick;
  const poi = currentPoi(engine, player);
  const deposit = pickDeposit(poi, tick, action.resourceId);
  if (!deposit) throw new SimError('no_resources', 'nothing left to mine');
  const quantity = mineYield({
    free: freeCargo(player),
    remaining: depositUnits(deposit, tick),
    richness: deposit.richness,
    miningLevel: levelFor(player.xp.mining),
  });
  takeFromDeposit(deposit, tick, quantity);
  engine.dirtyDeposits.add(deposit);
  player.cargo.set(deposit.resource, (player.cargo.get(deposit.resource) ?? 0) + quantity);
  gainXp(player, 'mining', quantity);
  // Ours (no capture of a successful mine); the game layer reads this sentence, keep it stable.
  return {
    text: `Mined ${quantity} ${named(itemName(deposit.resource), deposit.resource)}. Deposit remaining: ${formatNumber(depositUnits(deposit, tick))}. +${quantity} mining xp.`,
    details: {
      resource_id: deposit.resource,
      quantity,
      deposit_remaining: depositUnits(deposit, tick),
      xp_gained: quantity,
    },
  };
}

function applySell(engine: Engine, player: Player, action: ActionOf<'sell'>): ActionResult {
  const tick = engine.tick;
  const poi = currentPoi(engine, player);
  const entry = poi.market?.get(action.itemId);
  if (!entry) throw new SimError('no_base', `${poi.name} has no market`);
  if (!entry.buys) {
    // Real (market-capture): a success that sells nothing; the cargo stays in the hold.
    return {
      text: `Sold 0 ${itemName(action.itemId)} for 0cr. ${formatNumber(action.quantity)} unsold (no buyers).`,
      details: { item_id: action.itemId, quantity_sold: 0, total_earned: 0, average_price: 0 },
    };
  }
  const total = walkBid(entry, tick, action.quantity);
  engine.dirtyMarkets.add(entry);
  if (entry.bid < entry.equilibrium * 0.9) {
    notify(player, {
      type: 'market',
      tick,
      message: `Your sales pushed the ${action.itemId} bid at ${poi.name} down to ${quoteBid(entry, tick)} (usually ${Math.round(entry.equilibrium)}); it recovers 2% of the gap per tick, or sell elsewhere.`,
    });
  }
  const left = (player.cargo.get(action.itemId) ?? 0) - action.quantity;
  if (left > 0) player.cargo.set(action.itemId, left);
  else player.cargo.delete(action.itemId);
  player.credits += total;
  const xp = Math.max(1, Math.floor(total / 10));
  gainXp(player, 'trading', xp);
  const average = Math.round((total / action.quantity) * 100) / 100;
  return {
    text: `Sold ${tradeLine(action.itemId, action.quantity, total)} +${formatNumber(xp)} trading XP (level ${levelFor(player.xp.trading)}).`,
    details: {
      item_id: action.itemId,
      quantity_sold: action.quantity,
      total_earned: total,
      average_price: average,
    },
  };
}

function applyBuy(engine: Engine, player: Player, action: ActionOf<'buy'>): ActionResult {
  const tick = engine.tick;
  const poi = currentPoi(engine, player);
  const entry = poi.market?.get(action.itemId);
  if (!entry) throw new SimError('no_base', `${poi.name} has no market`);
  const { total, finalBid } = askCost(entry, tick, action.quantity);
  entry.bid = finalBid;
  entry.since = tick;
  engine.dirtyMarkets.add(entry);
  player.credits -= total;
  player.cargo.set(action.itemId, (player.cargo.get(action.itemId) ?? 0) + action.quantity);
  gainXp(player, 'trading', Math.max(1, Math.floor(total / 20)));
  const average = Math.round((total / action.quantity) * 100) / 100;
  // Ours, written like the real sell line: no capture shows a successful buy.
  return {
    text: `Bought ${tradeLine(action.itemId, action.quantity, total)}`,
    details: {
      item_id: action.itemId,
      quantity_bought: action.quantity,
      total_cost: total,
      average_price: average,
    },
  };
}

function applyRefuel(player: Player, action: ActionOf<'refuel'>): ActionResult {
  const missing = player.ship.maxFuel - player.ship.fuel;
  const quantity = Math.min(action.quantity ?? missing, missing, Math.floor(player.credits / FUEL_PRICE));
  player.ship.fuel += quantity;
  player.credits -= quantity * FUEL_PRICE;
  // Real (market-capture): `Refueled 88 fuel for 352cr.`
  return {
    text: `Refueled ${formatNumber(quantity)} fuel for ${credits(quantity * FUEL_PRICE)}.`,
    details: { fuel_added: quantity, cost: quantity * FUEL_PRICE },
  };
}

function applyRepair(player: Player): ActionResult {
  const missing = player.ship.maxHull - player.ship.hull;
  const points = Math.min(missing, Math.floor(player.credits / REPAIR_PRICE));
  player.ship.hull += points;
  player.credits -= points * REPAIR_PRICE;
  // Ours: no capture shows a repair.
  return {
    text: `Repaired ${points} hull for ${credits(points * REPAIR_PRICE)}. Hull: ${player.ship.hull}/${player.ship.maxHull}.`,
    details: { hull_repaired: points, cost: points * REPAIR_PRICE },
  };
}
