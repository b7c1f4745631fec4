// Correctly signed transactions of random actions, valid and not: unknown or malformed accounts,
// amounts up to u128::MAX, gas over the limit, keys of every kind, broken and working contracts,
// delegate actions with bad signatures, global contracts, state inits, gas-key transfers, and their
// bytes mangled before signing. Each must be answered in nearcore's shape at the layer that refuses
// it (the body, the transaction's checks, the receipt's execution) and never as an internal error;
// once they have all run, money is conserved and the stopped store verifies.
import { createHash, sign } from 'node:crypto';
import { ChainReader } from '@nearlite/chain';
import { BorshWriter } from '@nearlite/primitives';
import { baseDecode } from 'near-api-js';
import t from 'tap';
import { LEAK } from './helpers/hostile_load.js';
import { cli, initHome, keyFilePrivateKey, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { postJson } from './helpers/post.js';
import { rng } from './helpers/rng.js';
import { supplyAtHead } from './helpers/supply.js';
import { tempDir } from './helpers/tmp.js';

const TRANSACTIONS = 240;
const IN_FLIGHT = 8;
const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;

// (module (func (export "run")))
const RUN_WASM = Uint8Array.from([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 7, 1, 3, 114, 117, 110, 0, 0, 10, 4, 1, 2, 0,
  11,
]);
// A memory of 255 pages' minimum: over nearcore's initial_memory_pages, refused when prepared.
const BIG_MEMORY_WASM = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0, 5, 4, 1, 0, 255, 1]);

/** A reason's outline: the names in it, none of its values (ids, keys, amounts). */
function outline(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (v === null || typeof v !== 'object') return '';
  return Object.entries(v)
    .map(([k, x]) => (outline(x) ? `${k}.${outline(x)}` : k))
    .join(',');
}

