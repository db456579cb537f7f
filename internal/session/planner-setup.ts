// Planner mode for one session: the Planner with its plan kept where a resume finds it (the session's record) and
// where the next session's captain finds it (a note in captain memory), and set_plan offered to the model.
import type { LocalTool } from '../llm/index.js';
import { type Provider } from '../shared/index.js';
import { describePlan, readFlightPlan, type FlightPlan } from '../spacemolt/index.js';
import type { Session, Store } from '../store/index.js';
import { Planner, SET_PLAN_TOOL } from './planner.js';

export interface SessionPlannerOptions {
  store: Pick<Store, 'findSession' | 'updateSession'>;
  session: Session;
  model: Provider;
  flier: Provider;
  /** The runner's live list of local tools: set_plan is added to it. */
  localTools: LocalTool[];
  /** Captain memory's local tools, when memory is on: the plan is kept as a note. */
  memoryTools?: () => LocalTool[];
  everyTicks?: number;
  username?: () => string | undefined;
  /** Told when a plan could not be kept in the store (default: ignored; the next plan tries again). */
  onStoreError?: (error: unknown) => void;
}

/** The plan a session stored (planner mode), if any. */
export function storedPlan(session: Pick<Session, 'extra'>): FlightPlan | undefined {
  return readFlightPlan((session.extra as { plan?: unknown }).plan);
}

export async function createSessionPlanner(options: SessionPlannerOptions): Promise<Planner> {
  const { store, session } = options;
  let lastNote = '';
  // Plans are written one after another, in the order they were made.
  let writing: Promise<void> = Promise.resolve();
  const restored = storedPlan((await store.findSession(session.id)) ?? session);
  const planner = new Planner({
    model: options.model,
    flier: options.flier,
    ...(options.everyTicks !== undefined ? { everyTicks: options.everyTicks } : {}),
    ...(restored ? { plan: restored } : {}),
    ...(options.username ? { username: options.username } : {}),
    onPlan: (plan) => {
      // Read afresh: the session's record may have changed since (username, model). The plan is kept in the
      // background: a plan not stored is only lost to a later resume, which plans again.
      writing = writing
        .then(async () => {
          const current = (await store.findSession(session.id)) ?? session;
          await store.updateSession(session.id, { extra: { ...current.extra, plan } });
        })
        .catch((error: unknown) => options.onStoreError?.(error));
      const note = `Planner mode: my last flight plan was ${describePlan(plan)}.`;
      const remember = options.memoryTools?.().find((tool) => tool.spec.name === 'remember');
      if (remember && note !== lastNote) {
        lastNote = note;
        void remember.run({ text: note.slice(0, 1000), tags: ['plan', plan.strategy] }).catch(() => undefined);
      }
    },
  });
  if (!options.localTools.some((tool) => tool.spec.name === SET_PLAN_TOOL)) options.localTools.push(planner.tool());
  return planner;
}
