// What a follower cannot answer from the block stream alone, when it was started without
// --upstream-rpc to ask: each error says what is missing and where to ask instead.
import { HandlerError } from '@nearlite/primitives';

/**
 * A transaction sent to a node with nobody to send it to. One text for every method that sends one:
 * broadcast_tx_commit and send_tx reach the backend as the same call.
 */
export function readOnly(): HandlerError {
  const message =
    'this node follows a block stream and was started without --upstream-rpc: it has no validator to send a transaction to';
  return HandlerError.internal(message);
}

/** nearcore's own error for validator views it cannot answer. */
export function validatorInfoUnavailable(): HandlerError {
  return new HandlerError('VALIDATOR_INFO_UNAVAILABLE', undefined, 'Validator info unavailable');
}

export function lightClientUnavailable(method: string): HandlerError {
  const message = `${method}: this node follows a block stream and keeps no block merkle tree or approvals to prove with, and was started without --upstream-rpc to ask`;
  return HandlerError.internal(message);
}

/** `include_proof` needs the trie's nodes, which no follower has: the stream carries no trie. */
export function proofUnavailable(): HandlerError {
  const message =
    'this node follows a block stream and keeps state as history, without trie nodes: it cannot prove state (include_proof), and was started without --upstream-rpc to ask; ask a validator or archival node';
  return HandlerError.internal(message);
}

/**
 * A view call read a validator's stake at a block whose stakes this history cannot work out (it does
 * not reach back to the chain's first epoch, or follows a real network, whose stream carries none).
 */
export class StakesNotKnown extends HandlerError {
  constructor(readonly height: number) {
    const message = `the validators' stakes at block #${height} are not known here: this node follows a block stream, which does not carry them, from after the chain's first epoch, and was started without --upstream-rpc to ask; ask a validator or archival node`;
    super('INTERNAL_ERROR', { error_message: message }, message);
  }
}

/** Global contract code travels in distribution receipts, not in the stream's state changes. */
export function globalCodeUnavailable(): HandlerError {
  const message =
    'this node follows a block stream, which does not carry global contract code, and was started without --upstream-rpc to ask for it; ask a validator or archival node';
  return HandlerError.internal(message);
}
