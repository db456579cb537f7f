// Step 4 of a play session: the session itself, resumed (dangling tool calls repaired first, rule 9) or created,
// the session engine set up on it, planner mode when asked, and the watchers (transcript or JSONL, status line,
// benchmark log) attached.
import { attachJson, attachJsonWaits, attachTranscript } from '../internal/cli/watchers.js';
import { attachBenchmarkLog } from '../internal/cli/benchmark-log.js';
import { holdSessionLease, leaseGuardedGame } from '../internal/session/index.js';
import { invocation } from '../internal/cli/invocation.js';
import {
  createSessionPlanner,
  draftSessionRecord,
  setUpSession,
  storedPlan,
  storedSessionRecord,
  type CaptainMemoryWiring,
  type Planner,
  type SessionRecord,
  type SessionRunner,
} from '../internal/session/index.js';
import { repairDanglingToolCalls, type Session } from '../internal/store/index.js';
import { isBuiltinProvider, type Provider } from '../internal/shared/index.js';
import { describePlan } from '../internal/spacemolt/index.js';
import { type Cleanup, type OpenGame, type PlayBase } from './play-setup.js';

export interface OpenSession {
  session: Session;
  /** The session's row: a draft until the first turn (see session-record.ts). */
  record: SessionRecord;
  runner: SessionRunner;
  memory: CaptainMemoryWiring;
  /** Turns the session had before this run. */
  turnsSoFar: number;
  /** Planner mode: set when --planner (or /planner on in chat). */
  planner: Planner | undefined;
  /** Switches planner mode on (chat's /planner on): the model plans, `flier` flies. */
  startPlanner: (flier: Provider) => Promise<Planner>;
}

const autopilotBanner = (): string[] => [
  'No model configured: the built-in autopilot is playing (no API key, no network).',
  'Plug in an LLM with --model, e.g. `--model openai/gpt-4o-mini` (OPENAI_API_KEY), `--model ollama/qwen2.5:7b`,',
  `or set SKIPPER_MODEL / "model" in $SKIPPER_HOME/config.json. \`${invocation()} --help\` lists the providers.`,
];

export async function openSession(
  base: PlayBase,
  opened: OpenGame,
  provider: Provider,
  cleanups: Cleanup[],
): Promise<OpenSession> {
  const { store, existing, flags, config } = base;
  const { conn, gameLabel, tools, secrets, game } = opened;
  const record = await sessionRecordFor({ base, opened, provider, cleanups });
  const session = record.session();
  const storeWarning = warnOf(base);
  followLogins(base, opened, record);
  const turnsSoFar = await store.lastTurn(session.id);
  const {
    runner,
    memory: wiring,
    localTools,
  } = await setUpSession({
    store,
    session,
    provider,
    // Nothing reaches the game once another Skipper has taken the session over (lease-guard.ts).
    game: leaseGuardedGame(conn, {
      ensure: async () => (await Promise.all(base.leases.map((lease) => lease.ensure()))).every(Boolean),
    }),
    tools,
    gameLabel,
    goal: () => record.session().goal ?? undefined, // /autoplay GOAL in chat sets it later
    maxRounds: config.maxRounds,
    ...(config.contextTokens ? { contextTokens: config.contextTokens } : {}),
    logger: base.logger,
    secrets,
    resume: existing !== undefined,
    tick: () => game.clock.now(),
    tickEstimated: game.clock.source === 'estimated',
    refreshTick: (signal) => game.clock.refresh(signal),
    // Before anything is recorded under the session's id (the turn's messages, usage, requests), its row exists.
    beforeTurn: async () => {
      await record.ensureStored();
    },
  });
  const memory = wiring as CaptainMemoryWiring;
  const opening: OpenSession = {
    session,
    record,
    runner,
    memory,
    turnsSoFar,
    planner: undefined,
    startPlanner: async (flier) => {
      opening.planner ??= await createSessionPlanner({
        // The plan is kept in the session's row: written first when it is still a draft.
        store: {
          findSession: (nameOrId) => store.findSession(nameOrId),
          updateSession: async (_nameOrId, changes) => {
            await record.ensureStored();
            return record.update(changes);
          },
        },
        session,
        model: runner.provider,
        flier,
        localTools,
        memoryTools: () => memory.localTools(),
        ...(flags.plannerEvery !== undefined ? { everyTicks: flags.plannerEvery } : {}),
        username: () => conn.username(),
        onStoreError: storeWarning('could not store the flight plan'),
      });
      return opening.planner;
    },
  };

  attachWatchers({ base, opened, provider, opening });
  if (existing && !base.writeJson) await announceResume(base, existing, runner);
  if (flags.benchmark) {
    const close = attachBenchmarkLog(runner, flags.benchmark, {
      session: session.name,
      model: provider.id,
      game: gameLabel,
    });
    cleanups.push(() => close());
  }
  return opening;
}

/** A store write that failed mid-session: one warning line in the log (the session goes on). */
function warnOf(base: PlayBase): (what: string) => (error: unknown) => void {
  return (what) => (error) => base.logger.warn({ error: error instanceof Error ? error.message : String(error) }, what);
}

/** Each login: its password joins the secrets at once, and the session's row learns the captain's name. */
function followLogins(base: PlayBase, opened: OpenGame, record: SessionRecord): void {
  opened.conn.onEvent((event) => {
    // A password registered or used just now must never reach the log file either.
    if (event.type === 'logged-in') {
      base.secretList.add(...base.store.credentials.passwordList());
      if (record.session().username !== event.username)
        record.update({ username: event.username }).catch(warnOf(base)('could not store the username'));
    }
  });
}

