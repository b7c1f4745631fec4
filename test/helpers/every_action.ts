// One of every Action and ReceiptEnum variant nearcore has, for codecs that must cover them all.
import { type Action, KeyType, type Receipt } from '@nearlite/primitives';

const pk = (fill: number) => ({ keyType: KeyType.ED25519, data: new Uint8Array(32).fill(fill) });
const sig = { keyType: KeyType.ED25519, data: new Uint8Array(64).fill(7) };
const hash = (fill: number) => new Uint8Array(32).fill(fill);

/** Every action a delegate action may hold. */
export const NON_DELEGATE_ACTIONS: Action[] = [
  { type: 'CreateAccount' },
  { type: 'DeployContract', code: Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0) },
  {
    type: 'FunctionCall',
    methodName: 'go',
    args: Uint8Array.of(123, 125),
    gas: 30_000_000_000_000n,
    deposit: 1n,
  },
  { type: 'Transfer', deposit: 10n ** 24n },
  { type: 'Stake', stake: 5n * 10n ** 28n, publicKey: pk(1) },
  { type: 'AddKey', publicKey: pk(2), accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } } },
  {
    type: 'AddKey',
    publicKey: pk(3),
    accessKey: {
      nonce: 7n,
      permission: { kind: 'FunctionCall', allowance: null, receiverId: 'app.near', methodNames: ['a', 'b'] },
    },
  },
  {
    type: 'AddKey',
    publicKey: pk(4),
    accessKey: {
      nonce: 0n,
      permission: {
        kind: 'FunctionCall',
        allowance: null,
        receiverId: 'app.near',
        methodNames: [],
        gasKey: { balance: 10n ** 21n, numNonces: 4 },
      },
    },
  },
  {
    type: 'AddKey',
    publicKey: pk(5),
    accessKey: { nonce: 0n, permission: { kind: 'FullAccess', gasKey: { balance: 3n, numNonces: 2 } } },
  },
  { type: 'DeleteKey', publicKey: pk(6) },
  { type: 'DeleteAccount', beneficiaryId: 'bob.near' },
  { type: 'DeployGlobalContract', code: Uint8Array.of(0, 97, 115, 109), deployMode: 0 },
  { type: 'DeployGlobalContract', code: Uint8Array.of(0, 97, 115, 109), deployMode: 1 },
  { type: 'UseGlobalContract', identifier: { kind: 'CodeHash', hash: hash(8) } },
  { type: 'UseGlobalContract', identifier: { kind: 'AccountId', accountId: 'lib.near' } },
  {
    type: 'DeterministicStateInit',
    code: { kind: 'AccountId', accountId: 'lib.near' },
    data: [
      [Uint8Array.of(1), Uint8Array.of(2, 3)],
      [Uint8Array.of(4, 5), Uint8Array.of()],
    ],
    deposit: 42n,
  },
  { type: 'TransferToGasKey', publicKey: pk(4), deposit: 9n },
  { type: 'WithdrawFromGasKey', publicKey: pk(4), amount: 8n },
];

const delegate = {
  senderId: 'alice.near',
  receiverId: 'app.near',
  actions: NON_DELEGATE_ACTIONS,
  nonce: 5n,
  maxBlockHeight: 1_000n,
  publicKey: pk(9),
};

export const EVERY_ACTION: Action[] = [
  ...NON_DELEGATE_ACTIONS,
  { type: 'Delegate', delegateAction: delegate, signature: sig },
  { type: 'DelegateV2', delegateAction: delegate, signature: sig },
  { type: 'DelegateV2', delegateAction: { ...delegate, nonceIndex: 3 }, signature: sig },
];

const action = {
  kind: 'Action' as const,
  signerId: 'alice.near',
  signerPublicKey: pk(9),
  gasPrice: 100_000_000n,
  outputDataReceivers: [{ dataId: hash(1), receiverId: 'bob.near' }],
  inputDataIds: [hash(2), hash(3)],
  actions: EVERY_ACTION,
};

const ids = { predecessorId: 'alice.near', receiverId: 'app.near', receiptId: hash(4) };

/** Every ReceiptEnum variant (Action, PromiseYield, their V2 forms, Data, PromiseResume, both distributions). */
export const EVERY_RECEIPT: Receipt[] = [
  { ...ids, receipt: action },
  { ...ids, receipt: { ...action, inputDataIds: [hash(2)], isPromiseYield: true } },
  { ...ids, receipt: { ...action, refundTo: 'refunds.near' } },
  { ...ids, receipt: { ...action, refundTo: null } },
  { ...ids, receipt: { ...action, inputDataIds: [hash(2)], isPromiseYield: true, refundTo: 'r.near' } },
  { ...ids, receipt: { kind: 'Data', dataId: hash(5), data: Uint8Array.of(1, 2) } },
  { ...ids, receipt: { kind: 'Data', dataId: hash(5), data: null, isPromiseResume: true } },
  {
    ...ids,
    receipt: {
      kind: 'GlobalContractDistribution',
      id: { kind: 'CodeHash', hash: hash(6) },
      targetShard: 2n,
      alreadyDeliveredShards: [0n, 1n],
      code: Uint8Array.of(0, 97, 115, 109),
    },
  },
  {
    ...ids,
    receipt: {
      kind: 'GlobalContractDistribution',
      id: { kind: 'AccountId', accountId: 'lib.near' },
      targetShard: 0n,
      alreadyDeliveredShards: [],
      code: Uint8Array.of(0, 97, 115, 109),
      nonce: 3n,
    },
  },
];
