// Refusals the game words instead of coding. The live server answers some refusals with a sentence and no
// `code:` (test/fixtures/spacemolt/real/spacemolt-harness-worded-refusals-2026-07.json: "Another action is already in
// progress for this player", "Your ship is mid-travel to Kepler-442 (~10s until arrival)", "nothing to mine here",
// "Sold 0 Gold Ore for 0cr, 33 unsold (no buyers)"), and a game that changes weekly rewords others. Read as their
// codes, they let the captain wait, end its turn or learn, instead of seeing a plain `error`; and where the words state
// the captain's situation (already at a place, under way to one, not docked), that statement is kept, so the game's
// word corrects the captain's belief. Pure; never throws.

/** What a refusal says about where the ship is, when it says anything. */
export interface RefusalSituation {
  /** "You are already at X": the POI the ship is at (an id, or a name when the words give only that). */
  at?: string;
  /** "mid-travel to X", "mid-JUMP to X": where the ship is under way to, and by which kind of move. */
  transitTo?: string;
  transitKind?: 'travel' | 'jump';
  /** "not docked" (false) or "while docked" / "already docked" (true). */
  docked?: boolean;
}

export interface WordedRefusal {
  code: string;
  /** Seconds the words say to wait ("~10s until arrival", "try again in 12 seconds"). */
  retryAfter?: number;
  situation?: RefusalSituation;
}

interface Rule {
  pattern: RegExp;
  code: string;
  situation?: (match: RegExpExecArray) => RefusalSituation;
  wait?: (match: RegExpExecArray) => number | undefined;
}

const ID = /^[a-z0-9_.:-]+$/;
const target = (text: string | undefined): string | undefined => {
  const trimmed = text?.trim().replace(/[.!]+$/, '');
  return trimmed ? trimmed : undefined;
};

// Order matters: the first rule that matches names the refusal.
const RULES: readonly Rule[] = [
  {
    // "Sold 0 Gold Ore for 0cr, 33 unsold (no buyers)" as an error, and any "no buyers" wording.
    pattern: /\bno buyers?\b|\bnobody (here )?(buys|wants)\b/i,
    code: 'no_buyers',
  },
  {
    pattern:
      /\b(?:another action is already (?:in progress|pending|queued)|action (?:already )?(?:in progress|pending) for this player|already (?:have|has) an? (?:action|command) (?:pending|queued))/i,
    code: 'action_pending',
  },
  {
    // "Your ship is mid-travel to Kepler-442 (~10s until arrival)", "mid-JUMP to Ross 128 (~10s until arrival)".
    pattern: /\bmid-?(travel|jump)\b(?:\s+to\s+([^(\n]*?))?\s*(?:\(([^)\n]*)\)|[.!,;]|$)/i,
    code: 'in_transit',
    situation: (match) => {
      const to = target(match[2]);
      return {
        transitKind: (match[1] ?? '').toLowerCase() === 'jump' ? 'jump' : 'travel',
        ...(to ? { transitTo: to } : {}),
      };
    },
    wait: (match) => {
      const seconds = /(?:~|about\s+)?(\d+(?:\.\d+)?)\s*s(?:ec(?:ond)?s?)?\b/i.exec(match[3] ?? '')?.[1];
      return seconds === undefined ? undefined : Number(seconds);
    },
  },
  {
    pattern:
      /\b(?:currently |still )?(?:in transit|under way|en route|travell?ing|jumping)\b.*\b(?:until|before) (?:arrival|you arrive)\b|\bwait (?:for|until) (?:the )?(?:arrival|jump to complete|travel to complete)/i,
    code: 'in_transit',
  },
  {
    // "You are already at sol_belt." / "already at Sol Belt"
    pattern: /\b(?:you(?:'re| are)?|ship is) already (?:at|in orbit (?:at|of)|parked at)\s+([^\n,;]+?)\s*(?:[.!,;]|$)/i,
    code: 'invalid_poi',
    situation: (match) => {
      const at = target(match[1]);
      return at ? { at } : {};
    },
  },
  { pattern: /\balready docked\b/i, code: 'already_docked', situation: () => ({ docked: true }) },
  {
    pattern: /\b(?:not docked|must (?:first )?be docked|need to (?:be )?dock(?:ed)?|dock (?:at a station )?first)\b/i,
    code: 'not_docked',
    situation: () => ({ docked: false }),
  },
  {
    pattern: /\b(?:while docked|undock first|must undock|cannot [a-z ]+ docked)\b/i,
    code: 'docked',
    situation: () => ({ docked: true }),
  },
  { pattern: /\bdeposits? (?:are |is )?too sparse\b/i, code: 'deposit_too_sparse' },
  {
    pattern:
      /\b(?:nothing (?:left )?to mine|no (?:minable )?resources|nothing (?:here )?to extract|deposit (?:is )?(?:empty|exhausted|depleted))\b/i,
    code: 'no_resources',
  },
  {
    pattern: /\b(?:cargo (?:hold )?(?:is )?full|no (?:free )?cargo space|not enough cargo space|hold is full)\b/i,
    code: 'no_cargo_space',
  },
  { pattern: /\b(?:not enough|out of|insufficient|no) fuel\b|\bneeds? \d+ fuel\b/i, code: 'no_fuel' },
  {
    pattern: /\b(?:not enough|insufficient) (?:credits|funds|money)\b|\bcan(?:no|')t afford\b/i,
    code: 'no_credits',
  },
  {
    pattern:
      /\b(?:log ?in first|not (?:authenticated|logged in)|please log ?in|must (?:be )?log(?:ged)? ?in|call login\b)/i,
    code: 'not_authenticated',
  },
  {
    pattern: /\b(?:no (?:lane|connection|route) (?:from|to)|not (?:directly )?connected)\b/i,
    code: 'not_connected',
  },
  { pattern: /\b(?:not in this system|in another system|jump there first)\b/i, code: 'wrong_system' },
  { pattern: /\b(?:no (?:base|station|market) (?:here|to dock)|has no (?:base|market))\b/i, code: 'no_base' },
  { pattern: /\b(?:unknown|no such|invalid) (?:poi|destination|location)\b/i, code: 'invalid_poi' },
];

/** The code (and the situation and wait) a refusal's words state, or undefined when the words are not known. */
export function wordedRefusal(text: string): WordedRefusal | undefined {
  const body = text.replace(/^\s*error(?: calling [a-z_]+)?:\s*/i, '');
  for (const rule of RULES) {
    const match = rule.pattern.exec(body);
    if (!match) continue;
    const out: WordedRefusal = { code: rule.code };
    const situation = rule.situation?.(match);
    if (situation && Object.keys(situation).length > 0) out.situation = situation;
    const wait = rule.wait?.(match);
    if (wait !== undefined && Number.isFinite(wait)) out.retryAfter = wait;
    return out;
  }
  return undefined;
}

/** The situation a refusal states, for any refusal (coded or not): "already at X" under an `invalid_poi:` prefix too. */
export function refusalSituation(text: string): RefusalSituation | undefined {
  return wordedRefusal(text)?.situation;
}

/** Whether a place named in words is an id (`sol_belt`) rather than a display name (`Sol Belt`). */
export function isPlaceId(text: string): boolean {
  return ID.test(text);
}
