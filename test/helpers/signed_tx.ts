// A transaction from the validator account, signed by near-api-js with the home's key: the next nonce
// of the key and the head's hash as the running node answers them.
import {
  type Action,
  baseDecode,
  baseEncode,
  createTransaction,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import type { RunningNode } from './node.js';

export interface SignedTx {
  /** base58, as the node names it. */
  readonly hash: string;
  /** The signed transaction in base64, as send_tx takes it. */
  readonly base64: string;
}

export async function signFromValidator(
  node: RunningNode,
  key: { readonly account_id: string; readonly secret_key: string },
  receiverId: string,
  actions: Action[],
  /** The key's next nonce when absent. */
  nonce?: bigint,
  /** The block the transaction names (base58); the head's when absent. */
  blockHash?: string,
): Promise<SignedTx> {
  const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
  const pk = await signer.getPublicKey();
  const next = async () => {
    const ak = await node.rpc<{ nonce: number }>('query', {
      request_type: 'view_access_key',
      account_id: key.account_id,
      public_key: pk.toString(),
      finality: 'optimistic',
    });
    return BigInt(ak.body.result!.nonce) + 1n;
  };
  const head = async () =>
    (await node.rpc<{ header: { hash: string } }>('block', { finality: 'optimistic' })).body.result!.header
      .hash;
  const tx = createTransaction(
    key.account_id,
    pk,
    receiverId,
    nonce ?? (await next()),
    actions,
    baseDecode(blockHash ?? (await head())),
  );
  const { txHash, signedTransaction } = await signer.signTransaction(tx);
  return { hash: baseEncode(txHash), base64: Buffer.from(signedTransaction.encode()).toString('base64') };
}
