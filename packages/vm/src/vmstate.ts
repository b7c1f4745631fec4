// Guest memory and registers with nearcore's gas accounting (logic/vmstate.rs).
import { U64_MAX, uintLE } from '@nearlite/primitives';
import type { LimitConfig } from './config.js';
import { HostError } from './errors.js';
import type { GasCounter } from './gas_counter.js';

export { U64_MAX };

/**
 * Guest memory as the contract sees it: the first `pages` pages of a larger pooled memory (see
 * prepare/memory_guard.ts). Host writes into the initial pages are remembered so the runner knows
 * how much to zero before the memory serves another call.
 */
export class Memory {
  private pages: WebAssembly.Global | null = null;
  /** End of the highest host write that started in the initial pages, clipped to them. */
  hostLow = 0;
  /** Start of the lowest host write into the initial pages (their size while none was made). */
  hostMin: number;

  constructor(
    private readonly mem: WebAssembly.Memory,
    private readonly initialBytes: number,
  ) {
    this.hostMin = initialBytes;
  }

  /** Connects the instance's virtual page count once it exists. */
  bind(pages: WebAssembly.Global): void {
    this.pages = pages;
  }

  private size(): number {
    return this.pages === null ? this.initialBytes : (this.pages.value as number) * 65536;
  }

  private range(ptr: bigint, len: bigint): [number, number] {
    const end = ptr + len;
    if (end > BigInt(this.size())) throw new HostError('MemoryAccessViolation');
    return [Number(ptr), Number(end)];
  }

  /** Copies `len` bytes out of guest memory, charging read_memory costs. */
  view(gas: GasCounter, ptr: bigint, len: bigint): Uint8Array {
    gas.payBase('read_memory_base');
    gas.payPer('read_memory_byte', len);
    return this.viewForFree(ptr, len);
  }

  viewForFree(ptr: bigint, len: bigint): Uint8Array {
    const [s, e] = this.range(ptr, len);
    return new Uint8Array(this.mem.buffer).slice(s, e);
  }

  set(gas: GasCounter, ptr: bigint, data: Uint8Array): void {
    gas.payBase('write_memory_base');
    gas.payPer('write_memory_byte', BigInt(data.length));
    const [s, e] = this.range(ptr, BigInt(data.length));
    if (s < this.initialBytes) {
      if (e > this.hostLow) this.hostLow = Math.min(e, this.initialBytes);
      if (s < this.hostMin && e > s) this.hostMin = s;
    }
    new Uint8Array(this.mem.buffer).set(data, s);
  }

  private getLE(gas: GasCounter, ptr: bigint, size: number): bigint {
    return uintLE(this.view(gas, ptr, BigInt(size)));
  }

  getU8(gas: GasCounter, ptr: bigint): number {
    return Number(this.getLE(gas, ptr, 1));
  }

  getU16(gas: GasCounter, ptr: bigint): number {
    return Number(this.getLE(gas, ptr, 2));
  }

  getU32(gas: GasCounter, ptr: bigint): number {
    return Number(this.getLE(gas, ptr, 4));
  }

  getU128(gas: GasCounter, ptr: bigint): bigint {
    return this.getLE(gas, ptr, 16);
  }

  setU128(gas: GasCounter, ptr: bigint, value: bigint): void {
    const b = new Uint8Array(16);
    let v = value;
    for (let i = 0; i < 16; i++) {
      b[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    this.set(gas, ptr, b);
  }
}

export class Registers {
  private readonly regs = new Map<bigint, Uint8Array>();
  private totalMemoryUsage = 0n;

  get(gas: GasCounter, id: bigint): Uint8Array {
    const data = this.regs.get(id);
    if (data === undefined) throw new HostError({ InvalidRegisterId: { register_id: id } });
    gas.payBase('read_register_base');
    gas.payPer('read_register_byte', BigInt(data.length));
    return data;
  }

  getLen(id: bigint): bigint | undefined {
    const d = this.regs.get(id);
    return d === undefined ? undefined : BigInt(d.length);
  }

  /** `chargeBytes` is false for data the host already holds (input, promise results) under deterministic_account_ids. */
  set(gas: GasCounter, limits: LimitConfig, id: bigint, data: Uint8Array, chargeBytes = true): void {
    const len = BigInt(data.length);
    gas.payBase('write_register_base');
    if (chargeBytes) gas.payPer('write_register_byte', len);
    if (len > limits.max_register_size) throw new HostError('MemoryAccessViolation');
    // nearcore checks the count before looking at the id, so replacing a register at the limit fails too.
    if (BigInt(this.regs.size) >= limits.max_number_registers) throw new HostError('MemoryAccessViolation');
    const old = this.regs.get(id);
    const usage = this.totalMemoryUsage - (old === undefined ? 0n : BigInt(old.length) + 8n) + len + 8n;
    if (usage > limits.registers_memory_limit) throw new HostError('MemoryAccessViolation');
    this.totalMemoryUsage = usage;
    this.regs.set(id, data);
  }
}

/** nearcore's get_memory_or_register: `len == u64::MAX` means "read register `ptr`". */
export function memoryOrRegister(
  gas: GasCounter,
  memory: Memory,
  registers: Registers,
  ptr: bigint,
  len: bigint,
): Uint8Array {
  return len === U64_MAX ? registers.get(gas, ptr) : memory.view(gas, ptr, len);
}
