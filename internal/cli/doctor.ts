// `skipper doctor`: can Skipper play this game? Connects (initialize), lists the tools (tools/list) and nothing
// else — no login, no game call — and prints what internal/game/doctor-check.ts finds: a readable report ending in a
// verdict line, or the same as one JSON object with --json. Exit 0 when Skipper can play, 1 when it cannot.
import type { Command } from 'commander';
import {
  checkGame,
  openClient,
  opProblems,
  parseGameTarget,
  targetLabel,
  treatment,
  verdictLine,
  type DoctorReport,
  type GameTarget,
  type McpToolLike,
} from '../game/index.js';
import { createMinimolt, type Minimolt } from '../sim/index.js';
import { ExitCode, silentLogger } from '../shared/index.js';

export interface DoctorFlags {
  game?: string;
  json?: boolean;
  timeout?: number;
}

export interface DoctorDeps {
  stdout?: { write(text: string): unknown };
  env?: () => Record<string, string | undefined>;
}

interface Listed {
  label: string;
  serverName: string | undefined;
  serverVersion: string | undefined;
  tools: McpToolLike[];
}

const EMBEDDED = new Set(['embedded', 'minimolt']);

/** initialize + tools/list (every page), then close; the embedded game is started for the look and stopped. */
async function listGame(gameValue: string, timeoutMs: number): Promise<Listed> {
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

/** The readable report: sections of ✓/✗ lines, then the verdict. */
export function renderReport(label: string, report: DoctorReport): string {
  const lines = [
    ...headerLines(label, report),
    ...opLines(report.ops),
    ...newActionLines(report.newActions),
    ...removedActionLines(report.removedActions),
    ...warningLines(report.warnings),
    verdictLine(report),
  ];
  return `${lines.join('\n')}\n`;
}

const FACE_NAMES: Record<string, string> = {
  v2: 'SpaceMolt v2 face (grouped tools, one `action` each)',
  v1: 'SpaceMolt v1 face (flat tools)',
};

function headerLines(label: string, report: DoctorReport): string[] {
  const server = [report.server.name, report.server.version].filter(Boolean).join(' ') || 'unnamed server';
  const face = (report.face && FACE_NAMES[report.face]) ?? 'generic MCP game';
  return [
    `Game: ${label}`,
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
export function doctorJson(game: string, report: DoctorReport): Record<string, unknown> {
  return {
    game,
    server: report.server,
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
    can_play: report.canPlay,
    verdict: verdictLine(report),
  };
}

export async function runDoctor(flags: DoctorFlags, deps: DoctorDeps = {}): Promise<number> {
  const stdout = deps.stdout ?? process.stdout;
  const env = deps.env?.() ?? process.env;
  const game = flags.game ?? env.SKIPPER_GAME ?? 'embedded';
  const listed = await listGame(game, flags.timeout ?? 15_000);
  const report = checkGame({ serverName: listed.serverName, serverVersion: listed.serverVersion, tools: listed.tools });
  if (flags.json) stdout.write(`${JSON.stringify(doctorJson(listed.label, report))}\n`);
  else stdout.write(renderReport(listed.label, report));
  return report.canPlay ? ExitCode.ok : ExitCode.failure;
}

export function registerDoctorCommand(program: Command, deps: DoctorDeps = {}): Command {
  return program
    .command('doctor')
    .description(
      'Check that Skipper can play a game: list its tools and compare them with what Skipper sends. Never logs in.',
    )
    .option(
      '--game <target>',
      'embedded or minimolt (default, in-process; else $SKIPPER_GAME), spacemolt, spacemolt-v1, an MCP URL, or "stdio:COMMAND ARGS"',
    )
    .option('--json', 'print the report as one JSON object')
    .addHelpText(
      'after',
      `
What it does: connects (MCP initialize), asks for the tool list (tools/list) and nothing else — no login, no game
call. For every operation Skipper uses (register, login, get_status, travel, jump, mine, sell, …) it checks that the
tool and, on SpaceMolt's grouped v2 face, the action exist and that every parameter Skipper sends is declared
(a renamed one is named: "travel takes poi_id, not id"). It lists actions Skipper's catalogue does not know and how
Skipper will treat them, and actions the catalogue knows that the server no longer offers.

Verdict: "Skipper can play here" (exit 0), or "Skipper cannot play here: …" (exit 1) when an operation the captain
needs (register, login, get_status, get_system, undock, dock, travel, jump, mine, sell) is missing or takes a
parameter Skipper does not send. Problems with other operations (market view, notifications, the captain's log,
chat, buy, refuel, repair) are warnings.

Examples:
  $ skipper doctor                                   the embedded minimolt
  $ skipper doctor --game spacemolt                  SpaceMolt's /mcp/v2 face
  $ skipper doctor --game http://127.0.0.1:7777/mcp/v2 --json
`,
    )
    .action(async (flags: DoctorFlags) => {
      process.exitCode = await runDoctor(flags, deps);
    });
}
