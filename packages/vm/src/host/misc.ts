// Miscellaneous API: return values, panics and logs (including AssemblyScript's `abort`).
import { HostError } from '../errors.js';
import type { VMLogic } from '../logic.js';

const enc = new TextEncoder();

export function value_return(l: VMLogic, value_len: bigint, value_ptr: bigint): void {
  l.gas.payBase('base');
  const value = l.read(value_ptr, value_len);
  const num = BigInt(value.length);
  const limit = l.config.limit_config.max_length_returned_data;
  if (num > limit) throw new HostError({ ReturnedValueLengthExceeded: { length: num, limit } });
  const f = l.fees.fees.new_data_receipt_byte;
  let burn = 0n;
  for (const receiver of l.context.output_data_receivers) {
    const sir = receiver === l.context.current_account_id;
    burn += ((sir ? f.send_sir : f.send_not_sir) + f.execution) * num;
  }
  l.gas.payActionAccumulated(burn, burn, 'new_data_receipt_byte');
  l.returnData = { kind: 'Value', data: value };
}

export function panic(l: VMLogic): void {
  l.gas.payBase('base');
  throw new HostError({ GuestPanic: { panic_msg: 'explicit guest panic' } });
}

export function panic_utf8(l: VMLogic, len: bigint, ptr: bigint): void {
  l.gas.payBase('base');
  throw new HostError({ GuestPanic: { panic_msg: l.getUtf8String(len, ptr) } });
}

export function log_utf8(l: VMLogic, len: bigint, ptr: bigint): void {
  l.gas.payBase('base');
  l.checkCanAddLogMessage();
  const message = l.getUtf8String(len, ptr);
  l.gas.payBase('log_base');
  l.gas.payPer('log_byte', BigInt(enc.encode(message).length));
  l.checkedPushLog(message);
}

export function log_utf16(l: VMLogic, len: bigint, ptr: bigint): void {
  l.gas.payBase('base');
  l.checkCanAddLogMessage();
  const message = l.getUtf16String(len, ptr);
  l.gas.payBase('log_base');
  l.gas.payPer('log_byte', BigInt(enc.encode(message).length));
  l.checkedPushLog(message);
}

/** AssemblyScript's abort(msg, file, line, col): strings are UTF-16 with their byte length at ptr − 4. */
export function abort(l: VMLogic, msg_ptr: number, filename_ptr: number, line: number, col: number): void {
  l.gas.payBase('base');
  const msgPtr = msg_ptr >>> 0;
  const filePtr = filename_ptr >>> 0;
  if (msgPtr < 4 || filePtr < 4) throw new HostError('BadUTF16');
  l.checkCanAddLogMessage();
  const msgLen = l.mem.getU32(l.gas, BigInt(msgPtr - 4));
  const fileLen = l.mem.getU32(l.gas, BigInt(filePtr - 4));
  const msg = l.getUtf16String(BigInt(msgLen), BigInt(msgPtr));
  const filename = l.getUtf16String(BigInt(fileLen), BigInt(filePtr));
  const message = `${msg}, filename: "${filename}" line: ${line >>> 0} col: ${col >>> 0}`;
  l.gas.payBase('log_base');
  l.gas.payPer('log_byte', BigInt(enc.encode(message).length));
  l.checkedPushLog(`ABORT: ${message}`);
  throw new HostError({ GuestPanic: { panic_msg: message } });
}

/** The legacy injected-metering import: charges `opcodes × regular_op_cost`. */
export function gas(l: VMLogic, opcodes: number): void {
  l.gas.burnGas(BigInt(opcodes >>> 0) * l.config.regular_op_cost);
}
