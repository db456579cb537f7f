// `skipper doctor`'s report: what internal/game/doctor-check.ts finds in the tool list, and — when it logged in, or
// reads a capture (--from) — what internal/game/first-contact.ts read from each answer, fact by fact, with the verdict
// that follows; a readable report ending in its verdict line, or the same as one JSON object with --json. Also the
// look without credentials (initialize + tools/list, nothing else: no login, no game call). The command and its
// wiring (credentials, capture) are cmd/doctor.ts.
import {
  QUERY_LABELS,
  checkGame,
  openClient,
  opProblems,
  parseGameTarget,
  targetLabel,
  treatment,
  verdictLine,
  type AnswerReading,
  type ContactVerdict,
  type DoctorReport,
  type GameTarget,
  type McpToolLike,
} from '../game/index.js';
import { createMinimolt, type Minimolt } from '../sim/index.js';
import { ExitCode, silentLogger } from '../shared/index.js';

export interface Listed {
  label: string;
  serverName: string | undefined;
  serverVersion: string | undefined;
  tools: McpToolLike[];
}

const EMBEDDED = new Set(['embedded', 'minimolt']);

/** initialize + tools/list (every page), then close; the embedded game is started for the look and stopped. */
export async function listGame(gameValue: string, timeoutMs: number): Promise<Listed> {
  let sim: Minimolt | undefined;
  let target: GameTarget;
  if (EMBEDDED.has(gameValue.trim().toLowerCase())) {
    sim = await createMinimolt({ seed: 42, tickMs: 10_000, logger: silentLogger });
    const started = sim;
    target = { kind: 'transport', label: 'embedded', url: 'embedded://minimolt', connect: () => started.connect() };
  } else {
    target = parseGameTarget(gameValue);
  }
  try {
    const opened = await openClient({ target, timeoutMs, logger: silentLogger });
    try {
      const tools: McpToolLike[] = [];
      let cursor: string | undefined;
      const seen = new Set<string>();
      do {
        const page = await opened.client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
        tools.push(...page.tools);
        cursor = page.nextCursor && !seen.has(page.nextCursor) && seen.size < 50 ? page.nextCursor : undefined;
        if (cursor) seen.add(cursor);
      } while (cursor);
      const info = opened.client.getServerVersion();
      return { label: targetLabel(target), serverName: info?.name, serverVersion: info?.version, tools };
    } finally {
      await opened.close();
    }
  } finally {
    await sim?.close();
  }
}

const mark = (ok: boolean): string => (ok ? '✓' : '✗');

/** What the answers gave: read (logged in, or a capture), or not tried (no credentials) with how to give them. */
export type ContactView =
  | { tried: true; readings: AnswerReading[]; verdict: ContactVerdict; source: 'live' | 'capture' }
  | { tried: false; hint: string };

/** Everything the doctor prints: the tool check (absent when a capture holds no tools/list) and the answers. */
export interface DoctorView {
  label: string;
  server: { name?: string; version?: string };
  tools?: DoctorReport;
  contact: ContactView;
}

export const NOT_TRIED_HINT =
  'Answers not tried (no credentials): give --username NAME with SKIPPER_GAME_PASSWORD (or a password stored in ' +
  'the home), or --api-key / SKIPPER_GAME_API_KEY, and the doctor logs in and reads one answer of each query.';

/** The verdict line: the answers' when they were read, else the tool check's. */
export function viewVerdict(view: DoctorView): string {
  if (view.contact.tried) return view.contact.verdict.line;
  return view.tools ? verdictLine(view.tools) : 'Skipper cannot tell: neither tools nor answers were read';
}

/** 0 when Skipper can play (with or without gaps), 1 when it cannot. */
export function viewExitCode(view: DoctorView): number {
  if (view.contact.tried) return view.contact.verdict.level === 'cannot' ? ExitCode.failure : ExitCode.ok;
  return view.tools?.canPlay ? ExitCode.ok : ExitCode.failure;
}

