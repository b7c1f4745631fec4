import { readFileSync } from 'node:fs';
// @ts-expect-error plain ESM script shared with the CLI helper
import { ensureContract } from '../../scripts/fetch-contracts.mjs';

/** A real contract from its npm package (cached under test/.contracts, sha256-checked). */
export function contract(name: string): Uint8Array {
  return new Uint8Array(readFileSync(ensureContract(name) as string));
}
