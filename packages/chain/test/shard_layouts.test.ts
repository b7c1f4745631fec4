// The same transactions on a chain of one shard, on a chain of four, and on a chain of four whose
// epochs last six blocks. nearcore's fees, refunds and burns depend neither on which shard an
// account lives on nor on where epochs end: a receipt that crosses shards runs a block later,
// nothing more. So once each wave of transactions has run to the end, every account, access key and
// contract is the same on all three chains, and the total supply, which counts every yocto burnt,
// is the same on the two whose epochs do not end (an epoch's end mints rewards to the validator, the
// one account left out of the comparison with the third). A difference names a path that charges,
// refunds or routes by shard or by epoch. The waves hold transfers (to implicit accounts too), calls
// relayed between contracts, sub-accounts made (some using a global contract) and deleted, keys added
// and deleted, and meta transactions of the sub-accounts relayed by their parents.
// Each wave's transactions commute: every signer sends one, amounts stay far below balances, and no
// account is made or deleted while something is on its way to it, so the order in which receipts
// meet does not change what they leave. The contracts touch no storage: nearcore charges a storage
// access by the trie nodes on its key's path (touching_trie_node, read_cached_trie_node), which the
// other keys of the shard shape, so there the gas does depend on the layout.
import { createHash } from 'node:crypto';
import { type Chain, decodeBytesList, type Signer } from '@nearlite/chain';
import {
  type AccessKey,
  type Action,
  type DelegateAction,
  decodeAccessKey,
  decodeAccount,
  delegateActionHash,
  KeyType,
  type PublicKey,
  toHex,
} from '@nearlite/primitives';
import { blockShardKey, DBCol, Store } from '@nearlite/store';
import { parseTrieKey, TrieKeyCol } from '@nearlite/trie';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';
import { deployToUsers, keyNonce, keysLeft, NEAR, Sender, USERS, withUsers } from './four_shards.js';
import { goArgs, relay } from './relay_contract.js';

const WAVES = Number(process.env.LAYOUT_WAVES ?? 16);
const GHOST = 'ghost.near';
/** The chains' validator, and their protocol treasury. */
const VALIDATOR = 'test.near';

/** A transaction of the wave, its actions written for one of the chains (their keys differ). */
interface Op {
  readonly signerId: string;
  readonly receiverId: string;
  readonly actions: (twin: Twin) => Action[];
}

interface Twin {
  readonly name: string;
  readonly signer: Signer;
  /** Whether epochs end during the run, minting rewards to the validator. */
  readonly epochs: boolean;
  readonly chain: Chain;
  readonly sender: Sender;
  readonly own: PublicKey;
}

const keyOf = (seed: string): PublicKey => ({
  keyType: KeyType.ED25519,
  data: createHash('sha256').update(seed).digest(),
});

const json = (v: unknown) =>
  JSON.stringify(v, (_, x) =>
    typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? toHex(x) : x,
  );

/**
 * What the chain's state says of accounts at its head: each account, access key (the validator's own
 * key, which differs between the two chains, named `own`; nonces left out, since a new key's starts
 * at its block's height), contract and record, as text.
 */
function accountState(twin: Twin): Map<string, string> {
  const { chain, own } = twin;
  const head = chain.head().hash;
  const out = new Map<string, string>();
  for (const shardId of chain.layout.shardIds) {
    for (const [key, value] of chain.stateTrie(head, shardId)!.iterPrefix(new Uint8Array(0))) {
      switch (key[0]) {
        case TrieKeyCol.Account: {
          const p = parseTrieKey(key) as { accountId: string };
          const a = decodeAccount(value);
          out.set(`account ${p.accountId}`, json(a));
          break;
        }
        case TrieKeyCol.AccessKey: {
          const p = parseTrieKey(key) as { col: string; accountId: string; publicKey: PublicKey };
          const pk = toHex(p.publicKey.data) === toHex(own.data) ? 'own' : toHex(p.publicKey.data);
          const { permission }: AccessKey = decodeAccessKey(value);
          out.set(`key ${p.accountId} ${pk}`, json(permission));
          break;
        }
        case TrieKeyCol.ContractCode: {
          const p = parseTrieKey(key) as { accountId: string };
          out.set(`code ${p.accountId}`, createHash('sha256').update(value).digest('hex'));
          break;
        }
        case TrieKeyCol.ContractData: {
          const p = parseTrieKey(key) as { accountId: string; key: Uint8Array };
          out.set(`data ${p.accountId} ${toHex(p.key)}`, toHex(value));
          break;
        }
      }
    }
  }
  return out;
}

