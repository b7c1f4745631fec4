// Every read method, with params drawn from the blocks a history holds: what both histories must
// answer alike.
import type { StreamerMessage } from '@nearlite/stream';
import { CHANGES_TYPE } from '../../../test/helpers/mainnet.js';

export interface Request {
  readonly method: string;
  readonly params: unknown;
}

function sample<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  const step = list.length / n;
  return Array.from({ length: n }, (_, i) => list[Math.floor(i * step)]!);
}

export function readRequests(messages: readonly StreamerMessage[], perKind = 12): Request[] {
  const out: Request[] = [
    { method: 'status', params: [] },
    { method: 'block', params: { finality: 'final' } },
    { method: 'block', params: { sync_checkpoint: 'earliest_available' } },
    { method: 'block', params: { block_id: 1 } },
    { method: 'gas_price', params: [null] },
    { method: 'validators', params: [null] },
    { method: 'EXPERIMENTAL_protocol_config', params: { finality: 'final' } },
    { method: 'EXPERIMENTAL_genesis_config', params: [] },
    {
      method: 'tx',
      params: {
        tx_hash: '7kX2ajNrUXcKWZMt2LmQ5nQAEsuaAaJjCBCT5h4hRJ9J',
        sender_account_id: 'nobody.near',
        wait_until: 'NONE',
      },
    },
    {
      method: 'EXPERIMENTAL_receipt',
      params: { receipt_id: '7kX2ajNrUXcKWZMt2LmQ5nQAEsuaAaJjCBCT5h4hRJ9J' },
    },
    { method: 'chunk', params: { chunk_id: '7kX2ajNrUXcKWZMt2LmQ5nQAEsuaAaJjCBCT5h4hRJ9J' } },
  ];
  for (const m of messages) {
    const h = m.block.header;
    out.push(
      { method: 'block', params: { block_id: h.height } },
      { method: 'block', params: { block_id: h.hash } },
      { method: 'gas_price', params: [h.height] },
      { method: 'block_effects', params: { block_id: h.height } },
      { method: 'EXPERIMENTAL_changes_in_block', params: { block_id: h.hash } },
      { method: 'validators', params: [h.height] },
    );
    for (const shard of m.shards) {
      out.push({ method: 'chunk', params: { block_id: h.height, shard_id: shard.shard_id } });
      const chunk = shard.chunk;
      if (chunk) out.push({ method: 'chunk', params: { chunk_id: chunk.header.chunk_hash } });
      for (const tx of sample(chunk?.transactions ?? [], perKind)) {
        const t = tx.transaction;
        out.push(
          { method: 'tx', params: { tx_hash: t.hash, sender_account_id: t.signer_id, wait_until: 'NONE' } },
          {
            method: 'EXPERIMENTAL_tx_status',
            params: { tx_hash: t.hash, sender_account_id: t.signer_id, wait_until: 'NONE' },
          },
        );
      }
      for (const r of sample(shard.receipt_execution_outcomes, perKind))
        out.push({ method: 'EXPERIMENTAL_receipt', params: { receipt_id: r.receipt.receipt_id } });
      for (const r of sample(chunk?.receipts ?? [], perKind))
        out.push({ method: 'EXPERIMENTAL_receipt', params: { receipt_id: r.receipt_id } });
    }
    const changes = m.shards.flatMap((s) => s.state_changes);
    for (const c of sample(changes, perKind * 3)) {
      const account = String(c.change.account_id);
      const type = CHANGES_TYPE[c.type];
      if (!type) continue;
      const base = { block_id: h.height, changes_type: type };
      if (type === 'single_access_key_changes')
        out.push({
          method: 'EXPERIMENTAL_changes',
          params: { ...base, keys: [{ account_id: account, public_key: c.change.public_key }] },
        });
      else if (type === 'data_changes')
        out.push({
          method: 'EXPERIMENTAL_changes',
          params: { ...base, account_ids: [account], key_prefix_base64: '' },
        });
      else out.push({ method: 'EXPERIMENTAL_changes', params: { ...base, account_ids: [account] } });
      out.push(
        {
          method: 'EXPERIMENTAL_changes',
          params: { ...base, changes_type: 'all_access_key_changes', account_ids: [account] },
        },
        {
          method: 'query',
          params: { request_type: 'view_account', account_id: account, block_id: h.height },
        },
        {
          method: 'query',
          params: { request_type: 'view_account', account_id: account, block_id: h.height - 1 },
        },
        {
          method: 'query',
          params: { request_type: 'view_access_key_list', account_id: account, block_id: h.height },
        },
        {
          method: 'query',
          params: { request_type: 'view_state', account_id: account, prefix_base64: '', block_id: h.height },
        },
        {
          method: 'query',
          params: {
            request_type: 'view_state',
            account_id: account,
            prefix_base64: '',
            block_id: h.height,
            limit: 1,
            ...(typeof c.change.key_base64 === 'string' ? { after_key_base64: c.change.key_base64 } : {}),
          },
        },
        { method: 'query', params: { request_type: 'view_code', account_id: account, finality: 'final' } },
      );
      if (c.change.public_key !== undefined)
        out.push({
          method: 'query',
          params: {
            request_type: 'view_access_key',
            account_id: account,
            public_key: c.change.public_key,
            block_id: h.height,
          },
        });
    }
  }
  // Accounts of the genesis records, answered from the genesis state as history.
  for (const account of ['near', 'bo.near', 'nobody-at-all.near'])
    out.push({
      method: 'query',
      params: { request_type: 'view_account', account_id: account, finality: 'final' },
    });
  return out;
}
