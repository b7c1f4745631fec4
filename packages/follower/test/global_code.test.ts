// Global contract code from a follower's upstream: what it sends is used only when it is what it
// claims to be, an absence is an absence, a failure says whose it is, and code is asked for once per
// hash or, for code named by its deployer's account, once per block.
import { createHash } from 'node:crypto';
import { GlobalCode, UpstreamRpc } from '@nearlite/follower';
import { base58Encode } from '@nearlite/primitives';
import t from 'tap';
import { jsonRpcServer } from './helpers.js';

const CODE = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0]);
const OTHER = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0, 0]);
const hashOf = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
const BLOCK_A = new Uint8Array(32).fill(1);
const BLOCK_B = new Uint8Array(32).fill(2);

type Answer = (params: Record<string, unknown>) => object;

/** An upstream answering each `query` with `answer`; `asked` are the params of its calls, in order. */
async function upstream(t: Tap.Test, answer: Answer) {
  const server = await jsonRpcServer(t, ({ params }) => answer(params));
  return {
    url: server.url,
    get asked() {
      return server.calls.map((c) => c.params);
    },
  };
}

const result = (code: Uint8Array, hash = hashOf(code)) => ({
  result: {
    code_base64: Buffer.from(code).toString('base64'),
    hash: base58Encode(hash),
    block_height: 1,
    block_hash: 'x',
  },
});
const failure = (cause: string) => ({
  error: {
    name: 'HANDLER_ERROR',
    cause: { name: cause, info: {} },
    code: -32000,
    message: `${cause} text`,
    data: 'd',
  },
});

t.test("an account's code is asked for by view_code of the account at the block", async (t) => {
  const up = await upstream(t, () => result(CODE));
  const code = new GlobalCode(new UpstreamRpc(up.url));
  const byHash = { kind: 'CodeHash', hash: hashOf(CODE) } as const;
  t.same(await code.forAccount(BLOCK_A, 'dave.near', byHash), CODE);
  t.same(
    up.asked,
    [{ request_type: 'view_global_contract_code', code_hash: base58Encode(hashOf(CODE)), finality: 'final' }],
    'code by hash is asked for by its hash, at the final block',
  );
  t.same(await code.forAccount(BLOCK_B, 'erin.near', byHash), CODE, 'and kept');
  t.equal(up.asked.length, 1);
  const byAccount = { kind: 'AccountId', accountId: 'deployer.near' } as const;
  await code.forAccount(BLOCK_A, 'carol.near', byAccount);
  t.same(
    up.asked[1],
    { request_type: 'view_code', account_id: 'carol.near', block_id: base58Encode(BLOCK_A) },
    "code by the deployer's account is the account's own view_code at the block",
  );
  await code.forAccount(BLOCK_A, 'carol.near', byAccount);
  t.equal(up.asked.length, 2, "the deployer's code at one block is kept");
  await code.forAccount(BLOCK_B, 'carol.near', byAccount);
  t.equal(up.asked.length, 3, 'and asked again at another block: the deployer may have replaced it');
});

t.test('code that is not what the upstream says it is is refused', async (t) => {
  const lying = new GlobalCode(new UpstreamRpc((await upstream(t, () => result(CODE, hashOf(OTHER)))).url));
  await t.rejects(lying.forAccount(BLOCK_A, 'carol.near', { kind: 'AccountId', accountId: 'd.near' }), {
    name: 'HandlerError',
    cause: 'INTERNAL_ERROR',
    message: `the upstream RPC could not give the global contract code deployed by d.near: the code it sent hashes to ${base58Encode(hashOf(CODE))}`,
  });
  const other = new GlobalCode(new UpstreamRpc((await upstream(t, () => result(OTHER))).url));
  await t.rejects(other.forAccount(BLOCK_A, 'dave.near', { kind: 'CodeHash', hash: hashOf(CODE) }), {
    message: /could not give global contract code \w+: the code it sent hashes to/,
  });
  await t.rejects(other.identified(BLOCK_A, { kind: 'CodeHash', hash: hashOf(CODE) }), {
    message: /the code it sent hashes to/,
  });
  const shapeless = new GlobalCode(
    new UpstreamRpc((await upstream(t, () => ({ result: { code_base64: '!!', hash: 'x' } }))).url),
  );
  await t.rejects(shapeless.identified(BLOCK_A, { kind: 'AccountId', accountId: 'd.near' }), {
    message: /its code_base64 is not base64/,
  });
});

t.test("the upstream's absence is an absence; its other errors say whose they are", async (t) => {
  const none = new GlobalCode(
    new UpstreamRpc(
      (
        await upstream(t, (p) =>
          failure(p.request_type === 'view_code' ? 'NO_CONTRACT_CODE' : 'NO_GLOBAL_CONTRACT_CODE'),
        )
      ).url,
    ),
  );
  t.equal(await none.forAccount(BLOCK_A, 'carol.near', { kind: 'AccountId', accountId: 'd.near' }), null);
  t.equal(
    await none.forAccount(BLOCK_A, 'dave.near', { kind: 'CodeHash', hash: hashOf(CODE) }),
    null,
    'by hash: absent at the final block, then in the account at its block',
  );
  t.equal(await none.identified(BLOCK_A, { kind: 'CodeHash', hash: hashOf(CODE) }), null);
  const gone = new GlobalCode(new UpstreamRpc((await upstream(t, () => failure('UNKNOWN_BLOCK'))).url));
  await t.rejects(gone.identified(BLOCK_A, { kind: 'AccountId', accountId: 'd.near' }), {
    cause: 'INTERNAL_ERROR',
    message:
      'the upstream RPC could not give the global contract code deployed by d.near: UNKNOWN_BLOCK text',
  });
});
