export * from './message.js';
export * from './publish/chain_view.js';
export * from './publish/live_chain.js';
export * from './publish/neardata.js';
export * from './publish/streamer_message.js';
export * from './source.js';
