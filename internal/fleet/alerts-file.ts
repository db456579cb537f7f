// The fleet file's `alerts:` block, read at the boundary: where alerts are posted and which rules fire. Every mistake
// is a sentence naming the field, like the rest of the file's.
//
//   alerts:
//     webhook: https://discord.com/api/webhooks/…   # optional: the terminal and the page get alerts anyway
//     format: discord                              # json (default), discord or slack (guessed from the host)
//     page: http://127.0.0.1:8080/                 # optional: `skipper web`'s address, for absolute links
//     rules:                                       # optional: every rule with its default threshold when absent
//       stalled: { ticks: 30 }
//       parked: true
//       error_streak: { turns: 3, captains: [ada] }
//       done: false
import { z } from 'zod';
import {
  ALERT_RULES,
  allAlertRules,
  type AlertConfig,
  type AlertFormat,
  type AlertRule,
  type AlertRuleName,
} from './alerts.js';
import { formatForUrl } from './alert-webhook.js';

const ALERT_FIELDS = ['webhook', 'format', 'page', 'rules'];
const FORMATS: readonly AlertFormat[] = ['json', 'discord', 'slack'];
/** Rule fields beside `captains`: the threshold each rule takes. */
const THRESHOLDS: Partial<Record<AlertRuleName, 'ticks' | 'turns'>> = { stalled: 'ticks', error_streak: 'turns' };

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const shown = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** The alerts a file's `alerts:` value asks for; `problem(message)` is told each mistake. */
export function readAlerts(
  raw: unknown,
  options: { captains: readonly string[]; problem: (message: string) => void },
): AlertConfig | undefined {
  const { problem } = options;
  if (!isMapping(raw)) {
    problem(`alerts must be a mapping with rules: and/or webhook: (got ${shown(raw)})`);
    return undefined;
  }
  for (const key of Object.keys(raw))
    if (!ALERT_FIELDS.includes(key))
      problem(`alerts: unknown field "${key}" (the fields are: ${ALERT_FIELDS.join(', ')})`);
  const config: AlertConfig = { rules: allAlertRules(), format: 'json' };
  if (raw.webhook !== undefined) {
    if (isHttpUrl(raw.webhook)) {
      config.webhook = raw.webhook;
      config.format = formatForUrl(raw.webhook);
    } else problem(`alerts: webhook must be an http(s) URL (got ${shown(raw.webhook)})`);
  }
  if (raw.format !== undefined) {
    if (FORMATS.includes(raw.format as AlertFormat)) config.format = raw.format as AlertFormat;
    else problem(`alerts: format must be one of ${FORMATS.join(', ')} (got ${shown(raw.format)})`);
  }
  if (raw.page !== undefined) {
    if (isHttpUrl(raw.page)) config.page = raw.page;
    else problem(`alerts: page must be the http(s) address of skipper web (got ${shown(raw.page)})`);
  }
  if (raw.rules !== undefined) config.rules = readRules(raw.rules, options);
  return config;
}

function readRules(
  raw: unknown,
  options: { captains: readonly string[]; problem: (message: string) => void },
): AlertRule[] {
  const { problem } = options;
  if (!isMapping(raw)) {
    problem(
      `alerts: rules must be a mapping of rule names (${ALERT_RULES.join(', ')}) to true, false or their settings (got ${shown(raw)})`,
    );
    return [];
  }
  const rules: AlertRule[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (!(ALERT_RULES as readonly string[]).includes(name)) {
      problem(`alerts: unknown rule "${name}" (the rules are: ${ALERT_RULES.join(', ')})`);
      continue;
    }
    const rule = readRule(name as AlertRuleName, value, options);
    if (rule) rules.push(rule);
  }
  return rules;
}

function readRule(
  name: AlertRuleName,
  value: unknown,
  options: { captains: readonly string[]; problem: (message: string) => void },
): AlertRule | undefined {
  const { problem } = options;
  const threshold = THRESHOLDS[name];
  const defaults = allAlertRules().find((rule) => rule.rule === name) ?? { rule: name };
  if (value === false) return undefined;
  if (value === true || value === null) return defaults;
  if (!isMapping(value)) {
    problem(
      `alerts: rules: ${name} must be true, false or a mapping${threshold ? ` like { ${threshold}: 5 }` : ''} (got ${shown(value)})`,
    );
    return undefined;
  }
  const rule: AlertRule = { ...defaults };
  const allowed = ['captains', ...(threshold ? [threshold] : [])];
  for (const [key, field] of Object.entries(value)) {
    if (!allowed.includes(key)) {
      problem(`alerts: rules: ${name}: unknown field "${key}" (its fields are: ${allowed.join(', ')})`);
      continue;
    }
    if (key === 'captains') {
      const names = z.array(z.string()).safeParse(field);
      if (!names.success) {
        problem(`alerts: rules: ${name}: captains must be a list of captain names (got ${shown(field)})`);
        continue;
      }
      const unknown = names.data.filter((captain) => !options.captains.includes(captain));
      if (unknown.length > 0)
        problem(
          `alerts: rules: ${name}: captains names ${unknown.map((c) => `"${c}"`).join(', ')}, not a captain of this file`,
        );
      rule.captains = names.data;
    } else {
      const count = z.number().int().min(1).safeParse(field);
      if (count.success) rule[key as 'ticks' | 'turns'] = count.data;
      else problem(`alerts: rules: ${name}: ${key} must be a whole number ≥ 1 (got ${shown(field)})`);
    }
  }
  return rule;
}
