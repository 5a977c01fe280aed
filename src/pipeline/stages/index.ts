/**
 * The pipeline as data: the stages every call passes through, in order
 * (SPEC F-PIPE). `executeCall` folds a call over this list; each stage is a
 * small function of the call's state, in its own file with its own test.
 */
import { convert } from './convert.ts';
import { handler } from './handler.ts';
import { outputLimit } from './output-limit.ts';
import { permission } from './permission.ts';
import { postHooks } from './post-hooks.ts';
import { preHooks } from './pre-hooks.ts';
import { resolve } from './resolve.ts';
import { resultValidate } from './result-validate.ts';
import type { CallStage } from './stage.ts';
import { validate } from './validate.ts';

export const STAGES: readonly CallStage[] = [resolve, convert, validate, preHooks, permission, handler, resultValidate, outputLimit, postHooks];

export { resolveCall } from './resolve.ts';
export { after, next, seedState, stop } from './stage.ts';
export type { Adds, CallState, Has, Pending, Pipeline, CallStage, Step } from './stage.ts';
