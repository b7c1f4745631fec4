// A light read load in a process of its own (`node read_probe.js URL ACCOUNTS_JSON`): one
// `view_account` every 5 ms on kept-alive connections, until SIGTERM; then the latencies in ms as
// JSON on stdout. It also stops when its stdin closes: the bench that started it has gone. In the
// load generator's own process its event loop, busy with the load, would add its own queueing to
// what is measured; so would a read waiting for a free connection here: with 4 connections, 200
// reads a second queued as soon as an answer took 20 ms, which doubled the median under a flood
// of transfers. With 256, a read is sent when it is made (a stall of over a second would fill them).
import { rpcClient } from './http_client.js';

const [url, accountsJson] = process.argv.slice(2);
const accounts = JSON.parse(accountsJson);
const call = rpcClient(url, 256);
const latencies = [];
const timer = setInterval(() => {
  const started = performance.now();
  const account_id = accounts[Math.floor(Math.random() * accounts.length)];
  call('query', { request_type: 'view_account', account_id, finality: 'final' }).then(
    () => latencies.push(performance.now() - started),
    () => undefined,
  );
}, 5);
process.on('SIGTERM', () => {
  clearInterval(timer);
  // A pipe takes the latencies in pieces: exiting before the last piece is written cut them short.
  process.stdout.write(JSON.stringify(latencies), () => process.exit(0));
});
// The bench holds the other end of stdin: it closes when the bench exits, however it exits.
process.stdin.on('end', () => process.exit(1));
process.stdin.resume();
process.stdout.write('ready\n');
