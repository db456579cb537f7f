// A scripted planning model for the planner benchmark (no key, no network): woken with a planner check-in, it calls
// set_plan once — exploring when the goal says so; otherwise mining, with the plan its chooser names (a resource, a
// station, a system: see planner-plans.ts) or, without a chooser, the autopilot's own choices — and then answers in
// one line. Its prompt and completion tokens are estimated from what it is sent (chars/4), so the bench can report
// tokens per 100 ticks for the planner path beside the pure-model one.
import { estimateMessageTokens } from '../llm/index.js';
import {
  emptyUsage,
  throwIfAborted,
  type CompletionRequest,
  type CompletionResponse,
  type Provider,
} from '../shared/index.js';
import type { PlanChooser, ProposedPlan } from './planner-plans.js';

export class ScriptedPlanner implements Provider {
  readonly id = 'scripted/planner';
  /** Requests answered so far. */
  requests = 0;
  /** The mining plans it proposed, in order. */
  readonly proposed: ProposedPlan[] = [];
  private calls = 0;

  constructor(private readonly options: { plans?: PlanChooser } = {}) {}

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    throwIfAborted(request.signal);
    this.requests += 1;
    const promptTokens = request.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
    const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
    const turnStart = lastUser ? request.messages.lastIndexOf(lastUser) : -1;
    const planSetThisTurn = request.messages
      .slice(turnStart + 1)
      .some((message) => message.toolCalls?.some((call) => call.name === 'set_plan'));
    const offered = request.tools.some((tool) => tool.name === 'set_plan');
    const usage = { ...emptyUsage(), promptTokens, completionTokens: 30 };
    if (!offered || planSetThisTurn || !/Planner check-in/.test(lastUser?.content ?? '')) {
      return {
        message: { content: 'Plan in place; the autopilot flies it.', toolCalls: [] },
        usage,
        finishReason: 'stop',
        model: this.id,
      };
    }
    const explore = /\bexplor|visit .*systems/i.test(lastUser?.content ?? '');
    const plan = explore
      ? { strategy: 'explore', intent: 'visit as many systems as the fuel allows' }
      : this.minePlan();
    this.calls += 1;
    return {
      message: {
        content: '',
        toolCalls: [{ id: `call_plan_${this.calls}`, name: 'set_plan', arguments: JSON.stringify(plan) }],
      },
      usage,
      finishReason: 'tool_calls',
      model: this.id,
    };
  }

  private minePlan(): ProposedPlan | { strategy: 'mine'; intent: string } {
    if (!this.options.plans)
      return { strategy: 'mine', intent: 'the best mining loop the autopilot finds; sell where it pays most' };
    const plan = this.options.plans(this.proposed.length);
    this.proposed.push(plan);
    return plan;
  }
}
