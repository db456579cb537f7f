// What the game reported since the last turn (its notifications), typed at the boundary: the game layer reads and
// checks each one where it arrives and hands them on as data; they become text only when a turn's input is written
// for the model (the game layer's renderEvents). Readers (the planner's judgement) read the data, never that text.

/** One event the game reported. `kind` is the game's own word for it ("chat", "combat", "market"…). */
export type GameEvent =
  /** Words someone wrote (another player, an NPC): untrusted, shown wrapped. */
  | { type: 'said'; kind: string; from: string; text: string; channel?: string; tick?: number }
  /** Anything else that happened. */
  | { type: 'happened'; kind: string; text: string; tick?: number }
  /** A line of an answer the game layer could not read (a text-only server): shown wrapped, as it came. */
  | { type: 'unread'; text: string };

/** The events a turn is handed, newest last, and how many more were left out (past the block's caps). */
export interface GameEvents {
  events: GameEvent[];
  more: number;
}
