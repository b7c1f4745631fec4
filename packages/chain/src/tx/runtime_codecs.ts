// The transaction codecs the chain's services need, implemented with the runtime's decoders,
// views and verifier.
import {
  decodeReceipt,
  decodeSignedTransaction,
  formatPublicKey,
  receiptView,
  type SignedTransaction,
  signedTransactionView,
  stringifyJson,
} from '@nearlite/primitives';
import { decodeOutcome, outcomeView, type RuntimeConfig } from '@nearlite/runtime';
import { DecodedRows } from '@nearlite/store';
import type { ChainHandle } from '../chain_handle.js';
import { flatStateReader } from '../flat_state.js';
import { checkTransaction } from './check_transaction.js';
import type { TxCodecs } from './codecs.js';

export function runtimeTxCodecs(chain: ChainHandle, config: RuntimeConfig): TxCodecs {
  // A transaction sent with send_tx is decoded for admission, for its verification and for its
  // answer, each time hashing it: one decode serves all three while its bytes live. Bytes handed to
  // the codecs are a request's or a stored row's, never written after.
  const decoded = new DecodedRows<SignedTransaction>();
  const decode = (bytes: Uint8Array): SignedTransaction => decoded.of(bytes, decodeSignedTransaction);
  return {
    decodeTransaction(bytes) {
      const stx = decode(bytes);
      const t = stx.transaction;
      return {
        hash: stx.hash,
        signerId: t.signerId,
        receiverId: t.receiverId,
        blockHash: t.blockHash,
        nonce: t.nonce,
        // Each of a gas key's nonces is a sequence of its own.
        accessKeyId: `${t.signerId}:${formatPublicKey(t.publicKey)}${t.nonceIndex === undefined ? '' : `#${t.nonceIndex}`}`,
        signatureCheck: { message: stx.hash, publicKey: t.publicKey, signature: stx.signature },
      };
    },
    transactionView: (bytes) => signedTransactionView(decode(bytes)),
    receiptView: (bytes) => receiptView(decodeReceipt(bytes)),
    decodeOutcome(bytes) {
      const out = decodeOutcome(bytes);
      const status =
        out.status.kind === 'SuccessValue'
          ? { kind: 'SuccessValue' as const, value: out.status.value }
          : out.status.kind === 'SuccessReceiptId'
            ? { kind: 'SuccessReceiptId' as const, receiptId: out.status.receiptId }
            : out.status.kind === 'Failure'
              ? { kind: 'Failure' as const, error: out.status.error }
              : { kind: 'Unknown' as const };
      // Status checks decode every outcome of a transaction on each block that touches it; the view is
      // only written for the answer. The decoded row is kept while its bytes are cached: once the
      // view is written, the outcome it was written from (its gas profile's maps among it) is let go.
      let viewJson: string | undefined;
      let full: typeof out | undefined = out;
      return {
        receiptIds: out.receiptIds,
        status,
        get viewJson() {
          if (viewJson === undefined) {
            viewJson = stringifyJson(outcomeView(full!));
            full = undefined;
          }
          return viewJson;
        },
      };
    },
    verify(bytes, ctx) {
      const stx = decode(bytes);
      const shardId = chain.layout.accountIdToShardId(stx.transaction.signerId);
      return checkTransaction(flatStateReader(chain.store, shardId), stx, {
        config,
        layout: chain.layout,
        gasPrice: ctx.gasPrice,
        ...(ctx.congestion ? { congestion: ctx.congestion } : {}),
        ...(ctx.signatureVerdict === undefined ? {} : { signatureVerdict: ctx.signatureVerdict }),
      });
    },
  };
}
