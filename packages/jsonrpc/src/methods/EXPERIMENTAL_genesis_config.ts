export { genesis_config as EXPERIMENTAL_genesis_config } from './genesis_config.js';
