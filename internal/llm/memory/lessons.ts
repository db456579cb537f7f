// Lessons from failures that repeat: the same error code on the same kind of action, two or more times across a
// captain's episodes, becomes one "Avoid …/Prefer …" line with its evidence. The game's wordings for its own codes
// come from its guide (the detected game profile); Skipper's own codes have theirs here; anything else gets a generic
// wording.
import type { LessonWording } from '../../shared/index.js';

/** Codes that say nothing about how to play: Skipper handles them (re-login, secret guard) or the user caused them. */
const NOT_LESSONS = new Set(['cancelled', 'refused', 'not_authenticated', 'session_replaced', 'invalid_credentials']);

export const LESSON_THRESHOLD = 2;

/** Codes Skipper itself answers (any game): the game's own wordings come from its guide. */
const GENERIC_WORDINGS: Readonly<Record<string, LessonWording>> = {
  invalid_params: (tool) =>
    `Prefer reading ${tool}'s input schema: send every required field, with the right type and exact ids`,
  invalid_payload: (tool) =>
    `Prefer reading ${tool}'s input schema: send every required field, with the right type and exact ids`,
  invalid_arguments: (tool) => `Prefer a plain JSON object for ${tool}'s arguments, e.g. {"name": "value"}`,
  unknown_tool: (tool) => `Avoid calling "${tool}": it does not exist; use only the listed tools`,
  rate_limited: (tool) => `Avoid bursts of ${tool}: wait as long as the error says; fewer calls per minute`,
  timeout: (tool) => `Avoid long waits on ${tool}: check your state after a timeout before calling it again`,
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

/** The lesson's line; `wordings` are the game's (its guide's lessons), tried before Skipper's own. */
export function lessonText(evidence: LessonEvidence, wordings: Readonly<Record<string, LessonWording>> = {}): string {
  const wording = wordings[evidence.code] ?? GENERIC_WORDINGS[evidence.code];
  const advice = wording
    ? wording(evidence.tool)
    : `Avoid repeating ${evidence.tool} when it fails with ${evidence.code}: read the error and change something first ` +
      '(state, arguments or order)';
  const args = evidence.lastArgs ? `, last with ${evidence.lastArgs}` : '';
  return `${advice}. (${evidence.code} on ${evidence.tool}: ${evidence.count}×, last seen ${stamp(evidence.lastSeen)} UTC${args})`;
}
