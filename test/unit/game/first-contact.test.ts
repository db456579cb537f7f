// First contact as data (internal/game/first-contact.ts): what Skipper reads from each answer, fact by fact, and the
// verdict. Read on the real server's published answers (rule 17) where they exist; a fact an answer leaves out is
// unknown, never a zero or a "no" (rule 20), and an essential one left out means Skipper cannot play yet.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  contactVerdict,
  marketQuestion,
  readAnswer,
  readAnswers,
  type AnswerReading,
} from '../../../internal/game/index.js';

const folder = fileURLToPath(new URL('../../fixtures/spacemolt/real/', import.meta.url));
type Json = Record<string, any>;
const load = (name: string): Json => JSON.parse(readFileSync(`${folder}${name}`, 'utf8')) as Json;
const mcp = load('mcp-probe-2026-07-12.json');
const belt = load('poi-deposits-probe-2026-07-16.json');
const mcpText = (key: string): string => mcp.read_only_calls[key].raw.result.content[0].text as string;
const ok = (text: string): { text: string; isError: boolean } => ({ text, isError: false });
const shown = (reading: AnswerReading): string[] => reading.facts.map((fact) => `${fact.mark}: ${fact.shown}`);

describe('what Skipper reads from real answers', () => {
  it('a docked status gives the five facts the autopilot steers by', () => {
    const reading = readAnswer('get_status', ok(mcpText('spacemolt/get_status')));
    expect(reading.state).toBe('read');
    expect(shown(reading)).toEqual([
      'read: credits 2,750',
      'read: system Market Prime',
      'read: docked at market_prime_exchange',
      'read: fuel 87/130',
      'read: cargo 30/100 (3 items)',
    ]);
  });

  it('get_system gives POIs with their kinds and lanes; view_market items with a bid', () => {
    expect(shown(readAnswer('get_system', ok(mcpText('spacemolt/get_system'))))).toEqual([
      'read: 5 POIs (1 sun, 2 planets, 1 gas cloud, 1 station)',
      'read: 3 lanes',
    ]);
    expect(shown(readAnswer('view_market', ok(mcpText('spacemolt_market/view_market'))))).toEqual([
      'read: 482 items, 439 with a bid',
    ]);
  });

  it("get_poi at a belt gives its deposits (poi-deposits-probe's Gold Run)", () => {
    const text = belt.queries['spacemolt/get_poi'].body.result as string;
    expect(shown(readAnswer('get_poi', ok(text)))).toEqual([
      'read: at Gold Run Mineral Fields (asteroid_belt)',
      'read: 4 deposits',
    ]);
  });

  it('reads skills keyed by name in a JSON answer (the /mcp face)', () => {
    const text = JSON.stringify({ skills: { mining: { level: 1, xp: 5, next_level_xp: 100 } }, message: 'Skills' });
    expect(shown(readAnswer('get_skills', ok(text)))).toEqual(['read: 1 skill']);
  });
});

describe('what an answer does not say stays unknown', () => {
  it('a status without a fuel line: fuel unknown, not 0, and Skipper cannot play yet', () => {
    const text = mcpText('spacemolt/get_status')
      .split('\n')
      .map((line) => line.replace(/Fuel: \d+\/\d+ \| /, ''))
      .join('\n');
    const reading = readAnswer('get_status', ok(text));
    expect(reading.facts.find((fact) => fact.name === 'fuel')).toEqual({
      name: 'fuel',
      mark: 'unknown',
      shown: 'fuel unknown',
    });
    const system = readAnswer('get_system', ok(mcpText('spacemolt/get_system')));
    const verdict = contactVerdict([reading, system]);
    expect(verdict.level).toBe('cannot');
    expect(verdict.missing).toEqual(['status: fuel']);
    expect(verdict.line).toBe('Skipper cannot play here yet: missing status: fuel');
  });

  it('an answer with nothing readable is unread, with what it holds and its size', () => {
    const reading = readAnswer('get_map', ok('GALAXY\n  Sol\n    reach: Nexus Prime / Zelith'));
    expect(reading.state).toBe('unread');
    expect(reading.reason).toBe('no map in it, no tab-separated table; 44 chars of text not read');
  });

  it('market is asked only when the status read says docked', () => {
    const docked = readAnswer('get_status', ok(mcpText('spacemolt/get_status')));
    expect(marketQuestion(docked)).toEqual({ ask: true });
    const undocked = readAnswer('get_status', ok(mcpText('spacemolt/get_status').replace(/^Docked at:.*$/m, '')));
    expect(marketQuestion(undocked)).toEqual({ ask: false, reason: 'not docked: not asked' });
    expect(marketQuestion(undefined)).toEqual({ ask: false, reason: 'docked unknown: not asked' });
  });
});

describe('the verdict', () => {
  const answers = {
    get_status: ok(mcpText('spacemolt/get_status')),
    get_system: ok(mcpText('spacemolt/get_system')),
  };

  it('can play when the essentials read; queries not asked are not gaps', () => {
    const verdict = contactVerdict(readAnswers(answers, () => 'not in the capture'));
    expect([verdict.level, verdict.line]).toEqual(['can-play', 'Skipper can play here']);
  });

  it('plays with gaps when the map or market cannot be read', () => {
    const readings = readAnswers(
      { ...answers, get_map: ok('GALAXY\n  Sol'), view_market: ok('Market closed.') },
      () => 'not asked',
    );
    const verdict = contactVerdict(readings);
    expect(verdict.level).toBe('gaps');
    expect(verdict.gaps).toEqual(['map', 'market']);
    expect(verdict.line).toBe('Skipper plays here with gaps: map, market not read — the autopilot will go around them');
  });

  it('a refused extra (market, notifications) is shown but is no gap: the refusal was read', () => {
    const readings = readAnswers(
      { ...answers, get_notifications: { text: 'Error: not_authenticated: log in first', isError: true } },
      () => 'not asked',
    );
    expect(readings.find((reading) => reading.query === 'get_notifications')?.state).toBe('refused');
    expect(contactVerdict(readings).level).toBe('can-play');
  });

  it('cannot play when the status is refused or get_system gives POIs without kinds', () => {
    const refused = readAnswers(
      { ...answers, get_status: { text: 'Error: not_authenticated: log in first', isError: true } },
      () => 'x',
    );
    expect(contactVerdict(refused).missing).toEqual(['status: refused (not_authenticated: log in first)']);
    // A type column left empty: the POI is there, its kind is not.
    const kindless = readAnswer(
      'get_system',
      ok('System: Sol (sol)\nPOIs (1):\nid\tname\ttype\tbase\nsol_central\tSol Central\t\tSol Central'),
    );
    expect(shown(kindless)).toEqual(['unknown: 1 POI, kinds unknown', 'unknown: lanes unknown']);
    const verdict = contactVerdict([readAnswer('get_status', answers.get_status), kindless]);
    expect(verdict.level).toBe('cannot');
    expect(verdict.missing).toContain('system: POIs with their kinds');
  });
});
