import type { Rational } from './genesis/config.js';

/**
 * nearcore's next gas price: price · (1 + rate · (gas_used / gas_limit − 1/2)), clamped to
 * [min, max]. Empty blocks push it down, so an idle chain sits at min_gas_price.
 */
export function nextGasPrice(
  prev: bigint,
  gasUsed: bigint,
  gasLimit: bigint,
  rate: Rational,
  min: bigint,
  max: bigint,
): bigint {
  if (gasLimit === 0n) return prev;
  const num = BigInt(rate[0]);
  const den = BigInt(rate[1]);
  const numerator = 2n * den * gasLimit + 2n * num * gasUsed - num * gasLimit;
  const denominator = 2n * den * gasLimit;
  const price = (prev * numerator) / denominator;
  return price < min ? min : price > max ? max : price;
}
