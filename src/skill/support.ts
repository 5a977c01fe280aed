import type { Outcome } from '../contract/index.ts';
import { adoption, methodText, type Adoption } from './adoption.ts';
import { load } from './bind.ts';
import type { BoundPackage, Stage } from './types.ts';

/** A text block as provider payloads carry it in `system`. */
export interface MethodBlock {
  readonly type: 'text';
  readonly text: string;
}

/** What the harness needs from an adopted package, per request. */
export interface MethodSupport {
  /** Blocks to append to the payload's `system` array for this stage, unaltered. */
  blocks(stage: Stage): readonly MethodBlock[];
  /** The adoption record, computed from the exact payload bytes that were sent. */
  adoption(stage: Stage, payload: Uint8Array): Outcome<Adoption>;
}

/**
 * Adapts a bound package to the harness: one `system` text block per request
 * holding `methodText(load(bound, stage))`, and adoption read back from bytes.
 * The two are deliberately independent — `adoption` never asks `blocks` what
 * was meant to be sent.
 */
export function methodSupport(bound: BoundPackage): MethodSupport {
  return Object.freeze({
    blocks: function methodBlocks(stage: Stage): readonly MethodBlock[] {
      return [{ type: 'text', text: methodText(load(bound, stage)) }];
    },
    adoption: function methodAdoption(stage: Stage, payload: Uint8Array): Outcome<Adoption> {
      return adoption(bound, stage, payload);
    },
  });
}
