import { fail, type Outcome } from '../../contract/index.ts';
import { withDeadline } from '../deadline.ts';
import type { CallContext, RuntimeTool, ToolOutput } from '../tool.ts';
import { interrupted } from './interrupted.ts';
import { after, next, stop, type CallStage } from './stage.ts';

/**
 * Calls the handler with its timeout; its signal aborts on the run's
 * interruption or at the timeout (`withDeadline`). A timeout leaves the
 * outcome unknown: the effect may have happened, so it is never retried here.
 */
export async function runHandler(tool: RuntimeTool, input: unknown, context: CallContext): Promise<Outcome<ToolOutput>> {
  const { name } = tool.contract;
  const { timeoutMs } = tool.attributes;
  try {
    return await withDeadline(
      context.signal,
      timeoutMs,
      () => fail('timeout', 'handler_timeout', `${name} did not finish within ${timeoutMs} ms; outcome unknown`),
      (signal) => tool.handler(input, { ...context, signal }),
    );
  } catch (error) {
    // A handler that throws is a bug in it, but the call's outcome is still a value.
    return fail('business', 'handler_threw', `${name} threw: ${String(error)}`);
  }
}

/**
 * handler: the only stage with side effects; from here on the call was
 * entered, whatever its outcome. A run interrupted before it gets here enters
 * no handler.
 */
export const handler: CallStage<'tool' | 'input'> = {
  name: 'handler',
  needs: ['tool', 'input'],
  run(state) {
    const { signal } = state.context;
    if (signal.aborted) return stop(interrupted(signal));
    return after(runHandler(state.tool, state.input, state.context), (outcome) =>
      outcome.ok ? next({ handlerEntered: true, outcome }) : stop(outcome, { handlerEntered: true }),
    );
  },
};
