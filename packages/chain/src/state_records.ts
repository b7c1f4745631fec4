// State records (genesis / sandbox_patch_state JSON) as trie writes, without genesis's storage
// recomputation: a sandbox patch writes exactly what the caller gave, as nearcore's does.
import {
  accessKeyFromJson,
  base58Decode,
  encodeAccessKey,
  encodeAccount,
  fromBase64,
  parseAccountId,
  parsePublicKey,
  sha256,
} from '@nearlite/primitives';
import { trieKeyAccessKey, trieKeyAccount, trieKeyContractCode, trieKeyContractData } from '@nearlite/trie';

export class StateRecordError extends Error {
  override readonly name = 'StateRecordError';
}

export interface StateWrite {
  readonly accountId: string;
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  /** For Contract records: the account's code hash must follow. */
  readonly codeHash?: Uint8Array;
}

function str(o: Record<string, unknown>, k: string): string {
  const v = o[k];
  if (typeof v !== 'string') throw new StateRecordError(`record field '${k}' must be a string`);
  return v;
}

export function stateRecordToWrite(record: unknown): StateWrite {
  if (typeof record !== 'object' || record === null) throw new StateRecordError('a record must be an object');
  const [kind, body] = Object.entries(record)[0] ?? [];
  const o = body as Record<string, unknown>;
  if (!o || typeof o !== 'object') throw new StateRecordError('a record must have one variant');
  try {
    const accountId = parseAccountId(str(o, 'account_id'));
    switch (kind) {
      case 'Account': {
        const a = o.account as Record<string, unknown>;
        return {
          accountId,
          key: trieKeyAccount(accountId),
          value: encodeAccount({
            amount: BigInt(str(a, 'amount')),
            locked: BigInt(str(a, 'locked')),
            codeHash: base58Decode(str(a, 'code_hash')),
            storageUsage: BigInt(a.storage_usage as number),
          }),
        };
      }
      case 'AccessKey':
        return {
          accountId,
          key: trieKeyAccessKey(accountId, parsePublicKey(str(o, 'public_key'))),
          value: encodeAccessKey(accessKeyFromJson(o.access_key)),
        };
      case 'Contract': {
        const code = fromBase64(str(o, 'code'));
        return { accountId, key: trieKeyContractCode(accountId), value: code, codeHash: sha256(code) };
      }
      case 'Data':
        return {
          accountId,
          key: trieKeyContractData(accountId, fromBase64(str(o, 'data_key'))),
          value: fromBase64(str(o, 'value')),
        };
      default:
        throw new StateRecordError(`unsupported record kind '${String(kind)}'`);
    }
  } catch (err) {
    if (err instanceof StateRecordError) throw err;
    throw new StateRecordError(`invalid ${String(kind)} record: ${(err as Error).message}`);
  }
}
