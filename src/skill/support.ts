import type { Outcome } from '../contract/index.ts';
import { adoption, methodText, type Adoption } from './adoption.ts';
import { load } from './bind.ts';
import { plainAdoption, plainMethodText, type PlainAdoption } from './plain.ts';
import type { BoundPackage, Package, MethodStage } from './types.ts';

/** A text block as provider payloads carry it in `system`. */
export interface MethodBlock {
  readonly type: 'text';
  readonly text: string;
}

/** What an adopted package gives per request: its blocks for a stage, and adoption computed from the payload bytes (the host maps it to the loop's `MethodSupport`). */
export interface PackageSupport {
  /** Blocks to append to the payload's `system` array for this stage, unaltered. */
  blocks(stage: MethodStage): readonly MethodBlock[];
  /** The adoption record, computed from the exact payload bytes that were sent. */
  adoption(stage: MethodStage, payload: Uint8Array): Outcome<Adoption | PlainAdoption>;
}

/**
 * Adapts a bound package to the harness: one `system` text block per request
 * holding `methodText(load(bound, stage))` (a plain package: its body, the
 * same for every stage), and adoption read back from bytes. The two are
 * deliberately independent — `adoption` never asks `blocks` what was meant
 * to be sent.
 */
export function methodSupport(bound: BoundPackage<Package>): PackageSupport {
  const pkg = bound.package;
  if (pkg.kind === 'plain') {
    return Object.freeze({
      blocks: function plainBlocks(): readonly MethodBlock[] {
        return [{ type: 'text', text: plainMethodText(pkg) }];
      },
      adoption: function plainMethodAdoption(_stage: MethodStage, payload: Uint8Array): Outcome<PlainAdoption> {
        return plainAdoption(pkg, payload);
      },
    });
  }
  const staged = { package: pkg, tools: bound.tools };
  return Object.freeze({
    blocks: function methodBlocks(stage: MethodStage): readonly MethodBlock[] {
      return [{ type: 'text', text: methodText(load(staged, stage)) }];
    },
    adoption: function methodAdoption(stage: MethodStage, payload: Uint8Array): Outcome<Adoption> {
      return adoption(staged, stage, payload);
    },
  });
}
