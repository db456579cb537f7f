// The few hooks a session needs to use memory, so the CLI wires it in a handful of lines:
//   const hooks = sessionMemory({ memory, messages: () => history.snapshot(), tools, goal: () => goal });
//   new SessionRunner({ …, memoryBlock: hooks.memoryBlock, localTools: hooks.localTools() })
//   runner.on((e) => e.type === 'turn-end' && void hooks.turnEnded({ turn: e.summary.turn, outcome: e.summary.outcome, before, after }).catch(log))
//   at exit: const { text } = await hooks.endSession({ state }); if (captainsLog) await mirrorHandoff(game, tools, text, { secrets })
import type { Message, ToolSpec } from '../../shared/index.js';
import type { LocalTool } from '../dispatch.js';
import { factualHandoff } from './episode.js';
import { memoryContext, turnFactsFromMessages } from './facts.js';
import type { CaptainMemory, HandoffResult, MemoryContext, RecordTurnResult } from './types.js';

/** What to ask the model for at the end of a session; pass its answer to endSession({ text }). */
export const HANDOFF_REQUEST =
  'The session ends now. In at most 5 short lines, write a handoff for your next session: where you are, what you ' +
  'were doing, what worked, what to avoid, what to do next. Plain text, no tool calls, no passwords or keys.';

/** What the session knows of the player at a moment (the CLI's GameState fits). */
export interface MemoryGameState {
  credits?: number;
  netWorth?: number;
  fuel?: number;
  maxFuel?: number;
  cargoUsed?: number;
  cargoCapacity?: number;
  location?: string;
  docked?: boolean;
}

export interface SessionMemoryOptions {
  memory: CaptainMemory;
  /** The session's messages so far (history.snapshot). */
  messages: () => readonly Message[];
  tools: readonly ToolSpec[];
  goal?: () => string | undefined;
}

export interface SessionMemory {
  /** For SessionRunner's memoryBlock: ranked for the goal and the latest history (after the captain's memory is
   * loaded); marks what it carries as used. */
  memoryBlock(): Promise<string | undefined>;
  localTools(): LocalTool[];
  /** The retrieval context right now (for /memory: formatMemoryBlock(memory, hooks.context())). */
  context(): MemoryContext;
  /** At each turn end: writes the turn's episode and any lesson its failures complete. */
  turnEnded(turn: {
    turn: number;
    outcome: string;
    before?: MemoryGameState;
    after?: MemoryGameState;
  }): Promise<RecordTurnResult>;
  /** At session end: stores the handoff (the model's text when given and clean, else a factual one) and returns it. */
  endSession(options?: { text?: string; state?: MemoryGameState; next?: string }): Promise<{
    text: string;
    result: HandoffResult;
  }>;
}

export function sessionMemory(options: SessionMemoryOptions): SessionMemory {
  const { memory } = options;
  let turns = 0;
  let creditsStart: number | undefined;
  const errorCounts: Record<string, number> = {};
  const context = (): MemoryContext => {
    const goal = options.goal?.();
    return memoryContext({ messages: options.messages().slice(-30), ...(goal ? { goal } : {}) });
  };
  return {
    memoryBlock: async () => {
      await memory.load();
      return memory.block(context()) || undefined;
    },
    localTools: () => memory.localTools(),
    context,
    async turnEnded(turn) {
      turns += 1;
      creditsStart ??= turn.before?.credits ?? turn.after?.credits;
      const ofTurn = messagesOfTurn(options.messages(), turn.turn);
      const facts = turnFactsFromMessages(ofTurn, options.tools);
      for (const error of facts.errors) {
        const key = `${error.code} on ${error.tool}`;
        errorCounts[key] = (errorCounts[key] ?? 0) + 1;
      }
      const goal = options.goal?.();
      return memory.recordTurn({
        ...facts,
        outcome: turn.outcome,
        ...(goal ? { goal } : {}),
        ...(turn.before?.credits !== undefined ? { creditsBefore: turn.before.credits } : {}),
        ...(turn.after?.credits !== undefined ? { creditsAfter: turn.after.credits } : {}),
        ...(turn.before?.netWorth !== undefined ? { netWorthBefore: turn.before.netWorth } : {}),
        ...(turn.after?.netWorth !== undefined ? { netWorthAfter: turn.after.netWorth } : {}),
      });
    },
    async endSession(end = {}) {
      if (end.text?.trim()) {
        const result = await memory.writeHandoff(end.text);
        if (result.ok) return { text: end.text.trim(), result };
      }
      const state = end.state;
      const text = factualHandoff({
        turns,
        ...(creditsStart !== undefined ? { creditsStart } : {}),
        ...(state?.credits !== undefined ? { creditsEnd: state.credits } : {}),
        ...(state?.location ? { location: state.docked ? `${state.location} (docked)` : state.location } : {}),
        ...(state?.fuel !== undefined
          ? { fuel: state.maxFuel !== undefined ? `${state.fuel}/${state.maxFuel}` : String(state.fuel) }
          : {}),
        ...(state?.cargoUsed !== undefined
          ? {
              cargo:
                state.cargoCapacity !== undefined
                  ? `${state.cargoUsed}/${state.cargoCapacity}`
                  : String(state.cargoUsed),
            }
          : {}),
        watchOut: errorCounts,
        ...(end.next ? { next: end.next } : {}),
      });
      return { text, result: await memory.writeHandoff(text) };
    },
  };
}

/**
 * The messages stamped with `turn`, in order. Turns only grow along a history, so the walk goes back from the end
 * and stops at the first earlier turn: a turn's end costs what the turn wrote, not the whole window.
 */
export function messagesOfTurn(messages: readonly Message[], turn: number): Message[] {
  let start = messages.length;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const stamped = (messages[index] as Message).turn;
    if (stamped !== undefined && stamped < turn) break;
    start = index;
  }
  const out: Message[] = [];
  for (let index = start; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    if (message.turn === turn) out.push(message);
  }
  return out;
}