/** Whether anything of the transactions sent is still to run: pooled, waiting in state, or on its way. */
function busy(chain: Chain): boolean {
  const head = chain.head().hash;
  if (chain.pool.size > 0) return true;
  const waiting = keysLeft(chain, head, [
    TrieKeyCol.PostponedReceipt,
    TrieKeyCol.PendingDataCount,
    TrieKeyCol.ReceivedData,
    TrieKeyCol.DelayedReceiptOrIndices,
    TrieKeyCol.PromiseYieldReceipt,
  ]);
  if (waiting.length > 0) return true;
  return chain.layout.shardIds.some((shardId) => {
    const out = chain.store.get(DBCol.OutgoingReceipts, blockShardKey(head, shardId));
    return out !== undefined && decodeBytesList(out).length > 0;
  });
}

/** Produces blocks until the chain has been quiet for three in a row; returns how many it made. */
async function settle(twin: Twin): Promise<number> {
  let quiet = 0;
  let made = 0;
  while (quiet < 3 && made < 60) {
    await twin.chain.produceBlock();
    made++;
    quiet = busy(twin.chain) ? 0 : quiet + 1;
  }
  return made;
}

/**
 * Where `accountId`'s nonces count on from on the twin's chain. An account made by a receipt gets its
 * key at a nonce of its block's height times a million, so the chains' nonces differ.
 */
function startNonces(twin: Twin, accountId: string): void {
  const { chain, sender, own } = twin;
  if (!sender.nonces.has(accountId)) sender.nonces.set(accountId, keyNonce(chain, accountId, own) ?? 0n);
}

function send(twin: Twin, op: Op): void {
  startNonces(twin, op.signerId);
  twin.sender.send(op.signerId, op.receiverId, op.actions(twin));
}

/** A meta transaction: `senderId`'s actions, signed with its key (the twin's own) for a relayer. */
function delegate(twin: Twin, senderId: string, receiverId: string, inner: Action[]): Action {
  startNonces(twin, senderId);
  const nonce = twin.sender.nonces.get(senderId)! + 1n;
  twin.sender.nonces.set(senderId, nonce);
  const d: DelegateAction = {
    senderId,
    receiverId,
    actions: inner,
    nonce,
    maxBlockHeight: BigInt(twin.chain.headHeader().lite.height + 100),
    publicKey: twin.own,
  };
  return { type: 'Delegate', delegateAction: d, signature: twin.signer.sign(delegateActionHash(d)) };
}