t.test(
  'random signed actions: every answer in nearcore shape, money conserved, the store whole',
  async (t) => {
    const seed = Number(process.env.ACTION_FUZZ_SEED ?? 20261203);
    t.comment(`seed ${seed} (ACTION_FUZZ_SEED reruns it)`);
    const r = rng(seed);
    const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
    const int = (n: number) => Math.floor(r() * n);
    const randomBytes = (n: number) => Uint8Array.from({ length: n }, () => int(256));

    const home = tempDir(t);
    initHome(home, ['--shards', '2']);
    const key = readKeyFile(home);
    const node = await startNode(home, ['--block-time', '50']);
    t.teardown(() => node.stop());
    await waitForHeight(node, 3);

    const ownKey = baseDecode(key.public_key.split(':')[1]!);
    const privateKey = keyFilePrivateKey(key);
    const nonces = new Map<string, bigint>();
    const nextNonce = async (signer: string) => {
      let n = nonces.get(signer);
      if (n === undefined) {
        const { body } = await node.rpc<{ nonce: number }>('query', {
          request_type: 'view_access_key',
          finality: 'optimistic',
          account_id: signer,
          public_key: key.public_key,
        });
        n = BigInt(body.result?.nonce ?? 0);
      }
      nonces.set(signer, n + 1n);
      return n + 1n;
    };
    /** A transaction signed with the home's key, its actions written by `actions`, in base64. */
    const signed = async (
      signer: string,
      receiver: string,
      actions: (w: BorshWriter) => void,
      o: { nonce?: bigint; blockHash?: Uint8Array; mangle?: boolean } = {},
    ) => {
      const hash = (await node.rpc<{ header: { hash: string } }>('block', { finality: 'final' })).body.result!
        .header.hash;
      const w = new BorshWriter().string(signer).u8(0).fixed(ownKey);
      w.u64(o.nonce ?? (await nextNonce(signer)))
        .string(receiver)
        .fixed(o.blockHash ?? baseDecode(hash));
      actions(w);
      let tx = Buffer.from(w.toBytes());
      // A valid signature over bytes that are not a transaction.
      if (o.mangle) tx = Buffer.concat([tx.subarray(0, int(tx.length)), Buffer.from(randomBytes(int(12)))]);
      const signature = sign(null, createHash('sha256').update(tx).digest(), privateKey);
      return Buffer.concat([tx, Buffer.from([0]), signature]).toString('base64');
    };

    // a.test.near and b.test.near take the home's key, and a.test.near a contract with `run`, so that
    // the random actions find accounts, keys and code to act on.
    for (const [account, deploy] of [
      ['a.test.near', true],
      ['b.test.near', false],
    ] as const) {
      const tx = await signed('test.near', account, (w) => {
        w.u32(deploy ? 4 : 3);
        w.u8(0);
        w.u8(3).u128(10n ** 26n);
        w.u8(5).u8(0).fixed(ownKey).u64(0n).u8(1);
        if (deploy) w.u8(1).bytes(RUN_WASM);
      });
      const { body } = await node.rpc<{ status: Record<string, unknown> }>('send_tx', {
        signed_tx_base64: tx,
        wait_until: 'EXECUTED_OPTIMISTIC',
      });
      t.ok(body.result && !('Failure' in body.result.status), `${account} made: ${JSON.stringify(body)}`);
    }

    // Mostly accounts that exist or can be made, some that cannot exist (borsh refuses an invalid id
    // as the body is read).
    const validAccounts = [
      'test.near',
      'test.near',
      'a.test.near',
      'a.test.near',
      'b.test.near',
      'c.a.test.near',
      'near',
      'nobody.near',
      'b'.repeat(64),
      `0x${'ab'.repeat(20)}`,
    ];
    const anyAccount = () =>
      r() < 0.95 ? pick(validAccounts) : pick(['Bad', 'x', 'a..near', 'z'.repeat(65)]);
    const amount = () => pick([0n, 1n, 10n ** 21n, 10n ** 24n, 10n ** 27n, 10n ** 30n, 1n << 127n, U128_MAX]);
    const publicKey = (w: BorshWriter, own = 0.4) => {
      const k = r();
      if (k < own) return w.u8(0).fixed(ownKey);
      if (k < 0.8) return w.u8(0).fixed(randomBytes(32));
      if (k < 0.97) return w.u8(1).fixed(randomBytes(64));
      return w.u8(2 + int(3)).fixed(randomBytes(32));
    };
    const contractId = (w: BorshWriter) =>
      r() < 0.5
        ? w.u8(0).fixed(randomBytes(32))
        : w.u8(1).string(pick(['test.near', 'a.test.near', 'nobody.near']));
    const action = (w: BorshWriter, nested: boolean): void => {
      let kind = r() < 0.92 ? pick([0, 1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13]) : int(16);
      if (nested && kind === 8) kind = 3;
      w.u8(kind);
      switch (kind) {
        case 0:
          return;
        case 1:
          w.bytes(pick([RUN_WASM, RUN_WASM, BIG_MEMORY_WASM, new Uint8Array(0), randomBytes(40)]));
          return;
        case 2:
          w.string(pick(['run', 'run', 'missing', '', 'a'.repeat(300)]));
          w.bytes(Buffer.from(pick(['{}', '', 'x'.repeat(int(2000))])));
          w.u64(pick([0n, 10n ** 12n, 30n * 10n ** 12n, 300n * 10n ** 12n, 10n ** 15n, U64_MAX]));
          w.u128(pick([0n, 1n, 10n ** 24n, U128_MAX]));
          return;
        case 3:
          w.u128(amount());
          return;
        case 4:
          w.u128(amount());
          publicKey(w, 0.6);
          return;
        case 5: {
          publicKey(w);
          w.u64(pick([0n, 7n, U64_MAX]));
          if (r() < 0.5) {
            w.u8(1);
            return;
          }
          w.u8(0);
          if (r() < 0.5) w.u8(0);
          else w.u8(1).u128(amount());
          w.string(anyAccount());
          const names = int(4);
          w.u32(names);
          for (let i = 0; i < names; i++) w.string(pick(['run', '', 'm'.repeat(300)]));
          return;
        }
        case 6:
          // Never the home's key: the transactions after would have nothing to sign with.
          publicKey(w, 0);
          return;
        case 7:
          w.string(anyAccount());
          return;
        case 8: {
          w.string(anyAccount()).string(anyAccount());
          const inner = int(3);
          w.u32(inner);
          for (let i = 0; i < inner; i++) action(w, true);
          w.u64(BigInt(int(100))).u64(pick([0n, 1n, 10n ** 9n]));
          publicKey(w);
          w.u8(0).fixed(randomBytes(64));
          return;
        }
        case 9:
          w.bytes(pick([RUN_WASM, randomBytes(30)])).u8(int(2));
          return;
        case 10:
          contractId(w);
          return;
        case 11: {
          w.u8(0);
          contractId(w);
          const entries = int(3);
          w.u32(entries);
          for (let i = 0; i < entries; i++) w.bytes(Uint8Array.of(i)).bytes(randomBytes(int(8)));
          w.u128(amount());
          return;
        }
        case 12:
        case 13:
          publicKey(w);
          w.u128(amount());
          return;
        default:
          w.fixed(randomBytes(int(40)));
      }
    };

    const seen = new Map<string, number>();
    const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
    const reasons = new Map<string, number>();
    const reason = (v: unknown) => reasons.set(outline(v), (reasons.get(outline(v)) ?? 0) + 1);
    const problems: string[] = [];
    let next = 0;
    const sender = async () => {
      while (next < TRANSACTIONS) {
        const i = next++;
        const tx = await signed(
          r() < 0.8 ? 'test.near' : pick(['a.test.near', 'b.test.near', 'nobody.near']),
          anyAccount(),
          (w) => {
            // Over the 100 actions a transaction may hold, now and then; mostly one, which may succeed.
            const actions = r() < 0.03 ? 101 : r() < 0.6 ? 1 : 2 + int(2);
            w.u32(actions);
            for (let a = 0; a < actions; a++) action(w, false);
          },
          {
            nonce: r() < 0.05 ? pick([0n, U64_MAX]) : undefined,
            blockHash: r() < 0.05 ? randomBytes(32) : undefined,
            mangle: r() < 0.08,
          },
        );
        const [method, params] = pick<[string, unknown]>([
          [
            'send_tx',
            { signed_tx_base64: tx, wait_until: pick(['NONE', 'INCLUDED', 'EXECUTED_OPTIMISTIC']) },
          ],
          ['send_tx', { signed_tx_base64: tx, wait_until: 'EXECUTED_OPTIMISTIC' }],
          ['broadcast_tx_commit', [tx]],
          ['broadcast_tx_async', [tx]],
        ]);
        const res = await postJson(node.url, JSON.stringify({ jsonrpc: '2.0', id: i, method, params }));
        const what = `#${i} ${method}: ${res.status} ${res.text.slice(0, 300)}`;
        if (LEAK.test(res.text)) problems.push(`leaks: ${what}`);
        let body: { jsonrpc?: string; id?: unknown; result?: unknown; error?: Record<string, unknown> };
        try {
          body = JSON.parse(res.text);
        } catch {
          problems.push(`not JSON: ${what}`);
          continue;
        }
        if (body.jsonrpc !== '2.0' || body.id !== i || 'result' in body === 'error' in body) {
          problems.push(`not an envelope: ${what}`);
          continue;
        }
        const e = body.error as
          | { name?: unknown; code?: unknown; message?: unknown; cause?: { name?: unknown }; data?: unknown }
          | undefined;
        if (e) {
          if (
            typeof e.name !== 'string' ||
            typeof e.code !== 'number' ||
            typeof e.message !== 'string' ||
            typeof e.cause?.name !== 'string'
          ) {
            problems.push(`not nearcore's error shape: ${what}`);
            continue;
          }
          if (e.cause.name === 'INTERNAL_ERROR' || res.status >= 500) problems.push(`internal: ${what}`);
          count(e.cause.name);
          if (e.cause.name === 'INVALID_TRANSACTION') reason(e.data);
          continue;
        }
        const result = body.result as string | { status?: unknown; final_execution_status?: unknown };
        if (typeof result === 'string') count('hash');
        else if (result.status && typeof result.status === 'object') {
          const failure = (result.status as { Failure?: unknown }).Failure;
          count(failure ? 'Failure' : 'success');
          if (failure) reason(failure);
        } else if (result.final_execution_status === 'NONE' || result.final_execution_status === 'INCLUDED')
          count('pending');
        else problems.push(`a result without a status: ${what}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    t.same(problems, [], 'every answer well formed, none internal, nothing leaked');
    t.comment([...seen].map(([k, v]) => `${v} ${k}`).join(', '));
    t.comment(
      [...reasons]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${v} ${k}`)
        .join('\n'),
    );
    // Each layer refused some and let others through to their receipts.
    t.ok(seen.get('PARSE_ERROR'), 'bodies refused as they were read');
    t.ok(seen.get('INVALID_TRANSACTION'), "transactions refused by the transaction's checks");
    t.ok(seen.get('Failure'), 'receipts that failed as they ran');
    t.ok(seen.get('success'), 'and receipts that succeeded');

    // Every receipt and refund lands, then the head's burnt balance in a header.
    const head = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
      .result!;
    await waitForHeight(node, head.header.height + 12);
    t.equal(await node.stop(), 0, 'the node stops cleanly');
    const verify = cli(['inspect', '--home', home, 'verify']);
    t.equal(verify.status, 0, `inspect verify: ${verify.stdout}${verify.stderr}`);
    const reader = await ChainReader.open(home);
    t.teardown(() => reader.close());
    const { held, expected } = supplyAtHead(reader);
    t.equal(held, expected, 'Σ balances + stake = total supply − burnt');
  },
);
