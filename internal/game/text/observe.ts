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
import { readError } from './errors.js';
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
      const error = readError(text);
      out.error = error ?? { code: 'error', message: text.trim().slice(0, 500) };
      return out;
    }
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
