// An LLM captain's first turn on the real formats sees what the autopilot reads: the state line built from a real
// get_status (test/fixtures/spacemolt/real) names credits, hull, fuel, cargo, the system, docked and where, the police
// level the Security words stand for, and the lanes out.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { readObservation } from '../../../internal/game/index.js';
import { stateLine } from '../../../internal/llm/state-line.js';

const probe = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../fixtures/spacemolt/real/mcp-probe-2026-07-12.json', import.meta.url)),
    'utf8',
  ),
) as { read_only_calls: Record<string, { raw: { result: { content: Array<{ text: string }> } } }> };
const text = probe.read_only_calls['spacemolt/get_status']!.raw.result.content[0]!.text;

it('the state line of a real docked status', () => {
  const line = stateLine({
    id: 'm1',
    role: 'tool',
    content: text,
    toolName: 'spacemolt',
    data: readObservation('get_status', text, false),
    createdAt: 0,
  });
  expect(line).toContain('credits 2750');
  expect(line).toContain('hull 95/95, fuel 87/130, cargo 30/100');
  expect(line).toContain('at Market Prime / market_prime_exchange (docked, police 100)');
  expect(line).toContain('lanes to cargo_lanes, gold_run, haven');
  expect(line).toContain('palladium_ore ×22');
});