/** The readable report: sections of ✓/✗ lines, then the verdict. */
export function renderReport(view: DoctorView): string {
  const { tools } = view;
  const lines = [
    ...headerLines(view),
    ...(tools
      ? [
          ...opLines(tools.ops),
          ...newActionLines(tools.newActions),
          ...removedActionLines(tools.removedActions),
          ...warningLines(tools.warnings),
        ]
      : []),
    ...contactLines(view.contact),
    viewVerdict(view),
  ];
  return `${lines.join('\n')}\n`;
}

const STATE_MARKS: Record<AnswerReading['state'], string> = { read: '✓', unread: '✗', refused: '✗', 'not-asked': '–' };

/** One answer's line: `status ✓ credits 2,750 · system Sol · – fuel unknown`, `map ✗ (why)`, `market – not docked`. */
export function answerLine(reading: AnswerReading): string {
  const label = QUERY_LABELS[reading.query];
  const mark = STATE_MARKS[reading.state];
  if (reading.state === 'read')
    return `${label} ${mark} ${reading.facts.map((fact) => (fact.mark === 'read' ? fact.shown : `– ${fact.shown}`)).join(' · ')}`;
  if (reading.state === 'refused') return `${label} ${mark} refused: ${reading.reason ?? ''}`;
  if (reading.state === 'unread') return `${label} ${mark} (${reading.reason ?? 'nothing read'})`;
  return `${label} ${mark} ${reading.reason ?? 'not asked'}`;
}

function contactLines(contact: ContactView): string[] {
  if (!contact.tried) return [contact.hint, ''];
  const title =
    contact.source === 'live'
      ? 'What Skipper read from the answers (logged in; one of each free query, events peeked, not cleared):'
      : 'What Skipper read from the captured answers (the first of each query):';
  const lines = [title, ...contact.readings.map((reading) => `  ${answerLine(reading)}`)];
  const { verdict } = contact;
  if (verdict.level === 'gaps')
    lines.push(
      `  The autopilot plays around what it cannot read (${verdict.gaps.join(', ')}): it mines, sells and moves with what it has.`,
    );
  return [...lines, ''];
}

const FACE_NAMES: Record<string, string> = {
  v2: 'SpaceMolt v2 face (grouped tools, one `action` each)',
  v1: 'SpaceMolt v1 face (flat tools)',
};

function headerLines(view: DoctorView): string[] {
  const report = view.tools;
  const named = report?.server ?? view.server;
  const server = [named.name, named.version].filter(Boolean).join(' ') || 'unnamed server';
  if (!report)
    return [`Game: ${view.label}`, `Server: ${server}`, 'Tools: not in the capture (no tools/list): not checked', ''];
  const face = (report.face && FACE_NAMES[report.face]) ?? 'generic MCP game';
  return [
    `Game: ${view.label}`,
    `Server: ${server}`,
    `Face: ${face} — profile ${report.profile}`,
    `Tools: ${report.toolCount}${report.face === 'v2' ? `, ${report.actionCount} actions` : ''}`,
    '',
  ];
}

/** One ✓/✗ line per op Skipper sends, as this face spells it, with what is wrong with it. */
function opLines(ops: DoctorReport['ops']): string[] {
  if (ops.length === 0) return [];
  const lines = ['What Skipper sends (its ops, as this face spells them):'];
  for (const check of ops) {
    const problems = opProblems(check);
    const ok = problems.length === 0 && check.status !== 'unlisted';
    const spelled = check.action ? `${check.tool} ${check.action}` : check.tool;
    const params = check.params.map((param) => param.sent).join(', ');
    const note =
      problems.length > 0
        ? ` — ${problems.map((problem) => problem.replace(/^[a-z_]+: /, '')).join('; ')}`
        : check.status === 'unlisted'
          ? ' — not listed, not checked'
          : '';
    const tag = check.essential ? '' : ' (optional)';
    lines.push(`  ${mark(ok)} ${check.op}${tag}: ${spelled}(${params}) [${check.kind}]${note}`);
  }
  return [...lines, ''];
}

