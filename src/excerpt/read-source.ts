import { bind } from '../binding/index.ts';
import { fail, ok } from '../contract/index.ts';
import { attributesOf, textBlock, type RuntimeTool } from '../pipeline/index.ts';
import { readSourceContract } from './contracts.ts';
import { readSourceResult } from './read-result.ts';
import type { Snapshot } from './snapshot.ts';

/** Version of the local read_source implementation (part of its binding). */
export const LOCAL_READ_SOURCE_VERSION = 'local-read-source/1';

/** read_source as a local function over the startup snapshot. */
export function localReadSource(snapshot: Snapshot): RuntimeTool {
  return {
    contract: readSourceContract,
    binding: bind(readSourceContract, { implementation: { kind: 'local', version: LOCAL_READ_SOURCE_VERSION } }),
    attributes: attributesOf(readSourceContract),
    handler: async (input) => {
      const id = (input as { source_id: string }).source_id;
      const data = readSourceResult(snapshot, id);
      if (!data) return fail('invalid_arguments', 'unknown_source', `no source ${JSON.stringify(id)} in the snapshot`);
      return ok({ data, content: [textBlock(data.text)], evidence: 'bytes observed now', objectVersion: data.sha256 });
    },
  };
}
