// nearcore's GasCounter (logic/gas_counter.rs): burnt gas is spent for good, used gas also counts gas
// reserved for promises. Crossing max_gas_burnt is GasLimitExceeded, crossing prepaid gas GasExceeded.
// Every host and action charge is profiled with the gas it actually burnt (less than the charge when
// it crossed a limit), as nearcore's pay_base / pay_per / pay_action_accumulated do.
import type { ExtCost, ExtCostsConfig } from './config.js';
import { HostError } from './errors.js';
import type { StorageAccessTracker } from './external.js';
import type { ActionCosts } from './fees.js';
import { ProfileDataV3 } from './profile.js';

const U64_MAX = (1n << 64n) - 1n;

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export class GasCounter implements StorageAccessTracker {
  private burnt = 0n;
  private promisesGas = 0n;
  /** Burnt-gas ceiling right now: min(max_gas_burnt, prepaid − promises gas). */
  private limit: bigint;
  private readonly prepaidGas: bigint;
  private readonly profile = new ProfileDataV3();

  constructor(
    private readonly extCosts: ExtCostsConfig,
    private readonly maxGasBurnt: bigint,
    prepaidGas: bigint,
    private readonly isView: boolean,
  ) {
    this.prepaidGas = isView ? U64_MAX : prepaidGas;
    this.limit = minBig(maxGasBurnt, this.prepaidGas);
  }

  burntGas(): bigint {
    return this.burnt;
  }

  usedGas(): bigint {
    return this.burnt + this.promisesGas;
  }

  /** Gas that may still be burnt before an error: what the in-Wasm metering global is set to. */
  remainingGas(): bigint {
    return this.limit - this.burnt;
  }

  burnGas(gas: bigint): void {
    const newBurnt = this.burnt + gas;
    if (newBurnt > U64_MAX) throw new HostError('IntegerOverflow');
    if (newBurnt <= this.limit) {
      this.burnt = newBurnt;
      return;
    }
    throw new HostError(this.processGasLimit(newBurnt, (newBurnt + this.promisesGas) & U64_MAX));
  }

  payBase(cost: ExtCost): void {
    this.payExt(cost, this.extCosts[cost]);
  }

  payPer(cost: ExtCost, num: bigint): void {
    const gas = num * this.extCosts[cost];
    if (gas > U64_MAX) throw new HostError('IntegerOverflow');
    this.payExt(cost, gas);
  }

  private payExt(cost: ExtCost, gas: bigint): void {
    const before = this.burnt;
    try {
      this.burnGas(gas);
    } finally {
      this.profile.addExtCost(cost, this.burnt - before);
    }
  }

  /**
   * Burns `burn` and reserves `use − burn` for the receipts being created (nearcore's
   * pay_action_accumulated); the profile books the burnt part under `action`.
   */
  payActionAccumulated(burn: bigint, use: bigint, action: ActionCosts): void {
    const before = this.burnt;
    try {
      this.deductGas(burn, use);
    } finally {
      this.profile.addActionCost(action, this.burnt - before);
    }
  }

  /** The profile so far, with the Wasm instructions as the burnt gas no other entry explains. */
  profileData(): ProfileDataV3 {
    const p = this.profile.clone();
    p.computeWasmInstructionCost(this.burnt);
    return p;
  }

  private deductGas(burn: bigint, use: bigint): void {
    const promises = use - burn;
    const newPromises = this.promisesGas + promises;
    const newBurnt = this.burnt + burn;
    const newUsed = newBurnt + newPromises;
    if (newPromises > U64_MAX || newBurnt > U64_MAX || newUsed > U64_MAX)
      throw new HostError('IntegerOverflow');
    if (newBurnt <= this.maxGasBurnt && newUsed <= this.prepaidGas) {
      if (promises !== 0n && !this.isView) {
        const rest = this.prepaidGas - newPromises;
        this.limit = minBig(this.maxGasBurnt, rest);
      }
      this.burnt = newBurnt;
      this.promisesGas = newPromises;
      return;
    }
    throw new HostError(this.processGasLimit(newBurnt, newUsed));
  }

  prepayGas(use: bigint): void {
    this.deductGas(0n, use);
  }

  private processGasLimit(newBurnt: bigint, newUsed: bigint): 'GasExceeded' | 'GasLimitExceeded' {
    const hard = minBig(this.prepaidGas, this.maxGasBurnt);
    this.burnt = minBig(newBurnt, hard);
    const usedLimit = minBig(this.prepaidGas, newUsed);
    this.promisesGas = usedLimit > this.burnt ? usedLimit - this.burnt : 0n;
    return newBurnt > this.maxGasBurnt ? 'GasLimitExceeded' : 'GasExceeded';
  }

  trie_node_touched(count: bigint): void {
    this.payPer('touching_trie_node', count);
  }

  cached_trie_node_access(count: bigint): void {
    this.payPer('read_cached_trie_node', count);
  }

  deref_write_evicted_value_bytes(bytes: bigint): void {
    this.payPer('storage_write_evicted_byte', bytes);
  }

  deref_removed_value_bytes(bytes: bigint): void {
    this.payPer('storage_remove_ret_value_byte', bytes);
  }
}
