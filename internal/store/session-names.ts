// Human-friendly session names (`2026-11-21-amber-falcon`) and the rule for names people type.
import { randomInt } from 'node:crypto';
import { UsageError } from '../shared/index.js';

const adjectives = [
  'amber',
  'azure',
  'bold',
  'brisk',
  'calm',
  'cobalt',
  'crimson',
  'dusky',
  'eager',
  'ember',
  'faint',
  'fierce',
  'golden',
  'hollow',
  'iron',
  'jade',
  'keen',
  'lunar',
  'mellow',
  'misty',
  'nimble',
  'oaken',
  'pale',
  'quiet',
  'rapid',
  'rusty',
  'silent',
  'silver',
  'solar',
  'steady',
  'swift',
  'tidal',
  'umber',
  'vivid',
  'wild',
  'young',
];

const nouns = [
  'albatross',
  'badger',
  'comet',
  'condor',
  'dolphin',
  'falcon',
  'ferret',
  'gannet',
  'heron',
  'ibis',
  'jackal',
  'kestrel',
  'lynx',
  'marlin',
  'nebula',
  'osprey',
  'otter',
  'pulsar',
  'quasar',
  'raven',
  'salmon',
  'sparrow',
  'tern',
  'tiger',
  'urchin',
  'viper',
  'walrus',
  'wren',
  'yak',
  'zebra',
  'corsair',
  'drifter',
  'voyager',
  'nomad',
];

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

/** Throws UsageError for names that would be awkward on a command line or in a file name. */
export function checkSessionName(name: string): void {
  if (!namePattern.test(name)) {
    throw new UsageError(
      `invalid session name "${name}": use 1-80 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
}

function pick(list: readonly string[]): string {
  return list[randomInt(list.length)] ?? 'nameless';
}

/** A fresh name for `now` that `taken` does not know; falls back to a numeric suffix when unlucky. */
export function generateSessionName(options: { now: number; taken: (name: string) => boolean }): string {
  for (const name of sessionNameCandidates(options.now)) if (!options.taken(name)) return name;
  throw new Error('unreachable: the candidates never end');
}

/** The same, asking an asynchronous store whether a name is taken. */
export async function generateSessionNameAsync(options: {
  now: number;
  taken: (name: string) => Promise<boolean>;
}): Promise<string> {
  for (const name of sessionNameCandidates(options.now)) if (!(await options.taken(name))) return name;
  throw new Error('unreachable: the candidates never end');
}

/** Twenty random day-adjective-noun names, then one of them numbered from 2 on, without end. */
function* sessionNameCandidates(now: number): Generator<string> {
  const day = new Date(now).toISOString().slice(0, 10);
  for (let attempt = 0; attempt < 20; attempt++) yield `${day}-${pick(adjectives)}-${pick(nouns)}`;
  const base = `${day}-${pick(adjectives)}-${pick(nouns)}`;
  for (let suffix = 2; ; suffix++) yield `${base}-${suffix}`;
}
