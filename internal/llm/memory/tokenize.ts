// A small tokenizer for retrieval: lower-case words of 2+ letters/digits (underscored game ids kept whole and also
// split), stop words dropped, a light plural strip so "jumps" meets "jump". No dependencies, no stemming library.

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it ' +
    'its just me my no not of on or our out she so than that the their them then there these they this to too up us ' +
    'was we were what when where which while who why will with would you your yours all any some more most very ' +
    'should must also only get got about after before again over under off once here each few other such own same ' +
    'turn last next now use used using one two'
  ).split(' '),
);

const WORD = /[a-z0-9][a-z0-9_]*/g;

function normalize(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Distinct content words of a text. */
export function tokenize(text: string): Set<string> {
  const out = new Set<string>();
  // match() with /g hands back the words alone: no match object (index, input, groups) per word as matchAll makes.
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    const parts = word.includes('_') ? [word, ...word.split('_')] : [word];
    for (const part of parts) {
      if (part.length < 2 || STOP_WORDS.has(part)) continue;
      out.add(normalize(part));
    }
  }
  return out;
}