t.test('one shard, four, short epochs: the same transactions leave the same accounts', async (t) => {
  const seed = Number(process.env.LAYOUT_SEED ?? 20261205);
  t.comment(`seed ${seed} (LAYOUT_SEED reruns it)`);
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const amount = (maxNear: number) => BigInt(Math.floor(random() * maxNear * 1e6)) * 10n ** 18n + 1n;

  const relayCode = await relay('return');
  const twins: Twin[] = [];
  for (const [numShards, epochLength] of [
    [1, 1000],
    [4, 1000],
    [4, 6],
  ] as const) {
    const { raw, signer } = withUsers([], numShards);
    (raw as typeof raw & { epoch_length: number }).epoch_length = epochLength;
    const chain = await openProtocol86Chain(raw, signer, await Store.memory(), { vm: true });
    twins.push({
      name: `${numShards} shard(s), epochs of ${epochLength}`,
      signer,
      epochs: epochLength < 1000,
      chain,
      sender: new Sender(chain, signer),
      own: signer.publicKey,
    });
  }
  const [one, four, short] = twins as [Twin, Twin, Twin];
  t.equal(one.chain.layout.shardIds.length, 1);
  t.equal(
    new Set(USERS.map((id) => four.chain.layout.accountIdToShardId(id))).size,
    4,
    'the users are spread over the four shards',
  );
  for (const twin of twins)
    t.ok(await deployToUsers(twin.chain, twin.sender, relayCode), `${twin.name}: relays deployed`);

  // Accounts the waves made and have not deleted, by their parent; keys added, by their account.
  const subs = new Map<string, string[]>(USERS.map((id) => [id, []]));
  const addedKeys = new Map<string, PublicKey[]>(USERS.map((id) => [id, []]));
  let made = 0;
  let calls = 0;
  // Sub-accounts whose actions users relayed.
  const relayedFor = new Set<string>();
  const globalOwner = USERS[0]!;
  // Set by opFor, which the compiler's narrowing does not follow.
  let globalState = 'none' as 'none' | 'sent' | 'ready';
  // Within a wave: accounts made or deleted in it are nobody's receiver, and an account something
  // is sent to is not deleted, so that no receipt's outcome depends on which runs first.
  const fresh = new Set<string>();
  const doomed = new Set<string>();
  const touched = new Set<string>();

  const receiver = () => {
    const live = [...subs.values()].flat().filter((id) => !fresh.has(id) && !doomed.has(id));
    const to = pick([...USERS, GHOST, ...live]);
    touched.add(to);
    return to;
  };
  const opFor = (user: string): Op | null => {
    const r = random();
    if (globalState === 'none' && user === globalOwner) {
      globalState = 'sent';
      return {
        signerId: user,
        receiverId: user,
        actions: () => [{ type: 'DeployGlobalContract', code: relayCode, deployMode: 1 }],
      };
    }
    if (r < 0.2) {
      const to = receiver();
      const deposit = amount(5);
      return { signerId: user, receiverId: to, actions: () => [{ type: 'Transfer', deposit }] };
    }
    if (r < 0.3) {
      // A NEAR-implicit account, made by the transfer.
      const to = toHex(keyOf(`implicit ${seed} ${made++}`).data);
      const deposit = amount(1);
      return { signerId: user, receiverId: to, actions: () => [{ type: 'Transfer', deposit }] };
    }
    if (r < 0.55) {
      const id = new Uint8Array(8);
      new DataView(id.buffer).setUint32(0, calls++);
      const targets = Array.from({ length: random() < 0.5 ? 1 : 2 }, () => ({
        accountId: receiver(),
        fail: random() < 0.25,
      }));
      const caller = pick(USERS);
      const args = goArgs({ caller, id, targets });
      const deposit = random() < 0.5 ? 0n : amount(1);
      // Now and then with a transfer before the call in the same receipt.
      const before: Action[] = random() < 0.2 ? [{ type: 'Transfer', deposit: amount(1) }] : [];
      return {
        signerId: user,
        receiverId: caller,
        actions: () => [
          ...before,
          { type: 'FunctionCall', methodName: 'go', args, gas: 100n * 10n ** 12n, deposit },
        ],
      };
    }
    if (r < 0.6) {
      // A sub-account's transfer or call, relayed by the user: the sub-account signs, the user pays.
      const live = [...subs.values()].flat().filter((id) => !fresh.has(id) && !doomed.has(id));
      if (live.length === 0) return null;
      const senderId = pick(live);
      touched.add(senderId);
      relayedFor.add(senderId);
      const to = receiver();
      const deposit = amount(1);
      const inner: Action[] =
        random() < 0.5
          ? [{ type: 'Transfer', deposit }]
          : [{ type: 'FunctionCall', methodName: 'work', args: new Uint8Array(9), gas: 10n ** 13n, deposit }];
      return {
        signerId: user,
        receiverId: senderId,
        actions: (twin) => [delegate(twin, senderId, to, inner)],
      };
    }
    if (r < 0.72) {
      const sub = `s${made++}.${user}`;
      subs.get(user)!.push(sub);
      fresh.add(sub);
      const useGlobal = globalState === 'ready' && random() < 0.5;
      const deposit = 10n * NEAR + amount(1);
      return {
        signerId: user,
        receiverId: sub,
        actions: ({ own }) => [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit },
          { type: 'AddKey', publicKey: own, accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } } },
          ...(useGlobal
            ? [
                {
                  type: 'UseGlobalContract',
                  identifier: { kind: 'AccountId', accountId: globalOwner },
                } as const,
              ]
            : []),
        ],
      };
    }
    if (r < 0.8) {
      const mine = subs.get(user)!;
      const candidates = mine.filter((id) => !fresh.has(id) && !touched.has(id));
      if (candidates.length === 0) return null;
      const sub = pick(candidates);
      mine.splice(mine.indexOf(sub), 1);
      doomed.add(sub);
      const beneficiaryId = pick([...USERS, GHOST]);
      return { signerId: sub, receiverId: sub, actions: () => [{ type: 'DeleteAccount', beneficiaryId }] };
    }
    if (r < 0.9) {
      const publicKey = keyOf(`key ${seed} ${made++}`);
      addedKeys.get(user)!.push(publicKey);
      const allowance = random() < 0.3 ? null : amount(1);
      const receiverId = pick(USERS);
      return {
        signerId: user,
        receiverId: user,
        actions: () => [
          {
            type: 'AddKey',
            publicKey,
            accessKey: {
              nonce: 0n,
              permission: { kind: 'FunctionCall', allowance, receiverId, methodNames: ['go'] },
            },
          },
        ],
      };
    }
    const keys = addedKeys.get(user)!;
    if (keys.length === 0) return null;
    const publicKey = keys.splice(Math.floor(random() * keys.length), 1)[0]!;
    return { signerId: user, receiverId: user, actions: () => [{ type: 'DeleteKey', publicKey }] };
  };

  const supplyOf = (twin: Twin) => twin.chain.headHeader().rest.totalSupply;
  t.equal(supplyOf(one), supplyOf(four), 'the same supply to start with');
  let sent = 0;
  for (let wave = 0; wave < WAVES; wave++) {
    fresh.clear();
    doomed.clear();
    touched.clear();
    const ops = USERS.map((user) => (random() < 0.85 ? opFor(user) : null)).filter((op) => op !== null);
    sent += ops.length;
    if (process.env.LAYOUT_DEBUG)
      for (const op of ops)
        t.comment(`wave ${wave}: ${op.signerId} -> ${op.receiverId}: ${json(op.actions(one)).slice(0, 300)}`);
    for (const twin of twins) for (const op of ops) send(twin, op);
    const blocks: number[] = [];
    for (const twin of twins) blocks.push(await settle(twin));
    const a = accountState(one);
    for (const twin of [four, short]) {
      const b = accountState(twin);
      const differences = [...new Set([...a.keys(), ...b.keys()])]
        .filter((k) => a.get(k) !== b.get(k))
        .filter((k) => !twin.epochs || !k.includes(` ${VALIDATOR}`))
        .map((k) => `${k}: ${one.name} ${a.get(k) ?? '(none)'}, ${twin.name} ${b.get(k) ?? '(none)'}`);
      const supplies = [supplyOf(one), supplyOf(twin)];
      if (differences.length > 0 || (!twin.epochs && supplies[0] !== supplies[1])) {
        t.same(
          differences,
          [],
          `wave ${wave}, ${twin.name}: accounts differ (after ${blocks.join(', ')} blocks)`,
        );
        t.equal(supplies[0], supplies[1], `wave ${wave}, ${twin.name}: total supply`);
        return;
      }
    }
    if (globalState === 'sent') globalState = 'ready';
    // The chains charge at the minimum gas price throughout, or the comparison would say nothing.
    const prices = twins.map((twin) => twin.chain.headHeader().rest.nextGasPrice);
    if (new Set(prices).size > 1) return void t.fail(`wave ${wave}: gas prices ${prices.join(', ')}`);
  }
  const final = accountState(one);
  const count = (prefix: string) => [...final.keys()].filter((k) => k.startsWith(prefix)).length;
  t.comment(
    `${sent} transactions over ${WAVES} waves: ${calls} relayed calls, ${count('account ')} accounts, ${count('key ')} keys`,
  );
  const epochOf = (twin: Twin) => toHex(twin.chain.headHeader().lite.epochId);
  t.not(epochOf(short), epochOf(four), 'epochs ended on the third chain');
  t.ok(count('account ') > USERS.length + 4, 'the waves made accounts');
  t.ok(calls > 10, 'and relayed calls across shards');
  // A delegate action that ran left its nonce on the sender's key.
  const live = [...subs.values()].flat().filter((id) => relayedFor.has(id));
  const ran = live.filter((id) => keyNonce(one.chain, id, one.own) === one.sender.nonces.get(id));
  t.ok(ran.length > 0 && ran.length === live.length, `meta transactions ran (${ran.length} senders)`);
  t.ok(
    [...final.entries()].some(([k, v]) => k.startsWith('account ') && v.includes('"contract"')),
    'an account uses the global contract',
  );
});
