import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bind } from '../binding/index.ts';
import { fail, ok, sha256Hex, type Failure } from '../contract/index.ts';
import { defaultFs, writeFresh } from '../ledger/index.ts';
import { attributesOf, textBlock, type CallContext, type RuntimeTool } from '../pipeline/index.ts';
import { CARD_PATH, renderCard } from './card.ts';
import { createCardContract, type CardReceipt, type CreateCardInput } from './contracts.ts';
import { SOURCE_IDS } from './sources.ts';
import type { ExcerptRun } from './run-state.ts';
import { sourceById } from './snapshot.ts';

/** Version of the create_card implementation (part of its binding). */
export const CREATE_CARD_VERSION = 'create-card/1';

/**
 * Tool-specific checks, after the schema: fixed source order, verbatim quotes,
 * then the preconditions (sources disclosed in the producing request, fresh
 * target). Evidence is the snapshot and the recorded request payload.
 */
function checkCreateCard(run: ExcerptRun, input: CreateCardInput, context: CallContext): Failure | undefined {
  const { snapshot } = run;
  for (const [i, excerpt] of input.excerpts.entries()) {
    if (excerpt.source_id !== SOURCE_IDS[i]) {
      return fail('invalid_arguments', 'source_order', `excerpts[${i}] must quote ${SOURCE_IDS[i]}, got ${excerpt.source_id}`);
    }
    const source = sourceById(snapshot, excerpt.source_id);
    if (!source?.text.includes(excerpt.quote)) {
      const elsewhere = snapshot.sources.find((other) => other.id !== excerpt.source_id && other.text.includes(excerpt.quote));
      return elsewhere
        ? fail('invalid_arguments', 'quote_wrong_source', `excerpts[${i}].quote is from ${elsewhere.id}, not ${excerpt.source_id}`)
        : fail('invalid_arguments', 'quote_not_verbatim', `excerpts[${i}].quote is not a verbatim substring of ${excerpt.source_id}`);
    }
  }
  const disclosed = run.disclosedBy(context.request.id);
  const missing = input.excerpts.map((e) => e.source_id).filter((id) => !disclosed.includes(id));
  if (missing.length > 0) {
    return fail(
      'precondition',
      'sources_not_disclosed',
      `request ${context.request.id} did not contain the read_source result for ${missing.join(', ')}; read first and wait for the result`,
    );
  }
  if (existsSync(join(context.runDir, CARD_PATH))) {
    return fail('precondition', 'target_exists', `${CARD_PATH} already exists in this run; cards are never overwritten`);
  }
  return undefined;
}

/** create_card as a local function writing under the run dir; what a request disclosed is the run's record of it. */
export function localCreateCard(run: ExcerptRun): RuntimeTool {
  const { snapshot, runId } = run;
  return {
    contract: createCardContract,
    binding: bind(createCardContract, { implementation: { kind: 'local', version: CREATE_CARD_VERSION } }),
    attributes: attributesOf(createCardContract),
    check: (input, context) => checkCreateCard(run, input as CreateCardInput, context),
    handler: async (input, context) => {
      const { excerpts } = input as CreateCardInput;
      const quoted = excerpts.map((e) => sourceById(snapshot, e.source_id)!);
      const text = renderCard({
        runId,
        actionId: context.actionId,
        snapshotId: snapshot.id,
        excerpts: excerpts.map((e, i) => ({ sourceId: e.source_id, sourceSha256: quoted[i]!.sha256, quote: e.quote })),
      });
      const bytes = new TextEncoder().encode(text);
      // The run record's own writer: write-once, atomic, and no symlink followed under the run dir.
      const written = writeFresh(defaultFs, context.runDir, CARD_PATH, bytes, context.actionId.replace(/[^A-Za-z0-9_-]/g, '_'));
      if (!written.ok) return written;
      const receipt: CardReceipt = {
        action_id: context.actionId,
        path: CARD_PATH,
        sha256: sha256Hex(bytes),
        bytes: bytes.byteLength,
        sources: quoted.map((s) => ({ source_id: s.id as CardReceipt['sources'][number]['source_id'], sha256: s.sha256 })),
      };
      return ok({ data: receipt, content: [textBlock(JSON.stringify(receipt))], evidence: 'object created', objectVersion: receipt.sha256 });
    },
  };
}
