// The game's limits as one connection keeps them (rule 18): the account's query budget (QueryBudget: a sliding
// window, notifications once a tick, the same query once a tick) and the machine's share (IpPacer: logins, refusals).
// The connection asks it before each try leaves and tells it what came back; waits are on the connection's clock and
// each is announced, so the person sees why a call is held back.
import type { ConnectionEvent, Logger, ToolResult } from '../shared/index.js';
import type { GameOp } from '../spacemolt/index.js';
import type { GameClock } from './options.js';
import { IpPacer, isRejection, type IpHealth, type PacerWait } from './ip-pacer.js';
import { DEFAULT_QUERY_BUDGET, QueryBudget, type QueryBudgetLimits } from './query-budget.js';
import type { AttemptCall, AttemptOutcome } from './recovery.js';

type PacedReason = Extract<ConnectionEvent, { type: 'paced' }>['reason'];

export interface GameLimitsOptions {
  budget?: Partial<QueryBudgetLimits>;
  pacer?: IpPacer;
  clock: GameClock;
  logger: Logger;
  emit: (event: ConnectionEvent) => void;
}

/** A query as the budget keys it. */
export interface AskedQuery {
  op: GameOp | undefined;
  name: string;
  args: Record<string, unknown>;
}

export class GameLimits {
  readonly counters = { budgetWaits: 0, answeredLocally: 0 };
  private readonly budget: QueryBudget;
  private readonly pacer: IpPacer;
  private readonly clock: GameClock;
  private readonly logger: Logger;
  private readonly emit: (event: ConnectionEvent) => void;

  constructor(options: GameLimitsOptions) {
    this.budget = new QueryBudget({ ...DEFAULT_QUERY_BUDGET, ...options.budget });
    this.clock = options.clock;
    this.pacer = options.pacer ?? new IpPacer({ clock: options.clock });
    this.logger = options.logger;
    this.emit = options.emit;
  }

  health(): IpHealth {
    return this.pacer.health();
  }

  /** The answer already known this tick for a query, or undefined when the game must be asked. */
  localAnswer(query: AskedQuery): ToolResult | undefined {
    const local = this.budget.localAnswer(query, this.clock.now());
    if (local) this.counters.answeredLocally += 1;
    return local;
  }

  answered(query: AskedQuery, result: ToolResult): void {
    this.budget.answered(query, result, this.clock.now());
  }

  /** Before each try leaves: the machine's back-off and login budget, then the account's query window. A query gets
   * a slot whose `settle` must be called when its answer came (or it failed). */
  async admit(call: AttemptCall): Promise<{ settle: (at: number) => void } | undefined> {
    const onWait = (wait: PacerWait): void => this.paced(wait.reason, wait.waitMs);
    await this.pacer.admitCall(call.signal, onWait);
    if (call.op === 'login' || call.op === 'login_token' || call.op === 'register')
      await this.pacer.admitLogin(call.signal, onWait);
    if (call.kind !== 'query') {
      this.budget.changed();
      return undefined;
    }
    for (;;) {
      const waitMs = this.budget.waitMs(this.clock.now());
      if (waitMs === 0) break;
      this.counters.budgetWaits += 1;
      this.paced('query_budget', waitMs);
      await this.clock.sleep(waitMs, call.signal);
    }
    // No await between the check and taking the slot: parallel calls cannot both take the last one.
    return this.budget.take(call, this.clock.now());
  }

  /** One try's outcome: a refusal the server counts against the machine is counted here too. */
  observe(outcome: AttemptOutcome): void {
    if (isRejection(outcome)) this.pacer.rejected();
  }

  private paced(reason: PacedReason, waitMs: number): void {
    this.emit({ type: 'paced', reason, waitMs });
    this.logger.info({ reason, waitMs }, "holding a game call back to stay inside the game's limits");
  }
}
