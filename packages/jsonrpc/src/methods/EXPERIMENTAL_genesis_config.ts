// An alias sharing genesis_config's handler, as in nearcore.
export { genesis_config as EXPERIMENTAL_genesis_config } from './genesis_config.js';
