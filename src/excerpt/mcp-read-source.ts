import { bind } from '../binding/index.ts';
import { fail, ok, sha256Hex, type Outcome } from '../contract/index.ts';
import { MCP_ADAPTER_VERSION, mcpGapsOf, protocolExchange, type ExpectedTool, type StrictClient } from '../mcp/index.ts';
import { attributesOf, textBlock, type CallContext, type RuntimeTool, type ToolOutput } from '../pipeline/index.ts';
import { readSourceContract, type ReadSourceResult } from './contracts.ts';
import { sourceById, type Snapshot, type SourceSnapshot } from './snapshot.ts';

/**
 * read_source as the strict client pins it. Its text block carries the
 * serialized structuredContent (the spec's SHOULD), so the default agreement
 * rule applies; the model is shown `data.text` from the checked structured
 * result as its one text block (see the handler), never the raw text block.
 */
export const READ_SOURCE_EXPECTED: ExpectedTool = { contract: readSourceContract };

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, index) => byte === b[index]);
}

/**
 * Compares a read_source result with the host's own startup snapshot. The
 * host hashes the bytes it received; the server's sha256, byte count and
 * snapshot id are only claims, each compared with what the host knows.
 *
 * When the received text is the snapshot's text (equal JS strings have equal
 * UTF-8 bytes, and the snapshot's text decodes its bytes exactly), the host's
 * hash and length of what it received are the snapshot's own, computed once
 * at snapshot time — so nothing is re-encoded or re-hashed; the claims are
 * still compared with them.
 *
 * @returns The snapshot's source the result was found to carry, or the failure.
 */
export function checkAgainstSnapshot(snapshot: Snapshot, requested: string, data: ReadSourceResult): Outcome<SourceSnapshot> {
  const source = sourceById(snapshot, requested);
  if (!source) return fail('evidence', 'source_mismatch', `source ${requested} is not in the host snapshot`);
  if (data.source_id !== requested) {
    return fail('evidence', 'source_mismatch', `asked for ${requested}, server answered ${data.source_id}`);
  }
  const same = data.text === source.text;
  const received = same ? source.bytes : new TextEncoder().encode(data.text);
  const observed = same ? source.sha256 : sha256Hex(received);
  if (data.sha256 !== observed || data.bytes !== received.byteLength) {
    return fail('evidence', 'hash_mismatch', `${requested}: server claims sha256 ${data.sha256} / ${data.bytes} bytes; host computed ${observed} / ${received.byteLength}`);
  }
  if (!same && (observed !== source.sha256 || !equalBytes(received, source.bytes))) {
    return fail('evidence', 'source_mismatch', `${requested}: received bytes (sha256 ${observed}) differ from the host snapshot (${source.sha256})`);
  }
  if (data.snapshot !== snapshot.id) {
    return fail('evidence', 'source_mismatch', `${requested}: server snapshot ${data.snapshot} ≠ host snapshot ${snapshot.id}`);
  }
  return ok(source);
}

export interface McpReadSourceOptions {
  /** Model-visible name (default `read_source`; `mcp__<server>__read_source` where a namespace is needed). */
  readonly toolName?: string;
}

/**
 * read_source over the strict client as an ordinary runtime tool: the same
 * contract, the same pipeline; the binding adds the server identity and gaps.
 */
export function mcpReadSource(client: StrictClient, snapshot: Snapshot, options: McpReadSourceOptions = {}): RuntimeTool {
  const binding = bind(readSourceContract, {
    ...(options.toolName ? { tool: options.toolName } : {}),
    implementation: { kind: 'mcp', version: MCP_ADAPTER_VERSION },
    server: client.identity,
    gaps: mcpGapsOf(client.identity.endpoint),
  });
  return {
    contract: readSourceContract,
    binding,
    attributes: attributesOf(readSourceContract, { fromMcp: true }),
    async handler(input: unknown, context: CallContext): Promise<Outcome<ToolOutput>> {
      const requested = (input as { source_id: string }).source_id;
      const called = await client.callTool(readSourceContract.name, input, {
        toolCallId: context.toolCallId,
        actionId: context.actionId,
        signal: context.signal,
      });
      if (!called.ok) return called;
      const data = called.value.structured as ReadSourceResult;
      const checked = checkAgainstSnapshot(snapshot, requested, data);
      if (!checked.ok) return checked;
      return ok({
        data,
        content: [textBlock(data.text)],
        evidence: 'bytes observed now',
        // The host's hash of the bytes received: checked equal to the snapshot's.
        objectVersion: checked.value.sha256,
        protocol: protocolExchange(client, called.value.exchange),
      });
    },
  };
}
