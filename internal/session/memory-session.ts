// Memory for the session's captain. The captain (game + username) is often known only after the first turn logs
// in or registers, so memory is resolved lazily: the block, the local tools and the per-turn records follow whoever
// the game connection is logged in as. Before anyone is logged in there is nothing to remember and nothing to show.
import type { LocalTool } from '../llm/index.js';
import {
  HANDOFF_REQUEST,
  createMemory,
  formatMemoryBlock,
  mirrorHandoff,
  sessionMemory,
  type CaptainMemory,
  type MemoryPort,
  type SessionMemory,
} from '../llm/memory/index.js';
import type { Game, GameGuide, Message, ToolResult, ToolSpec } from '../shared/index.js';
import type { GameState } from './game-state.js';

export { HANDOFF_REQUEST };

export interface CaptainMemoryWiring {
  /** For SessionRunner's memoryBlock: the logged-in captain's block, once their memory is loaded; undefined when
   * nobody is logged in or there is nothing to say. */
  memoryBlock(): Promise<string | undefined>;
  localTools(): LocalTool[];
  /** Lines for /memory. */
  show(): Promise<string>;
  /** Writes the turn's episode (and lessons) for the logged-in captain. */
  turnEnded(turn: { turn: number; outcome: string; before?: GameState; after?: GameState }): Promise<void>;
  /** Stores the handoff (the model's text when clean, else a factual one); mirrors it to the captain's log. */
  endSession(options: {
    text?: string;
    state?: GameState;
    mirror: boolean;
    game: Pick<Game, 'call' | 'writeLog'>;
  }): Promise<string | undefined>;
  /** Resolves once every captain's background writes (marks of use) handed to the store so far have finished. */
  settled(): Promise<void>;
}

interface CaptainHooks {
  memory: CaptainMemory;
  hooks: SessionMemory;
}

export function wireCaptainMemory(options: {
  port: MemoryPort;
  gameLabel: string;
  username: () => string | undefined;
  secrets: () => string[];
  messages: () => readonly Message[];
  tools: readonly ToolSpec[];
  goal: () => string | undefined;
  /** Told of each background write that failed (default: ignored). */
  onWriteError?: (error: unknown) => void;
  /** The game's guide (its lesson wordings), asked when a lesson is written. */
  guide?: () => GameGuide | undefined;
}): CaptainMemoryWiring {
  const byCaptain = new Map<string, CaptainHooks>();
  const current = (): CaptainHooks | undefined => {
    const username = options.username();
    if (!username) return undefined;
    const captain = `${options.gameLabel}#${username}`;
    let entry = byCaptain.get(captain);
    if (!entry) {
      const memory = createMemory({
        port: options.port,
        captain,
        secrets: options.secrets,
        ...(options.onWriteError ? { onWriteError: options.onWriteError } : {}),
        ...(options.guide ? { lessons: () => options.guide?.()?.lessons } : {}),
      });
      entry = {
        memory,
        hooks: sessionMemory({ memory, messages: options.messages, tools: options.tools, goal: options.goal }),
      };
      byCaptain.set(captain, entry);
    }
    return entry;
  };
  return {
    memoryBlock: async () => current()?.hooks.memoryBlock(),
    localTools: captainTools(options.port, current),
    show: async () => {
      const entry = current();
      if (!entry) return 'No captain logged in yet: memory belongs to a captain.';
      await entry.memory.load();
      return formatMemoryBlock(entry.memory, entry.hooks.context()).join('\n');
    },
    turnEnded: async (turn) => {
      await current()?.hooks.turnEnded(turn);
    },
    endSession: async ({ text, state, mirror, game }) => {
      const entry = current();
      if (!entry) return undefined;
      const handoff = await entry.hooks.endSession({ ...(text ? { text } : {}), ...(state ? { state } : {}) });
      if (mirror)
        await mirrorHandoff(game, options.tools, handoff.text, { secrets: options.secrets() }).catch(() => undefined);
      return handoff.text;
    },
    settled: async () => {
      await Promise.all([...byCaptain.values()].map((entry) => entry.memory.settled()));
    },
  };
}

/** The memory tools, answered for whoever is logged in when they run (their shapes do not depend on the captain). */
function captainTools(port: MemoryPort, current: () => CaptainHooks | undefined): () => LocalTool[] {
  const specs = createMemory({ port, captain: '(specs)', secrets: () => [] })
    .localTools()
    .map((tool) => tool.spec);
  const notLoggedIn: ToolResult = {
    text: 'not_authenticated: memory belongs to a captain; log in (or register) first',
    isError: true,
    code: 'not_authenticated',
  };
  const localTools: LocalTool[] = specs.map((spec) => ({
    spec,
    run: async (args, signal) => {
      const tool = current()
        ?.hooks.localTools()
        .find((candidate) => candidate.spec.name === spec.name);
      return tool ? tool.run(args, signal) : notLoggedIn;
    },
  }));
  return () => localTools;
}
