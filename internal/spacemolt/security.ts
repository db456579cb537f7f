// SpaceMolt states a system's police as words (`Security: High Security (active police patrols)`), never as a number;
// Skipper and minimolt reason with a police level (0–100, pirates below 50). The words below the line "captured"
// are the real server's (test/fixtures/spacemolt/real); "Medium Security (regular police patrols)" is ours, for
// minimolt's police 50, which no capture shows.

/** Police level -> the words minimolt writes after `Security:`. */
export function securityText(police: number): string {
  if (police >= 75) return 'High Security (active police patrols)'; // captured
  if (police >= 50) return 'Medium Security (regular police patrols)'; // ours
  if (police > 0) return 'Low Security (slow police response)'; // captured
  return 'Lawless (no police protection)'; // captured
}

/** The words after `Security:` -> a police level; undefined when the words say nothing we know. */
export function policeFromSecurity(text: string | undefined): number | undefined {
  const words = text?.trim().toLowerCase() ?? '';
  if (words === '') return undefined;
  const number = /^(\d{1,3})\b/.exec(words);
  if (number) return Math.min(100, Number(number[1]));
  if (/^(lawless|null|no security|anarchy)/.test(words)) return 0;
  if (/^(maximum|max|high|empire core|core)/.test(words)) return 100;
  if (/^(medium|moderate|mid)/.test(words)) return 50;
  if (/^low/.test(words)) return 25;
  return undefined;
}
