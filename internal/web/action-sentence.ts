// A captain's last action in words, for its card: "mined 7 Platinum Ore at Vexuth Major Ice Field", "jumped to Sol
// Central". Built from the game layer's observation of the action's answer (what happened, not what was asked), with
// the names the game gave its ids; an id it never named is written out as words (`platinum_ore` -> "Platinum Ore"),
// so a card never shows a raw id. Pure: the bridge keeps the last action's observation and words it again when a
// name is learnt later.
import { detailsOf, OP_KINDS, type GameObservation, type GameOp } from '../spacemolt/index.js';

export interface ActionContext {
  /** The name the game gave an id, when it said one. */
  nameOf: (id: string) => string | undefined;
  /** Where the ship was when it acted (the POI id), when known. */
  poiId: string | null;
}

/** `vexuth_major_ice_field` -> "Vexuth Major Ice Field": what a card shows for an id the game never named. */
export function idAsWords(id: string): string {
  return id
    .split(/[_-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** The game's name for an id, else the id as words. */
export function nameFor(id: string, nameOf: ActionContext['nameOf']): string {
  return nameOf(id) ?? idAsWords(id);
}

/** Every snake_case id in a text (an error message quoting one) replaced by its name. */
export function namesInText(text: string, nameOf: ActionContext['nameOf']): string {
  return text.replace(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b/g, (id) => nameFor(id, nameOf));
}

/** Whether this observation is of an action worth a card's "last action" (a mutation, or a free action). */
export function isAction(observation: GameObservation): boolean {
  return observation.op !== undefined && OP_KINDS[observation.op] !== 'query';
}

/** The verb for "could not …". */
const VERBS: Partial<Record<GameOp, string>> = {
  captains_log_add: 'write in the log',
  login: 'log in',
  login_token: 'log in',
  logout: 'log out',
};

/** Actions whose answer says nothing more than that they were done; `true`: said with the place. */
const DONE: Partial<Record<GameOp, [string, boolean]>> = {
  dock: ['docked', true],
  undock: ['undocked', true],
  refuel: ['refuelled', true],
  repair: ['repaired', true],
  chat: ['spoke on chat', false],
  captains_log_add: ["wrote in the captain's log", false],
  register: ['registered', false],
  login: ['logged in', false],
  login_token: ['logged in', false],
  logout: ['logged out', false],
};

const count = (value: number | undefined): string => (value === undefined ? 'some' : value.toLocaleString('en-US'));

/** The action an observation records, as a sentence; null when it is no action (a query, or no op at all). */
export function actionSentence(observation: GameObservation, context: ActionContext): string | null {
  const op = observation.op;
  if (!op || !isAction(observation)) return null;
  const name = (id: string): string => nameFor(id, context.nameOf);
  const poiId = observation.location?.poi_id ?? context.poiId;
  const at = poiId ? ` at ${name(poiId)}` : '';
  if (observation.error) {
    const why = namesInText(observation.error.message || observation.error.code, context.nameOf);
    return `could not ${VERBS[op] ?? idAsWords(op).toLowerCase()}${at}: ${why}`;
  }
  const done = DONE[op];
  if (done) return done[1] ? `${done[0]}${at}` : done[0];
  return tradeSentence(op, observation.details, { name, at }) ?? idAsWords(op).toLowerCase();
}

/** Mining, trading and moving: what their answers' details say. */
function tradeSentence(
  op: GameOp,
  details: unknown,
  words: { name: (id: string) => string; at: string },
): string | null {
  const { name, at } = words;
  switch (op) {
    case 'mine': {
      const mined = detailsOf('mine', details);
      return mined ? `mined ${count(mined.quantity)} ${name(mined.resource_id)}${at}` : `mined${at}`;
    }
    case 'sell': {
      const sold = detailsOf('sell', details);
      if (!sold) return `sold cargo${at}`;
      const earned = sold.total_earned === undefined ? '' : ` for ${count(sold.total_earned)} cr`;
      const unsold = sold.unsold ? ` (${count(sold.unsold)} unsold)` : '';
      return `sold ${count(sold.quantity_sold)} ${name(sold.item_id)}${earned}${at}${unsold}`;
    }
    case 'buy': {
      const bought = detailsOf('buy', details);
      if (!bought) return `bought cargo${at}`;
      const cost = bought.total_cost === undefined ? '' : ` for ${count(bought.total_cost)} cr`;
      return `bought ${count(bought.quantity_bought)} ${name(bought.item_id)}${cost}${at}`;
    }
    case 'travel': {
      const travel = detailsOf('travel', details);
      return travel ? `travelled to ${name(travel.arrived_at)}` : 'travelled';
    }
    case 'jump': {
      const jump = detailsOf('jump', details);
      return jump ? `jumped to ${name(jump.arrived_system)}` : 'jumped';
    }
    default:
      return null;
  }
}
