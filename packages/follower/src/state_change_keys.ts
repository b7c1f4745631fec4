// A stream state change as a trie write: the trie key it touches and the value after it (null for a
// deletion), in nearcore's trie-value layouts, so views and the VM read history as they read a trie.
import {
  accessKeyFromJson,
  base58Decode,
  encodeAccessKey,
  encodeAccount,
  encodeGasKeyNonce,
  fromBase64,
  parsePublicKeyHandle,
} from '@nearlite/primitives';
import type { StateChangeWithCauseJson } from '@nearlite/stream';
import {
  trieKeyAccessKey,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractData,
  trieKeyGasKeyNonce,
} from '@nearlite/trie';

export interface StateWriteAt {
  readonly key: Uint8Array;
  readonly value: Uint8Array | null;
}

export class StateChangeError extends Error {
  override readonly name = 'StateChangeError';
}

/** The trie write a change stands for; null for kinds that touch no key a view can read. */
export function stateChangeWrite(c: StateChangeWithCauseJson): StateWriteAt | null {
  const ch = c.change as Record<string, unknown>;
  const account = String(ch.account_id);
  switch (c.type) {
    case 'account_update':
      return {
        key: trieKeyAccount(account),
        value: encodeAccount({
          amount: BigInt(String(ch.amount)),
          locked: BigInt(String(ch.locked)),
          codeHash: base58Decode(String(ch.code_hash)),
          storageUsage: BigInt(Number(ch.storage_usage)),
        }),
      };
    case 'account_deletion':
      return { key: trieKeyAccount(account), value: null };
    case 'access_key_update':
      return {
        key: trieKeyAccessKey(account, parsePublicKeyHandle(String(ch.public_key))),
        value: encodeAccessKey(accessKeyFromJson(ch.access_key)),
      };
    case 'access_key_deletion':
      return { key: trieKeyAccessKey(account, parsePublicKeyHandle(String(ch.public_key))), value: null };
    case 'gas_key_nonce_update':
      return {
        key: trieKeyGasKeyNonce(account, parsePublicKeyHandle(String(ch.public_key)), Number(ch.index)),
        value: encodeGasKeyNonce(BigInt(ch.nonce as number | string)),
      };
    case 'data_update':
      return {
        key: trieKeyContractData(account, fromBase64(String(ch.key_base64))),
        value: fromBase64(String(ch.value_base64)),
      };
    case 'data_deletion':
      return { key: trieKeyContractData(account, fromBase64(String(ch.key_base64))), value: null };
    case 'contract_code_update':
      return { key: trieKeyContractCode(account), value: fromBase64(String(ch.code_base64)) };
    case 'contract_code_deletion':
      return { key: trieKeyContractCode(account), value: null };
    default:
      return null;
  }
}
