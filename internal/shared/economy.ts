// The two figures that decide whether a model captain is worth its tokens, computed one way for every view: credits
// gained per 1,000 tokens spent, and USD spent per 1,000 credits gained. "Credits gained" is the net-worth change
// (credits plus the hold at its price), the gain every report and bench scores. Each is null where it has no meaning —
// no tokens spent, nothing gained, a gain not known, a cost not known — never a division by zero or a made-up 0.

/** Credits gained per 1,000 tokens (prompt + completion); null without tokens or without a known gain. */
export function creditsPer1kTokens(creditsGained: number | null | undefined, tokens: number): number | null {
  if (creditsGained === null || creditsGained === undefined || !Number.isFinite(creditsGained)) return null;
  return tokens > 0 ? (creditsGained / tokens) * 1000 : null;
}

/** USD per 1,000 credits gained; null when nothing (or nothing known) was gained, or the cost is not known. */
export function usdPer1kCredits(
  costUsd: number,
  creditsGained: number | null | undefined,
  priced = true,
): number | null {
  if (!priced || creditsGained === null || creditsGained === undefined || !Number.isFinite(creditsGained)) return null;
  return creditsGained > 0 ? (costUsd / creditsGained) * 1000 : null;
}

/** A ratio for people: "—" when it is undefined. */
export function ratioText(value: number | null, digits = 2): string {
  return value === null ? '—' : value.toFixed(digits);
}
