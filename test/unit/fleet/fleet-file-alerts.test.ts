// The fleet file's `alerts:` block: what a person writes becomes rules and a webhook, and every mistake is a sentence
// naming the field (all of them at once, as for the captains).
import { describe, expect, it } from 'vitest';
import { parseFleetText } from '../../../internal/fleet/fleet-file.js';
import { allAlertRules } from '../../../internal/fleet/alerts.js';
import { problemOf } from './fleet-problem.js';

const captains = `
captains:
  - name: ada
  - name: bob
`;

describe('fleet file alerts', () => {
  it('no alerts: block, no alerts', () => {
    expect(parseFleetText(captains, 'fleet.yaml').alerts).toBeUndefined();
  });

  it('a webhook alone: every rule with its default threshold, the format guessed from the host', () => {
    const spec = parseFleetText(
      `${captains}alerts:\n  webhook: https://discord.com/api/webhooks/1/abc\n`,
      'fleet.yaml',
    );
    expect(spec.alerts).toEqual({
      rules: allAlertRules(),
      webhook: 'https://discord.com/api/webhooks/1/abc',
      format: 'discord',
    });
  });

  it('rules with thresholds, captains, true and false; an explicit format wins', () => {
    const spec = parseFleetText(
      `${captains}
alerts:
  webhook: https://example.com/hook
  format: slack
  page: http://127.0.0.1:8080/
  rules:
    stalled: { ticks: 12 }
    parked: true
    error_streak: { turns: 2, captains: [bob] }
    done: false
`,
      'fleet.yaml',
    );
    expect(spec.alerts).toEqual({
      webhook: 'https://example.com/hook',
      format: 'slack',
      page: 'http://127.0.0.1:8080/',
      rules: [
        { rule: 'stalled', ticks: 12 },
        { rule: 'parked' },
        { rule: 'error_streak', turns: 2, captains: ['bob'] },
      ],
    });
  });

  it('every mistake at once, each naming its field', () => {
    const message = problemOf(`${captains}
alerts:
  webhook: ftp://example.com/hook
  format: teams
  rules:
    stalld: true
    stalled: { ticks: 0, minutes: 3 }
    error_streak: { captains: [cyd] }
    parked: yes please
  extra: 1
`);
    const lines = message.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'fleet.yaml: alerts: webhook must be an http(s) URL (got "ftp://example.com/hook")',
        'fleet.yaml: alerts: format must be one of json, discord, slack (got "teams")',
        expect.stringMatching(/^fleet\.yaml: alerts: unknown rule "stalld" \(the rules are: stalled, parked, /),
        'fleet.yaml: alerts: rules: stalled: ticks must be a whole number ≥ 1 (got 0)',
        'fleet.yaml: alerts: rules: stalled: unknown field "minutes" (its fields are: captains, ticks)',
        'fleet.yaml: alerts: rules: error_streak: captains names "cyd", not a captain of this file',
        'fleet.yaml: alerts: rules: parked must be true, false or a mapping (got "yes please")',
        'fleet.yaml: alerts: unknown field "extra" (the fields are: webhook, format, page, rules)',
      ]),
    );
    expect(lines).toHaveLength(8);
  });

  it('alerts: must be a mapping', () => {
    expect(problemOf(`${captains}alerts: yes\n`)).toBe(
      'fleet.yaml: alerts must be a mapping with rules: and/or webhook: (got "yes")',
    );
  });
});
