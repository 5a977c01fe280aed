import { loadListedValidator, versionProfile } from '../mcp/index.ts';
import type { ResultSchema, ValidateOutput } from './checks.ts';

/**
 * The `output_valid` validator: Ajv, as a configured server's schemas are
 * compiled (the revision the server answered decides how a schema without
 * `$schema` is read). Loads Ajv's unit here, so only a caller that checks an
 * expectations run pays for it (`verify` of an excerpt run loads no ajv).
 */
export async function loadOutputValidator(): Promise<ValidateOutput> {
  const listedValidator = await loadListedValidator();
  return (result: ResultSchema, data: unknown): string | undefined => {
    const profile = versionProfile(result.protocolVersion);
    if (!profile) return `no validator: protocol version ${JSON.stringify(result.protocolVersion)} is not one this caplab reads`;
    const compiled = listedValidator(result.schema, 'outputSchema', 'output_valid', profile);
    if (!compiled.validator) return `no validator: ${compiled.findings[0]?.message ?? 'the schema did not compile'}`;
    const first = compiled.validator.validate(data)[0];
    return first === undefined ? undefined : `${first.path || '(data)'}: ${first.message} (${first.keyword})`;
  };
}
