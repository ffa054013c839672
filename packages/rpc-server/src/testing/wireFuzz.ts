/**
 * Hostile frames for the wire fuzz test, drawn from a seeded generator so a failing run can be
 * replayed (`HERMES_FUZZ_SEED`). Hostile requests only name methods that cannot change anything
 * outside the test's HERMES_HOME (no shell.exec, cli.exec, config.set), and their ids never start
 * with `probe-` nor are small numbers (the test's own client numbers its requests from 0).
 */

// The one seeded generator (mulberry32) of the generated tests.
import { seededRandom } from '../../../../scripts/testing/seededRandom.ts';

export { seededRandom };

const SAFE_METHODS = [
  'session.search',
  'session.list',
  'session.history',
  'session.resume',
  'session.title',
  'session.interrupt',
  'session.usage',
  'session.close',
  'session.create',
  'prompt.submit',
  'complete.slash',
  'complete.path',
  'commands.catalog',
  'tools.list',
  'model.options',
  'plugins.list',
  'config.get',
  'approvals.check',
];

const UNICODE = ['é', '世界', '🎉', '\u0000', '\u202e', '\ufeff', '\\u', '"', '\n', '𝕏', '\ud800'];

export class HostileFrames {
  private readonly rand: () => number;
  private counter = 0;

  constructor(seed: number) {
    this.rand = seededRandom(seed);
  }

  private int(max: number): number {
    return Math.floor(this.rand() * max);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  private text(max = 40): string {
    let out = '';
    const n = this.int(max);
    for (let i = 0; i < n; i += 1) out += this.rand() < 0.2 ? this.pick(UNICODE) : String.fromCharCode(32 + this.int(95));
    return out;
  }

  /** A hostile request id: repeated often, so duplicates in flight happen. */
  private hostileId(): unknown {
    const r = this.rand();
    if (r < 0.3) return `h-${this.int(50)}`;
    if (r < 0.4) return 'h-dup';
    if (r < 0.5) return 1_000_000 + this.int(100);
    if (r < 0.55) return -1 - this.int(100) + 0.5;
    if (r < 0.6) return null;
    return this.junkValue(2);
  }

  /** Any JSON value, nested up to `depth`. */
  junkValue(depth: number): unknown {
    const r = this.int(depth > 0 ? 9 : 6);
    switch (r) {
      case 0:
        return null;
      case 1:
        return this.rand() < 0.5;
      case 2:
        return this.rand() < 0.5 ? this.int(1e9) - 5e8 : this.rand() * 1e300;
      case 3:
        return this.text();
      case 4:
        return '';
      case 5:
        return this.pick([0, -0, 1e-300, Number.MAX_SAFE_INTEGER]);
      case 6:
        return Array.from({ length: this.int(4) }, () => this.junkValue(depth - 1));
      default: {
        const o: Record<string, unknown> = {};
        for (let i = this.int(4); i > 0; i -= 1) o[this.pick(['id', 'query', 'session_id', 'text', '__proto__', 'constructor', this.text(8)])] = this.junkValue(depth - 1);
        return o;
      }
    }
  }

  /** One hostile line (without its newline), as text or raw bytes. */
  next(): string | Buffer {
    this.counter += 1;
    const kind = this.int(20);
    switch (kind) {
      case 0: // not JSON at all
        return this.pick(['{', '}', '[', 'nul', 'undefined', "{'a':1}", '{"jsonrpc":"2.0",', this.text(60), 'NaN', '1e99999']);
      case 1: // bytes that are not UTF-8
        return Buffer.from([0xff, 0xfe, 0x7b, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1].slice(0, 1 + this.int(10)));
      case 2: // a valid frame cut short
        return JSON.stringify({ jsonrpc: '2.0', id: 'h-cut', method: 'session.list', params: {} }).slice(0, this.int(50));
      case 3: // bad ids
        return JSON.stringify({ jsonrpc: '2.0', id: this.pick([true, false, {}, [], [1], { id: 1 }, [null]]), method: this.pick(SAFE_METHODS) });
      case 4: // wrong or missing version
        return JSON.stringify({ jsonrpc: this.pick(['1.0', 2, 2.0, null, '2.0 ', '']), id: this.hostileId(), method: 'session.list' });
      case 5: // method of the wrong type, or unknown (Object.prototype's names included)
        return JSON.stringify({
          jsonrpc: '2.0',
          id: this.hostileId(),
          method: this.rand() < 0.5 ? this.junkValue(1) : this.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', this.text(30)]),
        });
      case 6: // $/cancelRequest without or with odd params
        return JSON.stringify(
          this.rand() < 0.4
            ? { jsonrpc: '2.0', method: '$/cancelRequest' }
            : { jsonrpc: '2.0', method: '$/cancelRequest', params: this.rand() < 0.5 ? this.junkValue(2) : { id: this.hostileId() } },
        );
      case 7: // responses to ids nobody asked
        return JSON.stringify(
          this.rand() < 0.5
            ? { jsonrpc: '2.0', id: this.pick([`srq-${this.text(6)}`, 'h-1', 1_000_007, null]), result: this.junkValue(2) }
            : { jsonrpc: '2.0', id: this.hostileId(), error: this.rand() < 0.5 ? { code: -1, message: this.text() } : this.junkValue(1) },
        );
      case 8: // notifications of unknown methods
        return JSON.stringify({ jsonrpc: '2.0', method: this.pick(['event', 'exit', 'rpc.shutdown', this.text(20)]), params: this.junkValue(2) });
      case 9: // nested junk as a whole frame, or as a batch
        return JSON.stringify(this.rand() < 0.3 ? [] : this.junkValue(4));
      case 10: {
        // deep nesting
        const depth = 1000 + this.int(20_000);
        return this.rand() < 0.5 ? '['.repeat(depth) + ']'.repeat(depth) : `{"jsonrpc":"2.0","id":"h-deep","method":"session.list","params":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
      }
      case 11: // a huge string in some field, now and then
        if (this.counter % 40 !== 0) return JSON.stringify({ jsonrpc: '2.0', id: this.hostileId(), method: 'session.search', params: { query: this.text(200) } });
        return JSON.stringify({
          jsonrpc: '2.0',
          id: 'h-huge',
          method: this.pick(['session.search', 'complete.slash', 'approvals.check', 'config.get']),
          params: { query: 'q'.repeat(50_000 + this.int(300_000)), text: 't'.repeat(1000), command: 'x'.repeat(this.int(200_000)) },
        });
      case 12: // a batch of mixed frames
        return JSON.stringify(Array.from({ length: 1 + this.int(6) }, () => (this.rand() < 0.5 ? this.junkValue(2) : this.hostileRequest())));
      case 13: // blank and whitespace-only lines, stray carriage returns
        return this.pick(['', ' ', '\t', '\r', '  \r']);
      default: // real methods with missing or odd params
        return JSON.stringify(this.hostileRequest());
    }
  }

  private hostileRequest(): Record<string, unknown> {
    const frame: Record<string, unknown> = { jsonrpc: '2.0', id: this.hostileId(), method: this.pick(SAFE_METHODS) };
    if (typeof frame.id === 'object' && frame.id !== null) frame.id = `h-${this.int(50)}`;
    const r = this.rand();
    if (r < 0.2) return frame;
    if (r < 0.4) frame.params = this.junkValue(3);
    else frame.params = { session_id: this.pick(['', 'nope', this.text(10), 5, null]), query: this.junkValue(1), text: this.text(), key: this.text(10), word: this.text(10), command: 'ls', limit: this.junkValue(0) };
    return frame;
  }
}