function newActionLines(newActions: DoctorReport['newActions']): string[] {
  if (newActions.length === 0) return [];
  const lines = [`New actions Skipper's catalogue does not know (${newActions.length}):`];
  for (const note of newActions) {
    const whence = note.from === 'server' ? 'as the server labels it' : 'guessed from its name';
    lines.push(`  • ${note.tool} ${note.action}: ${note.kind} (${whence}) — ${treatment(note.kind)}`);
  }
  lines.push(
    '  An action missing from both the list and the catalogue is treated as a mutation: one at a time, long timeout.',
    '',
  );
  return lines;
}

/** A subset server (minimolt, a preset) leaves out dozens: one line per tool, the first few names. */
function removedActionLines(removedActions: DoctorReport['removedActions']): string[] {
  if (removedActions.length === 0) return [];
  const lines = [
    `Actions Skipper's catalogue knows that this server does not offer (${removedActions.length}; removed, or a smaller server):`,
  ];
  const byTool = new Map<string, string[]>();
  for (const gone of removedActions) byTool.set(gone.tool, [...(byTool.get(gone.tool) ?? []), gone.action]);
  for (const [tool, actions] of byTool) {
    const shown = actions.slice(0, 6).join(', ');
    lines.push(`  • ${tool}: ${shown}${actions.length > 6 ? `, … (${actions.length - 6} more)` : ''}`);
  }
  return [...lines, ''];
}

function warningLines(warnings: string[]): string[] {
  if (warnings.length === 0) return [];
  return ['Warnings:', ...warnings.map((warning) => `  ! ${warning}`), ''];
}

/** `skipper doctor --json`: the report in snake_case, like every --json output. */
export function doctorJson(view: DoctorView): Record<string, unknown> {
  const report = view.tools;
  const verdict = viewVerdict(view);
  const canPlay = viewExitCode(view) === ExitCode.ok;
  return {
    game: view.label,
    server: report?.server ?? view.server,
    ...(report ? toolsJson(report) : { tools_checked: false }),
    ...contactJson(view.contact),
    can_play: canPlay,
    verdict,
  };
}

function toolsJson(report: DoctorReport): Record<string, unknown> {
  return {
    profile: report.profile,
    ...(report.face ? { face: report.face } : {}),
    tool_count: report.toolCount,
    action_count: report.actionCount,
    ops: report.ops.map((check) => ({
      op: check.op,
      tool: check.tool,
      ...(check.action !== undefined ? { action: check.action } : {}),
      essential: check.essential,
      status: check.status,
      params: check.params.map((param) => ({
        ours: param.ours,
        sent: param.sent,
        declared: param.declared,
        ...(param.renamedTo !== undefined ? { renamed_to: param.renamedTo } : {}),
      })),
      kind: check.kind,
    })),
    new_actions: report.newActions,
    removed_actions: report.removedActions,
    problems: report.problems,
    warnings: report.warnings,
  };
}

const LEVEL_NAMES: Record<ContactVerdict['level'], string> = {
  'can-play': 'can_play',
  gaps: 'plays_with_gaps',
  cannot: 'cannot_play',
};

function contactJson(contact: ContactView): Record<string, unknown> {
  if (!contact.tried) return { answers_tried: false, answers_hint: contact.hint };
  return {
    answers_tried: true,
    answers_source: contact.source,
    answers: contact.readings.map((reading) => ({
      query: reading.query,
      label: QUERY_LABELS[reading.query],
      state: reading.state.replace('-', '_'),
      facts: reading.facts.map((fact) => ({
        fact: fact.name,
        mark: fact.mark,
        shown: fact.shown,
        ...(fact.value !== undefined ? { value: fact.value } : {}),
      })),
      ...(reading.reason !== undefined ? { reason: reading.reason } : {}),
      chars: reading.chars,
    })),
    level: LEVEL_NAMES[contact.verdict.level],
    missing: contact.verdict.missing,
    gaps: contact.verdict.gaps,
  };
}

/** The tool check of a listed game. */
export function checkListed(listed: Pick<Listed, 'serverName' | 'serverVersion' | 'tools'>): DoctorReport {
  return checkGame({ serverName: listed.serverName, serverVersion: listed.serverVersion, tools: listed.tools });
}
