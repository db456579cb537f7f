// One result's text -> the GameObservation every reader downstream consumes: the op, the state block, the op's
// details and the error. Parsed once, here, at the boundary, into the shapes of the shared schemas (observation.ts),
// which readers of stored messages check the data against. Never throws: garbage gives what could be read.
import type { DetailedOp, GameObservation, GameOp, ObservedDetails } from '../../spacemolt/index.js';
import { hasDetails } from '../../spacemolt/index.js';
import {
  readBuy,
  readJump,
  readMine,
  readNotifications,
  readRegister,
  readSell,
  readTravel,
} from './details-actions.js';
import { readMap, readMarket, readPoi, readRoute, readSkills, readSystem, readTick } from './details-world.js';
import { readRefusal } from './errors.js';
import type { RefusalSituation } from './refusals.js';
import { parseJsonObject } from '../json/fields.js';
import { readJsonObservation } from '../json/observe.js';
import { readNumber, readTables } from './fields.js';
import { readCargo, readState } from './status.js';

const DETAILS: { readonly [Op in DetailedOp]: (text: string) => ObservedDetails<Op> | undefined } = {
  get_system: readSystem,
  get_poi: readPoi,
  get_map: readMap,
  find_route: readRoute,
  view_market: readMarket,
  get_skills: readSkills,
  get_notifications: readNotifications,
  mine: readMine,
  sell: readSell,
  buy: readBuy,
  travel: readTravel,
  jump: readJump,
  register: readRegister,
};

export function readObservation(op: GameOp | undefined, text: string, isError: boolean): GameObservation {
  const out: GameObservation = {};
  if (op) out.op = op;
  try {
    if (isError) {
      const { situation, ...error } = readRefusal(text);
      out.error = error;
      const place = situationLocation(situation);
      if (place) out.location = place;
      return out;
    }
    const json = parseJsonObject(text);
    if (json) return Object.assign(readJsonObservation(op, json), out);
    Object.assign(out, readState(text));
    if (op === 'get_cargo') Object.assign(out, readCargoAnswer(text, out));
    const details = op && hasDetails(op) ? DETAILS[op](text) : undefined;
    if (details !== undefined) out.details = details;
    const tick = readTick(text);
    if (tick !== undefined) out.tick = tick;
  } catch {
    // A reader bug must not cost the call its result: the text still reaches the model.
  }
  return out;
}

/** get_cargo's own shape: the hold table and a closing `Credits: 257,951cr` line (no status header). */
function readCargoAnswer(text: string, seen: GameObservation): Pick<GameObservation, 'cargo' | 'player'> {
  const out: Pick<GameObservation, 'cargo' | 'player'> = {};
  const cargo = seen.cargo ?? readCargo(readTables(text));
  if (cargo) out.cargo = cargo;
  const credits = readNumber(/^\s*Credits:\s*(-?[\d,]+)\s*cr\b/im.exec(text)?.[1]);
  if (!seen.player && credits !== undefined) out.player = { credits };
  return out;
}

/**
 * What a refusal says of the ship's place, as a partial location: "already at X" (at X, not in transit), "mid-travel
 * to X" (in transit), "not docked" / "while docked". The game's word: it corrects whatever the captain believed.
 */
function situationLocation(situation: RefusalSituation | undefined): GameObservation['location'] | undefined {
  if (!situation) return undefined;
  const out: NonNullable<GameObservation['location']> = {};
  if (situation.at) Object.assign(out, { poi_id: situation.at, in_transit: false });
  if (situation.transitKind) {
    Object.assign(out, { in_transit: true, docked: false, poi_id: null, poi_name: null, poi_type: null });
    if (situation.transitTo) out.destination = { system_id: '', poi_id: null };
  }
  if (situation.docked !== undefined) out.docked = situation.docked;
  return Object.keys(out).length > 0 ? out : undefined;
}
