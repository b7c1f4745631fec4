// The `status` result, one shape for every node kind (producer, follower, front end): each tells
// where its chain stands, this builds nearcore's view of it.

import { epochOf } from '../epoch.js';
import type { GenesisConfig } from '../genesis/config.js';
import { formatRfc3339Ns } from '../genesis/config.js';

export interface StatusBlock {
  readonly hash: string;
  readonly height: number;
  readonly timestampNs: bigint;
}

/** nearcore's `Version`: the running build, as `status` and `client_config` print it. */
export interface BuildVersion {
  readonly version: string;
  readonly build: string;
  /** The commit the build was made from, or `unknown`. */
  readonly commit: string;
  readonly rustc_version: string;
}

export interface StatusFacts {
  readonly version: BuildVersion;
  readonly config: GenesisConfig;
  readonly rpcAddr: string;
  readonly latest: StatusBlock & { readonly stateRoot: string; readonly epochId: string };
  readonly earliest: StatusBlock;
  readonly syncing: boolean;
  readonly validatorAccountId: string | null;
  readonly validatorPublicKey: string | null;
  readonly nodePublicKey: string;
  readonly uptimeSec: number;
  readonly genesisHash: string;
  /**
   * The protocol version the head block names (its `latest_protocol_version`), where it may not be
   * the genesis': a followed network's later blocks. A chain nearlite produces names its genesis'
   * version in every block.
   */
  readonly headProtocolVersion?: number;
  /**
   * The protocol version of the head's epoch, nearcore's `protocol_version`, where it is known apart
   * from the head block's (a followed network's upstream says it). The two differ only in the epochs
   * an upgrade is voted in, where producers already run the new version.
   */
  readonly epochProtocolVersion?: number;
  /**
   * Where the head's epoch began, where it is not on the genesis' grid of epoch_length heights (a
   * followed network's epochs, which skipped heights push later).
   */
  readonly epochStartHeight?: number;
  /**
   * The head epoch's block producers, where they are not the genesis' validators; an empty list
   * where the node cannot know them (a followed network's, which the stream does not name).
   */
  readonly validators?: readonly string[];
}

export function statusView(f: StatusFacts): object {
  const cfg = f.config;
  const protocolVersion = f.headProtocolVersion ?? cfg.protocolVersion;
  return {
    version: f.version,
    chain_id: cfg.chainId,
    protocol_version: f.epochProtocolVersion ?? protocolVersion,
    latest_protocol_version: protocolVersion,
    rpc_addr: f.rpcAddr,
    validators: (f.validators ?? cfg.validators.map((v) => v.accountId)).map((id) => ({ account_id: id })),
    sync_info: {
      latest_block_hash: f.latest.hash,
      latest_block_height: f.latest.height,
      latest_state_root: f.latest.stateRoot,
      latest_block_time: formatRfc3339Ns(f.latest.timestampNs),
      syncing: f.syncing,
      earliest_block_hash: f.earliest.hash,
      earliest_block_height: f.earliest.height,
      earliest_block_time: formatRfc3339Ns(f.earliest.timestampNs),
      epoch_id: f.latest.epochId,
      epoch_start_height:
        f.epochStartHeight ?? epochOf(f.latest.height, cfg.genesisHeight, cfg.epochLength).startHeight,
    },
    validator_account_id: f.validatorAccountId,
    validator_public_key: f.validatorPublicKey,
    node_public_key: f.nodePublicKey,
    node_key: f.validatorPublicKey,
    uptime_sec: f.uptimeSec,
    genesis_hash: f.genesisHash,
  };
}

/** `network_info` of a node with no peer-to-peer network: no peers, nearcore's default peer cap. */
export function networkInfoView(): object {
  return {
    active_peers: [],
    num_active_peers: 0,
    peer_max_count: 40,
    sent_bytes_per_sec: 0,
    received_bytes_per_sec: 0,
    known_producers: [],
  };
}
