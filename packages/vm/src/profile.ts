// nearcore's ProfileDataV3 (core/primitives/src/profile_data_v3.rs): the gas one contract call burnt,
// split by action cost (receipts the contract created, its returned data), by host cost, and the
// Wasm instructions, which are not counted as they run but derived at the end as the remainder.
import type { ExtCost, ExtCostsConfig } from './config.js';
import type { ActionCosts } from './fees.js';

const U64_MAX = (1n << 64n) - 1n;

function saturatingAdd(a: bigint, b: bigint): bigint {
  const s = a + b;
  return s > U64_MAX ? U64_MAX : s;
}

export class ProfileDataV3 {
  private readonly actions = new Map<ActionCosts, bigint>();
  private readonly ext = new Map<ExtCost, bigint>();
  private wasmGas = 0n;

  addActionCost(cost: ActionCosts, gas: bigint): void {
    if (gas === 0n) return;
    this.actions.set(cost, saturatingAdd(this.actions.get(cost) ?? 0n, gas));
  }

  addExtCost(cost: ExtCost, gas: bigint): void {
    if (gas === 0n) return;
    this.ext.set(cost, saturatingAdd(this.ext.get(cost) ?? 0n, gas));
  }

  /** Sets the Wasm instruction cost (a stored profile read back); contract calls derive it instead. */
  setWasmCost(gas: bigint): void {
    this.wasmGas = gas;
  }

  getActionCost(cost: ActionCosts): bigint {
    return this.actions.get(cost) ?? 0n;
  }

  getExtCost(cost: ExtCost): bigint {
    return this.ext.get(cost) ?? 0n;
  }

  getWasmCost(): bigint {
    return this.wasmGas;
  }

  /** Non-zero action costs, in the order they were first charged. */
  actionCosts(): [ActionCosts, bigint][] {
    return [...this.actions];
  }

  /** Non-zero host costs, in the order they were first charged. */
  extCosts(): [ExtCost, bigint][] {
    return [...this.ext];
  }

  actionGas(): bigint {
    let sum = 0n;
    for (const g of this.actions.values()) sum = saturatingAdd(sum, g);
    return sum;
  }

  hostGas(): bigint {
    let sum = 0n;
    for (const g of this.ext.values()) sum = saturatingAdd(sum, g);
    return sum;
  }

  /** nearcore's compute_wasm_instruction_cost: whatever the call burnt that no other entry explains. */
  computeWasmInstructionCost(totalGasBurnt: bigint): void {
    const rest = totalGasBurnt - this.actionGas() - this.hostGas();
    this.wasmGas = rest > 0n ? rest : 0n;
  }

  /**
   * nearcore's total_compute_usage, once the Wasm cost is set: each host cost's gas scaled by its
   * compute cost over its gas cost (rounded down), plus the actions' and the Wasm instructions' gas,
   * whose compute is their gas.
   */
  totalComputeUsage(
    gasCosts: ExtCostsConfig,
    computeCosts: Readonly<Partial<Record<ExtCost, bigint>>>,
  ): bigint {
    let sum = saturatingAdd(this.actionGas(), this.wasmGas);
    for (const [cost, gas] of this.ext) {
      const compute = computeCosts[cost];
      const perUnit = gasCosts[cost];
      const scaled = compute === undefined || perUnit === 0n ? gas : (gas * compute) / perUnit;
      sum = saturatingAdd(sum, scaled > U64_MAX ? U64_MAX : scaled);
    }
    return sum;
  }

  merge(other: ProfileDataV3): void {
    for (const [c, g] of other.actions) this.addActionCost(c, g);
    for (const [c, g] of other.ext) this.addExtCost(c, g);
    this.wasmGas = saturatingAdd(this.wasmGas, other.wasmGas);
  }

  isEmpty(): boolean {
    return this.actions.size === 0 && this.ext.size === 0 && this.wasmGas === 0n;
  }

  clone(): ProfileDataV3 {
    const p = new ProfileDataV3();
    p.merge(this);
    return p;
  }
}
