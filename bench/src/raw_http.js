// One keep-alive HTTP/1.1 connection, one request at a time, written and read by hand: the send_tx
// case's generator. node:http's client cost ~230 µs of CPU a request here (its request and response
// objects, header parsing, stream events), more than the node's whole RPC thread spends on a
// transfer, on the two cores the node is measured on. This costs a fraction of that.
import { connect } from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

export class RawHttpConnection {
  /** A connection to `url` once it is made. */
  static async open(url) {
    const c = new RawHttpConnection(url);
    await c.ready;
    return c;
  }

  /** @param {string} url the server's base URL (http://host:port) */
  constructor(url) {
    const { hostname, port } = new URL(url);
    this.head = `POST / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: `;
    this.socket = connect({ host: hostname, port: Number(port), noDelay: true });
    this.chunks = [];
    this.received = 0;
    /** The response being read: its status, where its body starts, its length; null before its head. */
    this.response = null;
    this.pending = null;
    this.socket.on('data', (chunk) => this.onData(chunk));
    const fail = (err) => {
      const p = this.pending;
      this.pending = null;
      p?.reject(err);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
  }

  /** POSTs a JSON body to `/`; resolves with the status and the body's text. */
  post(body) {
    if (this.pending) return Promise.reject(new Error('a request is already in flight'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(`${this.head}${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  onData(chunk) {
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (!this.response) {
      const all = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks);
      const end = all.indexOf(HEADER_END);
      if (end < 0) return;
      const head = all.toString('latin1', 0, end);
      const length = CONTENT_LENGTH.exec(head);
      if (!length) {
        this.socket.destroy(new Error(`a response without content-length: ${head.split('\r\n')[0]}`));
        return;
      }
      this.response = { status: Number(head.slice(9, 12)), start: end + 4, length: Number(length[1]) };
      this.chunks = [all];
    }
    const { status, start, length } = this.response;
    if (this.received < start + length) return;
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const text = all.toString('utf8', start, start + length);
    this.chunks = [];
    this.received = 0;
    this.response = null;
    const p = this.pending;
    this.pending = null;
    p?.resolve({ status, text });
  }

  /** Whether a request can still be sent (the connection has not failed or been closed). */
  get usable() {
    return this.socket.writable;
  }

  close() {
    this.socket.end();
  }
}
