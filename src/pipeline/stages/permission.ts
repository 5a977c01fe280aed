import { permissionFailure } from '../permissions/index.ts';
import { next, stop, type CallStage } from './stage.ts';

/** permission: the injected policy decides, given the hooks' decision; a deny stops the call. */
export const permission: CallStage<'tool'> = {
  name: 'permission',
  needs: ['tool'],
  run(state) {
    const decision = state.pipeline.permission(state.tool, state.hookDecision);
    if (decision.decision === 'deny') return stop(permissionFailure(decision), { permission: decision });
    return next({ permission: decision }, `${decision.by}: ${decision.reason}`);
  },
};
