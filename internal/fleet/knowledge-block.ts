// The "Fleet knowledge" block of a model captain's system prompt: what its fleet-mates learned — the freshest market
// bids and no-buyers answers, recent dangers, the sales they are on their way to make — each with its age, so the
// model weighs an hour-old price against a fresh one. Bounded (about 300 tokens) and built from the fleet's memory
// only: no query, no store read. The built-in autopilot reads the same knowledge through its port instead.
import type { FleetKnowledge } from './shared-knowledge.js';

/** About 300 tokens at ~4 characters a token. */
export const BLOCK_MAX_CHARS = 1200;
const MAX_STATIONS = 6;
const MAX_BIDS = 4;
const MAX_DANGERS = 3;
const MAX_CLAIMS = 4;

/** "45s", "12m", "3h", "2d": ages at a glance. */
export function ageText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours}h` : `${Math.round(hours / 24)}d`;
}

/** The block for `captain`, or undefined when its fleet-mates have taught it nothing yet. */
export function fleetKnowledgeBlock(options: {
  knowledge: FleetKnowledge;
  captain: string;
  maxChars?: number;
}): string | undefined {
  const { knowledge, captain } = options;
  const lines = [
    ...marketLines(knowledge, captain),
    ...dangerLines(knowledge, captain),
    ...claimLines(knowledge, captain),
  ];
  if (lines.length === 0) return undefined;
  return bounded(
    ['Fleet knowledge (what your fleet-mates saw; the age says how long ago — older prices may have moved):', ...lines],
    options.maxChars ?? BLOCK_MAX_CHARS,
  );
}

function marketLines(knowledge: FleetKnowledge, captain: string): string[] {
  const views = knowledge
    .markets()
    .filter((view) => view.captain !== captain)
    .sort((a, b) => a.ageMs - b.ageMs)
    .slice(0, MAX_STATIONS);
  return views.map((view) => {
    const bids = Object.entries(view.bids)
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_BIDS)
      .map(([item, bid]) => `${item} ${Math.round(bid * 10) / 10}`);
    const parts = [bids.length > 0 ? `bids ${bids.join(', ')}` : 'no bids seen'];
    if (view.noBuyers.length > 0) parts.push(`no buyers for ${view.noBuyers.slice(0, MAX_BIDS).join(', ')}`);
    return `- market ${view.name} (${view.poiId}, ${view.systemId}): ${parts.join('; ')} — ${view.captain}, ${ageText(view.ageMs)} ago`;
  });
}

function dangerLines(knowledge: FleetKnowledge, captain: string): string[] {
  return knowledge
    .dangers()
    .filter((danger) => danger.captain !== captain)
    .slice(0, MAX_DANGERS)
    .map(
      (danger) => `- danger in ${danger.systemId}: ${danger.what} — ${danger.captain}, ${ageText(danger.ageMs)} ago`,
    );
}

function claimLines(knowledge: FleetKnowledge, captain: string): string[] {
  return knowledge
    .claims()
    .filter((claim) => claim.captain !== captain)
    .slice(0, MAX_CLAIMS)
    .map((claim) => `- ${claim.captain} is on its way to sell ${claim.quantity} ${claim.item} at ${claim.poiId}`);
}

/** Whole lines while they fit; the rest summed up in one line. */
function bounded(lines: string[], maxChars: number): string {
  const kept: string[] = [];
  let size = 0;
  for (const [index, line] of lines.entries()) {
    const left = lines.length - index;
    if (size + line.length + 1 > maxChars - (left > 1 ? 20 : 0)) {
      kept.push(`(${left} more not shown)`);
      break;
    }
    kept.push(line);
    size += line.length + 1;
  }
  return kept.join('\n');
}