/** The session's row: a resumed one with its dangling tool calls answered first (rule 9), or a new draft. */
async function sessionRecordFor(input: {
  base: PlayBase;
  opened: OpenGame;
  provider: Provider;
  cleanups: Cleanup[];
}): Promise<SessionRecord> {
  const { base, opened, provider } = input;
  const { store, existing, flags, config } = base;
  const { conn, gameLabel } = opened;
  if (existing) {
    const repairs = repairDanglingToolCalls(await store.messages(existing.id));
    if (repairs.length > 0) {
      const turn = await store.lastTurn(existing.id);
      await store.appendMany(
        existing.id,
        repairs.map((message) => ({ ...message, turn })),
      );
    }
    return storedSessionRecord(store, existing);
  }
  // Written with its first turn: a chat opened and quit without one stores nothing.
  const record = await draftSessionRecord(store, {
    ...(flags.session ? { name: flags.session } : {}),
    game: gameLabel,
    model: provider.id,
    ...(conn.username() ? { username: conn.username() as string } : {}),
    ...(typeof flags.autoplay === 'string' ? { goal: flags.autoplay } : {}),
    extra: {
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      ...(config.apiKeyEnv ? { apiKeyEnv: config.apiKeyEnv } : {}),
    },
  });
  // Rule 19: a new session is leased by its draft id and name before its first write (a resumed one, in resolvePlay).
  const lease = await holdSessionLease({ store, session: record.session(), draft: true, logger: base.logger });
  input.cleanups.push(() => lease.release());
  base.leases.push(lease);
  return record;
}

/** Watchers: the transcript for people, JSONL for scripts, a status line on terminals. */
function attachWatchers(input: { base: PlayBase; opened: OpenGame; provider: Provider; opening: OpenSession }): void {
  const { base, opened, provider, opening } = input;
  const { output, chalk, config } = base;
  const { conn, gameLabel } = opened;
  const { runner, session } = opening;
  if (base.writeJson) {
    base.writeJson({
      type: 'session-start',
      session: session.name,
      game: gameLabel,
      model: provider.id,
      resumed: base.existing !== undefined,
    });
    attachJson(runner, base.writeJson);
    attachJsonWaits({ game: conn, retries: base.modelRetries, write: base.writeJson });
    return;
  }
  attachTranscript({
    runner,
    game: conn,
    retries: base.modelRetries,
    output,
    chalk,
    color: base.color,
    plan: () => opening.planner?.plan,
    ...(base.interactive ? { width: () => process.stdout.columns ?? 80 } : {}),
    // Chat on a terminal: readline already shows the line typed at the prompt.
    echoTyped: !(base.interactive && process.stdin.isTTY === true),
    redact: (text) => base.secretList.redact(text),
  });
  // Nobody chose a captain: the default built-in one plays, and says how to plug in a model.
  if (isBuiltinProvider(provider) && config.model === undefined)
    for (const line of autopilotBanner()) output.line(chalk.yellow(line));
  output.line(chalk.dim(sessionHeader(base, opened, provider, session)));
}

/** The line a transcript opens with: session, game, model, captain. */
function sessionHeader(base: PlayBase, opened: OpenGame, provider: Provider, session: Session): string {
  const { existing, config, flags } = base;
  const { conn, gameLabel, game } = opened;
  const resumed = existing ? ' (resumed)' : '';
  const sim = game.sim ? ` (tick ${config.tickMs} ms, seed ${config.seed})` : '';
  const planner = flags.planner ? ' (planner: the autopilot flies its plan)' : '';
  const captain = conn.username() ?? '(not logged in yet)';
  return [
    'skipper',
    `session ${session.name}${resumed}`,
    `game ${gameLabel}${sim}`,
    `model ${provider.id}${planner}`,
    `captain ${captain}`,
  ].join(' · ');
}

/** A resumed session, for people: where it left off, and the plan it flew in planner mode. */
async function announceResume(base: PlayBase, existing: Session, runner: SessionRunner): Promise<void> {
  const { output, chalk, flags } = base;
  for (const line of await resumeRecap(base, existing, runner)) output.line(chalk.dim(line));
  const plan = storedPlan(existing);
  if (!plan) return;
  const again = flags.planner ? '' : ' · fly it again with --planner (or /planner on)';
  output.line(chalk.dim(`plan (planner mode): ${describePlan(plan)}${again}`));
}

/** Where a resumed session left off: its last turn's outcome and closing words, and the captain's last known state. */
async function resumeRecap(base: PlayBase, session: Session, runner: SessionRunner): Promise<string[]> {
  const last = (await base.store.turns(session.id)).at(-1);
  if (!last) return [];
  const state = runner.state;
  const where = state
    ? [
        state.location,
        state.credits !== undefined ? `${state.credits} cr` : undefined,
        state.tick !== undefined ? `tick ${state.tick}` : undefined,
      ]
        .filter(Boolean)
        .join(' · ')
    : 'no game state stored';
  // The words of that turn itself, from the store: the history's last reply belongs to an earlier turn when this one
  // said nothing (a failed model call), and quoting it under this turn's number misleads.
  const said = (await base.store.messages(session.id, { fromTurn: last.turn, toTurn: last.turn }))
    .reverse()
    .find((message) => message.role === 'assistant' && message.content.trim() !== '');
  const text = said?.content.replace(/\s+/g, ' ').trim() ?? '';
  const words = said ? ` — "${text.slice(0, 120)}${text.length > 120 ? '…' : ''}"` : ' — no reply from the captain';
  return [`where you left off: turn ${last.turn} (${last.outcome})${words}`, `last known: ${where}`];
}
