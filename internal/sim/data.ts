// minimolt's fixed tables: items and base prices, empires, capitals and starter ships (SIM-SPEC "World", "Players").
import { MINIMOLT_BASE_PRICES, type EmpireId, type ItemId } from '../spacemolt/index.js';

export const ITEM_IDS: readonly ItemId[] = [
  'iron_ore',
  'copper_ore',
  'nickel_ore',
  'titanium_ore',
  'platinum_ore',
  'water_ice',
  'helium_gas',
];

export const BASE_PRICE: Readonly<Record<ItemId, number>> = MINIMOLT_BASE_PRICES;

export const ORE_IDS: readonly ItemId[] = ['iron_ore', 'copper_ore', 'nickel_ore', 'titanium_ore', 'platinum_ore'];

export const FUEL_PRICE = 2;
export const REPAIR_PRICE = 3;

export const EMPIRE_IDS: readonly EmpireId[] = ['solarian', 'voidborn', 'crimson', 'nebula', 'outerrim'];

export interface Capital {
  empire: EmpireId;
  systemId: string;
  name: string;
}

export const CAPITALS: readonly Capital[] = [
  { empire: 'solarian', systemId: 'sol', name: 'Sol' },
  { empire: 'voidborn', systemId: 'nexus_prime', name: 'Nexus Prime' },
  { empire: 'crimson', systemId: 'krynn', name: 'Krynn' },
  { empire: 'nebula', systemId: 'haven', name: 'Haven' },
  { empire: 'outerrim', systemId: 'frontier', name: 'Frontier' },
];

export interface StarterShip {
  name: string;
  credits: number;
  hull: number;
  speed: number;
  fuel: number;
  cargo: number;
}

export const STARTER_SHIPS: Readonly<Record<EmpireId, StarterShip>> = {
  solarian: { name: 'Theoria', credits: 150, hull: 100, speed: 1, fuel: 100, cargo: 70 },
  voidborn: { name: 'Threshold', credits: 100, hull: 75, speed: 1, fuel: 95, cargo: 65 },
  crimson: { name: 'Shard', credits: 100, hull: 110, speed: 1, fuel: 90, cargo: 60 },
  nebula: { name: 'Prospect', credits: 250, hull: 95, speed: 1, fuel: 130, cargo: 100 },
  outerrim: { name: 'Cobble', credits: 100, hull: 80, speed: 2, fuel: 120, cargo: 75 },
};

export function capitalOf(empire: EmpireId): Capital {
  const capital = CAPITALS.find((c) => c.empire === empire);
  if (!capital) throw new Error(`no capital for empire ${empire}`);
  return capital;
}
