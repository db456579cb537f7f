// Lessons from failures that repeat: the same error code on the same kind of action, two or more times across a
// captain's episodes, becomes one "Avoid …/Prefer …" line with its evidence. Wordings for the codes minimolt and
// SpaceMolt send live in one table; anything else gets a generic wording.

/** Codes that say nothing about how to play: Skipper handles them (re-login, secret guard) or the user caused them. */
const NOT_LESSONS = new Set(['cancelled', 'refused', 'not_authenticated', 'session_replaced', 'invalid_credentials']);

export const LESSON_THRESHOLD = 2;

type Wording = (tool: string) => string;

const WORDINGS: Record<string, Wording> = {
  no_fuel: (tool) =>
    tool === 'jump'
      ? 'Avoid jumping on a low tank: refuel before jumping — check fuel ≥ 5 + cargo/20 (get_status) first; refuel only works docked'
      : tool === 'travel'
        ? 'Avoid travelling on a low tank: refuel before travelling — a trip costs ceil(0.7 × distance AU) fuel; refuel while docked'
        : `Avoid ${tool} on a low tank: refuel while docked before ${tool}`,
  no_cargo_space: (tool) =>
    `Avoid ${tool} with a full hold: sell cargo first — check free space (get_cargo) before ${tool}`,
  not_docked: (tool) => `Prefer docking first: ${tool} only works docked at a station (dock at a POI with a base)`,
  docked: (tool) => `Avoid ${tool} while docked: undock first (travel and jump undock on their own)`,
  already_docked: () => 'Avoid docking twice: check get_status — you are already docked',
  in_transit: (tool) =>
    `Avoid ${tool} while in transit: wait for arrival (the error says how long) and use queries meanwhile`,
  already_traveling: (tool) => `Avoid ${tool} while travelling: wait for arrival before the next move`,
  action_pending: (tool) =>
    `Avoid stacking mutations: one action per tick — wait for the pending action to resolve before ${tool}`,
  rate_limited: (tool) => `Avoid bursts of ${tool}: on rate_limited wait retry_after seconds; fewer calls per minute`,
  invalid_params: (tool) =>
    `Prefer reading ${tool}'s input schema: send every required field, with the right type and exact ids`,
  invalid_payload: (tool) =>
    `Prefer reading ${tool}'s input schema: send every required field, with the right type and exact ids`,
  invalid_arguments: (tool) => `Prefer a plain JSON object for ${tool}'s arguments, e.g. {"name": "value"}`,
  unknown_tool: (tool) => `Avoid calling "${tool}": it does not exist; use only the listed tools`,
  no_credits: (tool) => `Avoid ${tool} beyond your means: check credits and the price (view_market) first`,
  insufficient_cargo: (tool) => `Prefer checking get_cargo before ${tool}: trade only items and quantities you hold`,
  no_resources: (tool) =>
    `Avoid ${tool} at a depleted or empty spot: check deposits (get_poi) and move to another belt`,
  deposit_too_sparse: (tool) => `Avoid ${tool} at a sparse deposit: check deposits (get_poi) and move to a richer belt`,
  no_base: () => 'Avoid docking where there is no base: dock only at stations (get_system lists them)',
  not_connected: (tool) => `Prefer find_route before ${tool}: jump only along lanes from the current system`,
  wrong_system: (tool) => `Prefer get_system before ${tool}: travel targets must be POIs in the current system`,
  invalid_poi: (tool) => `Prefer get_system before ${tool}: use the exact POI ids it lists`,
  invalid_target: (tool) => `Prefer checking the target's exact id before ${tool} (get_system, get_poi)`,
  station_fuel_empty: () => 'Avoid counting on this station for fuel: refuel elsewhere and keep a reserve',
  timeout: (tool) => `Avoid long waits on ${tool}: check get_status after a timeout before calling it again`,
};

export function lessonKey(code: string, tool: string): string {
  return `${code}:${tool}`;
}

export function isLessonWorthy(code: string): boolean {
  return code !== '' && !NOT_LESSONS.has(code);
}

export interface LessonEvidence {
  key: string;
  code: string;
  tool: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
  lastArgs?: string;
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

export function lessonText(evidence: LessonEvidence): string {
  const wording = WORDINGS[evidence.code];
  const advice = wording
    ? wording(evidence.tool)
    : `Avoid repeating ${evidence.tool} when it fails with ${evidence.code}: read the error and change something first ` +
      '(state, arguments or order)';
  const args = evidence.lastArgs ? `, last with ${evidence.lastArgs}` : '';
  return `${advice}. (${evidence.code} on ${evidence.tool}: ${evidence.count}×, last seen ${stamp(evidence.lastSeen)} UTC${args})`;
}
