import { fail, type Failure, type Outcome } from '../../contract/index.ts';
import type { CallContext, RuntimeTool, ToolOutput } from '../tool.ts';
import { after, next, stop, type Stage } from './stage.ts';

/**
 * Calls the handler with its timeout and an abort signal. A timeout leaves the
 * outcome unknown: the effect may have happened, so it is never retried here.
 */
export async function runHandler(tool: RuntimeTool, input: unknown, context: CallContext): Promise<Outcome<ToolOutput>> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Failure>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(fail('timeout', 'handler_timeout', `${tool.contract.name} did not finish within ${tool.attributes.timeoutMs} ms; outcome unknown`));
    }, tool.attributes.timeoutMs);
  });
  try {
    return await Promise.race([tool.handler(input, { ...context, signal: controller.signal }), timeout]);
  } catch (error) {
    // A handler that throws is a bug in it, but the call's outcome is still a value.
    return fail('business', 'handler_threw', `${tool.contract.name} threw: ${String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** handler: the only stage with side effects; from here on the call was entered, whatever its outcome. */
export const handler: Stage<'tool' | 'input'> = {
  name: 'handler',
  needs: ['tool', 'input'],
  run(state) {
    return after(runHandler(state.tool, state.input, state.context), (outcome) =>
      outcome.ok ? next({ handlerEntered: true, outcome }) : stop(outcome, { handlerEntered: true }),
    );
  },
};
