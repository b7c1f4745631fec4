// nearcore's genesis state applier: records → trie key/values. The last write of a key wins,
// Contract records must match the account's code_hash, storage_usage is recomputed (the record's
// value is ignored) and validators' locked balance is set to their stake.
import {
  type Account,
  accessKeyFromJson,
  base58Decode,
  base58Encode,
  bytesEqual,
  compareBytes,
  encodeAccessKey,
  encodeAccount,
  encodeGasKeyNonce,
  fromBase64,
  isUnversionedSentinel,
  parsePublicKeyHandle,
  sha256,
  UNVERSIONED_SENTINEL,
} from '@nearlite/primitives';
import {
  trieKeyAccessKey,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractData,
  trieKeyGasKeyNonce,
} from './trie_key.js';

export interface GenesisStateOptions {
  readonly numBytesAccount: bigint;
  readonly numExtraBytesRecord: bigint;
  readonly validators: readonly { readonly accountId: string; readonly amount: bigint }[];
}

export class GenesisStateError extends Error {
  override readonly name = 'GenesisStateError';
}

type Rec = Record<string, unknown>;

export function genesisStateFromRecords(
  records: readonly unknown[],
  o: GenesisStateOptions,
): { key: Uint8Array; value: Uint8Array }[] {
  const accounts = new Map<string, Account>();
  const kv = new Map<string, { key: Uint8Array; value: Uint8Array; accountId: string; kind: string }>();
  const codes: { accountId: string; code: Uint8Array }[] = [];
  const put = (accountId: string, kind: string, key: Uint8Array, value: Uint8Array) =>
    kv.set(Buffer.from(key).toString('latin1'), { key, value, accountId, kind });

  for (const r of records) {
    const [kind, body] = Object.entries(r as Rec)[0] ?? [];
    const b = body as Rec;
    const accountId = String(b?.account_id);
    switch (kind) {
      case 'Account': {
        const a = b.account as Rec;
        accounts.set(accountId, {
          amount: BigInt(String(a.amount)),
          locked: BigInt(String(a.locked)),
          codeHash: base58Decode(String(a.code_hash)),
          storageUsage: BigInt(Number(a.storage_usage ?? 0)),
        });
        break;
      }
      case 'AccessKey': {
        const pk = parsePublicKeyHandle(String(b.public_key));
        put(
          accountId,
          'key',
          trieKeyAccessKey(accountId, pk),
          encodeAccessKey(accessKeyFromJson(b.access_key)),
        );
        break;
      }
      case 'GasKeyNonce': {
        // Counted like a key below: its trie id and u16 index, the u64 nonce, the record overhead.
        const pk = parsePublicKeyHandle(String(b.public_key));
        const nonce = encodeGasKeyNonce(BigInt(String(b.nonce)));
        put(accountId, 'key', trieKeyGasKeyNonce(accountId, pk, Number(b.index)), nonce);
        break;
      }
      case 'Contract':
        codes.push({ accountId, code: fromBase64(String(b.code)) });
        break;
      case 'Data':
        put(
          accountId,
          'data',
          trieKeyContractData(accountId, fromBase64(String(b.data_key))),
          fromBase64(String(b.value)),
        );
        break;
      default:
        throw new GenesisStateError(`unsupported genesis record '${String(kind)}'`);
    }
  }
  for (const { accountId, code } of codes) {
    const account = accounts.get(accountId);
    if (!account) continue; // nearcore logs and skips code for a missing account
    const hash = sha256(code);
    if (!bytesEqual(hash, account.codeHash)) {
      throw new GenesisStateError(
        `genesis contract of ${accountId} hashes to ${base58Encode(hash)}, but its account has code_hash ${base58Encode(account.codeHash)}`,
      );
    }
    put(accountId, 'code', trieKeyContractCode(accountId), code);
  }
  for (const v of o.validators) {
    const a = accounts.get(v.accountId);
    if (a) a.locked = v.amount;
  }
  const usage = new Map<string, bigint>();
  for (const e of kv.values()) {
    let add: bigint;
    if (e.kind === 'code') add = BigInt(e.value.length);
    else if (e.kind === 'key') {
      // key = col ‖ account ‖ 0x02 ‖ borsh(pk): the borsh public key is what follows the separator
      const pkLen = e.key.length - 2 - Buffer.byteLength(e.accountId);
      add = o.numExtraBytesRecord + BigInt(pkLen) + BigInt(e.value.length);
    } else {
      const dataKeyLen = e.key.length - 2 - Buffer.byteLength(e.accountId);
      add = o.numExtraBytesRecord + BigInt(dataKeyLen) + BigInt(e.value.length);
    }
    usage.set(e.accountId, (usage.get(e.accountId) ?? 0n) + add);
  }
  for (const [accountId, a] of accounts) {
    a.storageUsage = o.numBytesAccount + (usage.get(accountId) ?? 0n);
    if (isUnversionedSentinel(a))
      throw new GenesisStateError(`genesis account ${accountId}: ${UNVERSIONED_SENTINEL}`);
    put(accountId, 'account', trieKeyAccount(accountId), encodeAccount(a));
  }
  return [...kv.values()]
    .filter((e) => e.kind === 'account' || accounts.has(e.accountId))
    .map(({ key, value }) => ({ key, value }))
    .sort((x, y) => compareBytes(x.key, y.key));
}
