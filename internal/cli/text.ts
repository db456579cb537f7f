// Terminal text helpers: display width (CJK and emoji take two cells), clipping to a width without breaking ANSI
// sequences, and short forms of long values.
import { creditsPer1kTokens, usdPer1kCredits } from '../shared/index.js';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Code points a terminal draws two cells wide: CJK, Hangul, full-width forms, emoji (U+303F is half width). */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3040, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function isWide(codePoint: number): boolean {
  return WIDE_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}

function charWidth(char: string): number {
  const codePoint = char.codePointAt(0) ?? 0;
  if (codePoint < 32 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  if (codePoint >= 0x300 && codePoint <= 0x36f) return 0; // combining marks
  return isWide(codePoint) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of stripAnsi(text)) width += charWidth(char);
  return width;
}

/** Clips to `width` cells, keeping ANSI sequences intact and ending with "…" when cut. */
export function clipToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  let index = 0;
  while (index < text.length) {
    ANSI.lastIndex = index;
    const match = ANSI.exec(text);
    if (match && match.index === index) {
      out += match[0];
      index += match[0].length;
      continue;
    }
    const codePoint = text.codePointAt(index) ?? 0;
    const char = String.fromCodePoint(codePoint);
    const cells = charWidth(char);
    if (used + cells > width - 1) break;
    out += char;
    used += cells;
    index += char.length;
  }
  // Close any colour left open by the cut; plain text gets no escape codes.
  return text.includes('\u001b[') ? `${out}…\u001b[0m` : `${out}…`;
}

/** One line, whitespace collapsed, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** Tool arguments as `key=value` pairs, short. Raw text when they are not a JSON object. */
export function shortArguments(raw: string, max = 60): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return oneLine(raw, max);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return oneLine(raw, max);
  const parts = Object.entries(parsed as Record<string, unknown>).map(([key, value]) => {
    if (key === 'password') return `${key}=***`;
    return `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
  });
  return oneLine(parts.join(' '), max);
}

/** A change with its sign: "+1,234" / "-56" (digits grouped unless `grouped` is false: "+1234"). */
export function signed(value: number, { grouped = true }: { grouped?: boolean } = {}): string {
  const digits = grouped ? value.toLocaleString('en-US') : String(value);
  return value >= 0 ? `+${digits}` : digits;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return `${minutes}m${seconds.toString().padStart(2, '0')}s`;
  const hours = Math.floor(minutes / 60);
  return `${hours}h${(minutes % 60).toString().padStart(2, '0')}m`;
}

export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${(tokens / 1_000_000).toFixed(2)}M`;
}

/** A cost that says when it is not known: "price unknown" for a model without a price, never a made-up $0. */
export function formatCost(usage: { costUsd: number; priced?: boolean }): string {
  if (usage.priced !== false) return formatUsd(usage.costUsd);
  return usage.costUsd > 0 ? `${formatUsd(usage.costUsd)} + price unknown` : 'price unknown';
}

/** The two figures printed beside every cost: credits gained per 1,000 tokens and USD per 1,000 credits ("—" when
 * undefined: no tokens, no gain, or a price not known). */
export function economyText(input: {
  costUsd: number;
  priced?: boolean;
  tokens: number;
  creditsGained: number | null | undefined;
}): string {
  const perTokens = creditsPer1kTokens(input.creditsGained, input.tokens);
  const perCredits = usdPer1kCredits(input.costUsd, input.creditsGained, input.priced !== false);
  return (
    `credits per 1k tokens ${perTokens === null ? '—' : perTokens.toFixed(1)} · ` +
    `USD per 1k credits ${perCredits === null ? '—' : formatUsd(perCredits)}`
  );
}

export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** A plain table: the header, then each row, columns padded to their widest cell and two spaces apart. */
export function tableLines(header: readonly string[], body: readonly string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((row) => (row[column] ?? '').length)),
  );
  const format = (row: readonly string[]): string =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [format(header), ...body.map(format)];
}
